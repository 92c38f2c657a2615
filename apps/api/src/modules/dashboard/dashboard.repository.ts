import { type SQL, sql } from 'drizzle-orm';
import { dashboardConfigs } from '../../db/schema/indicators.js';
import type { ReadTx, WriteTx } from '../../db/scope.js';

/**
 * The dashboard's figures, each one statement. Claims are summed from their daily rollup
 * (claim_daily_totals: per day and declared state, for the totals and for each breakdown) and the
 * fleet from its daily movements (fleet_daily_movements), both kept by triggers in the transaction
 * of every write (migration 0018, decision 0XX-dashboard-daily-rollup): a window reads a few rows
 * per day, whatever the number of claims. Amounts come back as text (bigint and numeric), counts as int.
 */

export type ClaimWindow = { startDate: string; endDate: string; isDeclared?: boolean | undefined };

const declared = (isDeclared: boolean | undefined, alias: string): SQL =>
  isDeclared === undefined ? sql`` : sql` and ${sql.raw(alias)}.is_declared = ${isDeclared}`;

/** Claims of the window: not archived, sinisterDate within both days, declared state as asked (the top drivers read them one by one). */
const claimsWhere = (w: ClaimWindow): SQL =>
  sql`s.archived_at is null and s.sinister_date between ${w.startDate}::date and ${w.endDate}::date${declared(w.isDeclared, 's')}`;
const claimsIn = (w: ClaimWindow): SQL => sql`sinisters s where ${claimsWhere(w)}`;

/** The same claims, as the rows of one breakdown of their daily rollup. */
const totalsIn = (breakdown: 'total' | 'guarantee' | 'responsibility' | 'category', w: ClaimWindow): SQL =>
  sql`claim_daily_totals t where t.breakdown = ${breakdown} and t.day between ${w.startDate}::date and ${w.endDate}::date${declared(w.isDeclared, 't')}`;

async function rows<T>(tx: ReadTx | WriteTx, query: SQL): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Cost of the window's claims and the premiums it earned: each period's cashReceived pro-rated by
 * the days of the period inside the window (both ends included), summed exactly and rounded once
 * to the cent.
 */
export async function lossRatio(tx: ReadTx, w: ClaimWindow) {
  const [row] = await rows<{ cost: string; earned: string }>(
    tx,
    sql`select
      (select coalesce(sum(t.cost_cents), 0)::text from ${totalsIn('total', w)}) as cost,
      (select coalesce(round(sum(
         i.cash_received_cents::numeric
         * (least(i.end_date, ${w.endDate}::date) - greatest(i.start_date, ${w.startDate}::date) + 1)
         / (i.end_date - i.start_date + 1))), 0)::text
       from indicators i where i.start_date <= ${w.endDate}::date and i.end_date >= ${w.startDate}::date) as earned`,
  );
  return { costCents: Number(row!.cost), earnedCents: Number(row!.earned) };
}

export async function claimCount(tx: ReadTx, w: ClaimWindow) {
  const [row] = await rows<{ n: number }>(tx, sql`select coalesce(sum(t.claims), 0)::int as n from ${totalsIn('total', w)}`);
  return row!.n;
}

export function periodsNewestFirst(tx: ReadTx) {
  return rows<{ uuid: string; start_date: string; end_date: string; motors_count: number; cash_received_cents: string }>(
    tx,
    sql`select i.uuid, i.start_date::text, i.end_date::text, i.motors_count, i.cash_received_cents::text from indicators i order by i.start_date desc, i.end_date desc`,
  );
}

/**
 * The fleet's movements, one line per day: vehicles entering that day and vehicles gone from that
 * day on (the day after their exit, or after their archiving when no exit date was kept). The fleet
 * on any day is the running sum up to it: one pass over the days with a movement, whatever the
 * number of days asked. A vehicle without entry date has always been there (day 0001-01-01);
 * drafts (no plate) are not vehicles yet.
 */
export function fleetMovements(tx: ReadTx) {
  return rows<{ day: string; entered: number; gone: number }>(
    tx,
    sql`select m.day::text, m.entered, m.gone from fleet_daily_movements m order by m.day`,
  );
}

/** Months with at least one claim (the service adds the empty ones). */
export function monthly(tx: ReadTx, w: ClaimWindow) {
  return rows<{ month: string; claims: number; cost: string }>(
    tx,
    sql`select to_char(t.day, 'YYYY-MM') as month, sum(t.claims)::int as claims, sum(t.cost_cents)::text as cost
      from ${totalsIn('total', w)} group by 1 having sum(t.claims) > 0 order by 1`,
  );
}

export function byGuarantee(tx: ReadTx, w: ClaimWindow) {
  return rows<{ guarantee_uuid: string | null; label: string | null; claims: number; cost: string }>(
    tx,
    sql`select c.guarantee_uuid, g.label, c.claims, c.cost::text from (
        select t.guarantee_uuid, sum(t.claims)::int as claims, sum(t.cost_cents) as cost from ${totalsIn('guarantee', w)}
        group by 1 having sum(t.claims) > 0
      ) c left join guarantees g on g.uuid = c.guarantee_uuid
      order by c.cost desc, c.claims desc, g.label nulls last`,
  );
}

export function byResponsibility(tx: ReadTx, w: ClaimWindow) {
  return rows<{ responsibility: string; claims: number; cost: string }>(
    tx,
    sql`select t.responsibility, sum(t.claims)::int as claims, sum(t.cost_cents)::text as cost
      from ${totalsIn('responsibility', w)} group by 1 having sum(t.claims) > 0`,
  );
}

/** By the vehicle's current category (kept on the claim); no vehicle or no category is null. */
export function byCategory(tx: ReadTx, w: ClaimWindow) {
  return rows<{ type: string | null; claims: number; cost: string }>(
    tx,
    sql`select t.vehicule_type as type, sum(t.claims)::int as claims, sum(t.cost_cents)::text as cost
      from ${totalsIn('category', w)}
      group by 1 having sum(t.claims) > 0 order by sum(t.cost_cents) desc, sum(t.claims) desc, t.vehicule_type nulls last`,
  );
}

/** Drivers with the most claims they were at fault for (rate above 0, as `responsible=me`). */
export function topDrivers(tx: ReadTx, w: ClaimWindow, limit: number) {
  return rows<{ uuid: string; first_name: string; last_name: string; claims: number; cost: string }>(
    tx,
    sql`select d.uuid, d.first_name, d.last_name, c.claims, c.cost::text from (
        select s.driver_uuid, count(*)::int as claims, sum(s.total_cost_cents) as cost
        from ${claimsIn(w)} and s.responsibility_rate > 0 and s.driver_uuid is not null
        group by 1 order by 2 desc, 3 desc limit ${limit}
      ) c join drivers d on d.uuid = c.driver_uuid
      order by c.claims desc, c.cost desc, d.last_name, d.first_name`,
  );
}

export async function findConfig(tx: ReadTx) {
  const [row] = await tx.select().from(dashboardConfigs).limit(1);
  return row ?? null;
}

export async function upsertConfig(tx: WriteTx, values: { organizationUuid: string; lossRatioPercentage: number; claimFrequencyPercentage: number }) {
  const [row] = await tx
    .insert(dashboardConfigs)
    .values(values)
    .onConflictDoUpdate({
      target: dashboardConfigs.organizationUuid,
      set: { lossRatioPercentage: values.lossRatioPercentage, claimFrequencyPercentage: values.claimFrequencyPercentage, updatedAt: new Date() },
    })
    .returning();
  return row!;
}

import { type SQL, sql } from 'drizzle-orm';
import type { ClaimBreakdown } from '../../db/schema/daily-totals.js';
import { dashboardConfigs } from '../../db/schema/indicators.js';
import type { ReadTx, WriteTx } from '../../db/scope.js';

/**
 * The dashboard's figures, each one statement. Claims are summed from their daily rollup
 * (claim_daily_totals: per day and declared state, for the totals and for each breakdown) and the
 * fleet from its daily movements (fleet_daily_movements), both kept by triggers in the transaction
 * of every write (migration 0019, decision 029): a window reads a few rows
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
const totalsIn = (breakdown: ClaimBreakdown, w: ClaimWindow): SQL =>
  sql`claim_daily_totals t where t.breakdown = ${breakdown} and t.day between ${w.startDate}::date and ${w.endDate}::date${declared(w.isDeclared, 't')}`;

async function rows<T>(tx: ReadTx | WriteTx, query: SQL): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * The premiums a window earned (product rule): each period's cashReceived pro-rated by the days of
 * the period inside the window (both ends included), summed exactly and rounded once to the cent.
 * `alsoWhere` narrows the periods (the broker's table, in system scope, names the organization).
 */
export const earnedPremiums = (start: SQL, end: SQL, alsoWhere: SQL = sql``): SQL =>
  sql`(select coalesce(round(sum(
         i.cash_received_cents::numeric
         * (least(i.end_date, ${end}) - greatest(i.start_date, ${start}) + 1)
         / (i.end_date - i.start_date + 1))), 0)
       from indicators i where i.start_date <= ${end} and i.end_date >= ${start}${alsoWhere})`;

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
      ${earnedPremiums(sql`${w.startDate}::date`, sql`${w.endDate}::date`)}::text as earned`,
  );
  return { costCents: Number(row!.cost), earnedCents: Number(row!.earned) };
}

/**
 * A period (by uuid, or the latest one containing `on`) with the number of its claims, declared as
 * asked; null when there is none.
 */
export async function periodClaims(tx: ReadTx, period: { uuid: string } | { on: string }, isDeclared: boolean | undefined) {
  const which = 'uuid' in period ? sql`i.uuid = ${period.uuid}::uuid` : sql`i.start_date <= ${period.on}::date and i.end_date >= ${period.on}::date`;
  const [row] = await rows<{ uuid: string; start_date: string; end_date: string; motors_count: number; claims: number }>(
    tx,
    sql`select i.uuid, i.start_date::text as start_date, i.end_date::text as end_date, i.motors_count,
        (select coalesce(sum(t.claims), 0)::int from claim_daily_totals t
         where t.breakdown = 'total' and t.day between i.start_date and i.end_date${declared(isDeclared, 't')}) as claims
      from indicators i where ${which} order by i.start_date desc limit 1`,
  );
  return row ?? null;
}

/**
 * The fleet's running count over its movements (vehicles entering on a day, vehicles gone from a
 * day on: decision 022's rules, kept in fleet_daily_movements), read at the days `asked` gives.
 * One sort of the days with a movement and the days asked, whatever their number: an asked day
 * sorts after that day's movements, so it counts them.
 */
const fleetAt = (asked: SQL): SQL =>
  sql`select x.key, sum(x.delta) over (order by x.day, x.key nulls first) as vehicles
      from (select m.day, m.entered - m.gone as delta, null::text as key from fleet_daily_movements m
            union all select a.day, 0, a.key from (${asked}) a) x`;

/** The fleet on each day (YYYY-MM-DD). */
export function fleetOn(tx: ReadTx, days: string[]) {
  return rows<{ day: string; vehicles: number }>(
    tx,
    sql`select f.key as day, f.vehicles::int as vehicles
      from (${fleetAt(sql`select d::date as day, d as key from unnest(string_to_array(${days.join(',')}, ',')) d`)}) f
      where f.key is not null order by f.key`,
  );
}

/** Every period, newest first, with the fleet on the day its half-difference counts it (today for the current one, else its last day). */
export function periodsWithFleet(tx: ReadTx, today: string) {
  return rows<{ uuid: string; start_date: string; end_date: string; motors_count: number; cash_received_cents: string; n1: number }>(
    tx,
    sql`with p as (
        select i.uuid, i.start_date, i.end_date, i.motors_count, i.cash_received_cents,
               case when i.start_date <= ${today}::date and ${today}::date <= i.end_date then ${today}::date else i.end_date end as counted_on
        from indicators i
      )
      select p.uuid, p.start_date::text, p.end_date::text, p.motors_count, p.cash_received_cents::text, f.vehicles::int as n1
      from p join (${fleetAt(sql`select p.counted_on as day, p.uuid::text as key from p`)}) f on f.key = p.uuid::text
      order by p.start_date desc, p.end_date desc`,
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

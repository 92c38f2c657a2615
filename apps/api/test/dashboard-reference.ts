import { centsToEuros, RESPONSIBILITY_BUCKETS } from '@flotte/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { WriteTx } from '../src/db/scope.js';

/**
 * The dashboard's figures computed plainly from the registers (claims, vehicles, periods) of one
 * organization named explicitly, as the dashboard computed them before its daily rollup
 * (decision 022): the reference the property test (dashboard.property.test.ts) compares the
 * product's answers with. Written for clarity, not speed: every figure reads the claims or the
 * vehicles themselves.
 */

export type Window = { startDate: string; endDate: string; isDeclared?: boolean | undefined };
type Run = <T>(query: SQL) => Promise<T[]>;

/** Queries as flotte_system: every organization's rows are visible, so each query names its own. */
export const runAsSystem =
  (seed: <R>(fn: (tx: WriteTx) => Promise<R>) => Promise<R>): Run =>
  async <T>(query: SQL) =>
    ((await seed((tx) => tx.execute(query))) as unknown as { rows: T[] }).rows;

/** The organization's active claims of the window, declared as asked; cost is paid + reserve. */
const claims = (organization: string, w: Window) =>
  sql`(select s.*, s.paid_cents + s.reserve_cents as cost from sinisters s
      where s.organization_uuid = ${organization} and s.archived_at is null
        and s.sinister_date >= ${w.startDate}::date and s.sinister_date <= ${w.endDate}::date
        ${w.isDeclared === undefined ? sql`` : sql`and s.is_declared = ${w.isDeclared}`}) c`;

const euros = (cents: string | number | null) => centsToEuros(Number(cents ?? 0));

export async function costAndCount(run: Run, organization: string, w: Window) {
  const [row] = await run<{ cost: string; n: number }>(sql`select coalesce(sum(c.cost), 0)::text as cost, count(*)::int as n from ${claims(organization, w)}`);
  return { costCents: Number(row!.cost), claims: row!.n };
}

/** Each period's cash pro-rated by its days inside the window, rounded once to the cent. */
export async function earnedCents(run: Run, organization: string, w: Window) {
  const [row] = await run<{ earned: string }>(
    sql`select coalesce(round(sum(i.cash_received_cents::numeric
          * (least(i.end_date, ${w.endDate}::date) - greatest(i.start_date, ${w.startDate}::date) + 1)
          / (i.end_date - i.start_date + 1))), 0)::text as earned
        from indicators i where i.organization_uuid = ${organization} and i.start_date <= ${w.endDate}::date and i.end_date >= ${w.startDate}::date`,
  );
  return Number(row!.earned);
}

export async function lossRatio(run: Run, organization: string, w: Window) {
  const { costCents } = await costAndCount(run, organization, w);
  const earned = await earnedCents(run, organization, w);
  return { startDate: w.startDate, endDate: w.endDate, costOfClaims: centsToEuros(costCents), earnedPremiums: centsToEuros(earned), ratio: earned === 0 ? null : (costCents * 100) / earned };
}

/** Every month from the window's first to its last, empty ones at zero. */
export async function monthly(run: Run, organization: string, w: Window) {
  const found = await run<{ month: string; n: number; cost: string }>(
    sql`select to_char(c.sinister_date, 'YYYY-MM') as month, count(*)::int as n, sum(c.cost)::text as cost from ${claims(organization, w)} group by 1`,
  );
  const months: { month: string; claims: number; cost: number }[] = [];
  let [year, month] = w.startDate.split('-').map(Number) as [number, number];
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    if (key > w.endDate.slice(0, 7)) break;
    const row = found.find((r) => r.month === key);
    months.push({ month: key, claims: row?.n ?? 0, cost: euros(row?.cost ?? 0) });
    month += 1;
    if (month === 13) [year, month] = [year + 1, 1];
  }
  return months;
}

export async function byGuarantee(run: Run, organization: string, w: Window) {
  const rows = await run<{ uuid: string | null; label: string | null; n: number; cost: string }>(
    sql`select c.guarantee_uuid as uuid, g.label, count(*)::int as n, sum(c.cost)::text as cost
        from ${claims(organization, w)} left join guarantees g on g.uuid = c.guarantee_uuid
        group by c.guarantee_uuid, g.label
        order by sum(c.cost) desc, count(*) desc, g.label nulls last`,
  );
  return rows.map((r) => ({ guaranteeUuid: r.uuid, label: r.label, claims: r.n, cost: euros(r.cost) }));
}

export async function byResponsibility(run: Run, organization: string, w: Window) {
  const rows = await run<{ rate: number | null; n: number; cost: string }>(
    sql`select c.responsibility_rate as rate, count(*)::int as n, sum(c.cost)::text as cost from ${claims(organization, w)} group by 1`,
  );
  const bucket = (rate: number | null) => (rate === null ? 'unknown' : rate === 0 ? 'notAtFault' : rate === 100 ? 'atFault' : 'shared');
  return RESPONSIBILITY_BUCKETS.map((responsibility) => {
    const inBucket = rows.filter((r) => bucket(r.rate) === responsibility);
    return {
      responsibility,
      claims: inBucket.reduce((sum, r) => sum + r.n, 0),
      cost: centsToEuros(inBucket.reduce((sum, r) => sum + Number(r.cost), 0)),
    };
  });
}

/** By the category the claim's vehicle has now (a vehicle of the same organization); none: null. */
export async function byCategory(run: Run, organization: string, w: Window) {
  const rows = await run<{ type: string | null; n: number; cost: string }>(
    sql`select v.type, count(*)::int as n, sum(c.cost)::text as cost
        from ${claims(organization, w)} left join vehicules v on v.uuid = c.vehicule_uuid and v.organization_uuid = c.organization_uuid
        group by v.type order by sum(c.cost) desc, count(*) desc, v.type nulls last`,
  );
  return rows.map((r) => ({ type: r.type, claims: r.n, cost: euros(r.cost) }));
}

/** Drivers with claims they were at fault for (rate above 0) in the window, most first, ten at most. */
export async function topDrivers(run: Run, organization: string, w: Window) {
  const rows = await run<{ uuid: string; first_name: string; last_name: string; n: number; cost: string }>(
    sql`select d.uuid, d.first_name, d.last_name, count(*)::int as n, sum(c.cost)::text as cost
        from ${claims(organization, w)} join drivers d on d.uuid = c.driver_uuid
        where c.responsibility_rate > 0
        group by d.uuid, d.first_name, d.last_name
        order by count(*) desc, sum(c.cost) desc, d.last_name, d.first_name limit 10`,
  );
  return rows.map((r) => ({ driverUuid: r.uuid, firstName: r.first_name, lastName: r.last_name, atFaultClaims: r.n, cost: euros(r.cost) }));
}

/**
 * The fleet on a day, as decision 022 defines it: vehicles with a plate (drafts are not vehicles)
 * entered on or before that day (no entry date: always there), minus those gone by then (their
 * exit, or their archiving day without exit date, before that day). A vehicle whose exit or
 * archiving precedes its entry counts -1 between the two, as it always did.
 */
export async function fleetOn(run: Run, organization: string, day: string) {
  const [row] = await run<{ n: number }>(
    sql`select (count(*) filter (where v.entry_date is null or v.entry_date <= ${day}::date)
              - count(*) filter (where coalesce(v.exit_date, v.archived_at::date) < ${day}::date))::int as n
        from vehicules v where v.organization_uuid = ${organization} and v.immatriculation is not null`,
  );
  return row!.n;
}

export type Period = { uuid: string; startDate: string; endDate: string; motorsCount: number; cashReceivedCents: number };

export async function periods(run: Run, organization: string): Promise<Period[]> {
  const rows = await run<{ uuid: string; start_date: string; end_date: string; motors_count: number; cash: string }>(
    sql`select uuid, start_date::text, end_date::text, motors_count, cash_received_cents::text as cash from indicators
        where organization_uuid = ${organization} order by start_date desc`,
  );
  return rows.map((r) => ({ uuid: r.uuid, startDate: r.start_date, endDate: r.end_date, motorsCount: r.motors_count, cashReceivedCents: Number(r.cash) }));
}

export async function claimFrequency(run: Run, organization: string, period: Period, isDeclared: boolean | undefined) {
  const { claims: n } = await costAndCount(run, organization, { startDate: period.startDate, endDate: period.endDate, isDeclared });
  return { indicatorUuid: period.uuid, claims: n, motors: period.motorsCount, frequency: period.motorsCount === 0 ? null : (n * 100) / period.motorsCount };
}

/** DOMAIN.md's half-difference: N1 counted on the period's last day, or today for the current one. */
export async function halfDifferences(run: Run, organization: string, today: string) {
  const result = [];
  for (const p of await periods(run, organization)) {
    const isCurrent = p.startDate <= today && today <= p.endDate;
    const countedOn = isCurrent ? today : p.endDate;
    const n1 = await fleetOn(run, organization, countedOn);
    const delta = n1 - p.motorsCount;
    result.push({
      indicatorUuid: p.uuid,
      startDate: p.startDate,
      endDate: p.endDate,
      countedOn,
      isCurrent,
      n0: p.motorsCount,
      n1,
      unitPremium: p.motorsCount === 0 ? null : centsToEuros(Math.round(p.cashReceivedCents / p.motorsCount)),
      halfDifference: delta / 2,
      regularisation: p.motorsCount === 0 ? null : centsToEuros(Math.round((delta * p.cashReceivedCents) / (2 * p.motorsCount))),
    });
  }
  return result;
}

/** Every day from `margin` days before `from` to `to`, as windows start on them. */
export function daysOf(from: string, to: string, margin: number): string[] {
  const days: string[] = [];
  for (let day = new Date(Date.parse(`${from}T00:00:00Z`) - margin * 86_400_000); ; day = new Date(day.getTime() + 86_400_000)) {
    const iso = day.toISOString().slice(0, 10);
    if (iso > to) return days;
    days.push(iso);
  }
}

/** The day with the most active claims of the organization, if any. */
export async function busiestDay(run: Run, organization: string): Promise<string | null> {
  const [row] = await run<{ day: string }>(
    sql`select sinister_date::text as day from sinisters where organization_uuid = ${organization} and archived_at is null
        group by sinister_date order by count(*) desc, sinister_date limit 1`,
  );
  return row?.day ?? null;
}

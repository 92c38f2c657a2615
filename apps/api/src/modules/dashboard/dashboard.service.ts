import {
  type ClaimFrequency,
  type ClaimFrequencyQuery,
  centsToEuros,
  type DashboardConfig,
  DEFAULT_CLAIM_FREQUENCY_PERCENTAGE,
  DEFAULT_LOSS_RATIO_PERCENTAGE,
  type HalfDifference,
  type LossRatio,
  RESPONSIBILITY_BUCKETS,
  todayIso,
  type UpdateDashboardConfigBody,
} from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { readTenant, withTenant } from '../../db/scope.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import { periodOf } from '../indicators/indicators.service.js';
import * as repo from './dashboard.repository.js';

/** The window's query as parsed by DashboardWindowQuerySchema. */
export type WindowQuery = { startDate?: string | undefined; endDate?: string | undefined; isDeclared?: boolean | undefined };

/** YYYY-MM-DD shifted by whole months, the day clamped to the target month's last day. */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** SPEC 9: the window starts six months before today and ends today unless the query says otherwise. */
export function resolveWindow(q: WindowQuery, today = todayIso()): repo.ClaimWindow {
  const endDate = q.endDate ?? (q.startDate && q.startDate > today ? q.startDate : today);
  const startDate = q.startDate ?? (addMonths(today, -6) <= endDate ? addMonths(today, -6) : endDate);
  return { startDate, endDate, isDeclared: q.isDeclared };
}

/** The fleet on a day from its movements (sorted by day): entered minus gone up to that day. */
function fleetCounter(movements: { day: string; entered: number; gone: number }[]) {
  const days = movements.map((m) => m.day.padStart(10, '0'));
  const running: number[] = [];
  let total = 0;
  for (const m of movements) running.push((total += m.entered - m.gone));
  return (day: string) => {
    let lo = 0;
    let hi = days.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (days[mid]! <= day) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : running[lo - 1]!;
  };
}

const euros = (cents: string | number) => centsToEuros(Number(cents));

export async function lossRatio(db: Database, ctx: AuthContext, q: WindowQuery): Promise<LossRatio> {
  const w = resolveWindow(q);
  const { costCents, earnedCents } = await readTenant(db, requireOrganization(ctx), (tx) => repo.lossRatio(tx, w));
  return {
    startDate: w.startDate,
    endDate: w.endDate,
    costOfClaims: centsToEuros(costCents),
    earnedPremiums: centsToEuros(earnedCents),
    ratio: earnedCents === 0 ? null : (costCents * 100) / earnedCents,
  };
}

/** Claims of a period (the current one when no uuid is given) over its vehicles at start. */
export async function claimFrequency(db: Database, ctx: AuthContext, q: { indicator?: string | undefined; isDeclared?: boolean | undefined }): Promise<ClaimFrequency> {
  return readTenant(db, requireOrganization(ctx), async (tx) => {
    const period = await periodOf(tx, q.indicator ?? null, todayIso());
    if (!period) throw new NotFoundError(q.indicator ? 'Période introuvable' : "Aucune période ne contient la date d'aujourd'hui");
    const claims = await repo.claimCount(tx, { startDate: period.startDate, endDate: period.endDate, isDeclared: q.isDeclared });
    return { indicatorUuid: period.uuid, claims, motors: period.motorsCount, frequency: period.motorsCount === 0 ? null : (claims * 100) / period.motorsCount };
  });
}
export type { ClaimFrequencyQuery };

/** Half-difference of every period, newest first (DOMAIN.md, product rule); amounts rounded once to the cent. */
export async function halfDifferences(db: Database, ctx: AuthContext): Promise<HalfDifference[]> {
  const today = todayIso();
  const { periods, fleet } = await readTenant(db, requireOrganization(ctx), async (tx) => ({ periods: await repo.periodsNewestFirst(tx), fleet: await repo.fleetMovements(tx) }));
  const fleetOn = fleetCounter(fleet);
  return periods.map((p) => {
    const isCurrent = p.start_date <= today && today <= p.end_date;
    const r = { ...p, counted_on: isCurrent ? today : p.end_date, n1: fleetOn(isCurrent ? today : p.end_date) };
    const cash = Number(r.cash_received_cents);
    const delta = r.n1 - r.motors_count;
    return {
      indicatorUuid: r.uuid,
      startDate: r.start_date,
      endDate: r.end_date,
      countedOn: r.counted_on,
      isCurrent,
      n0: r.motors_count,
      n1: r.n1,
      unitPremium: r.motors_count === 0 ? null : centsToEuros(Math.round(cash / r.motors_count)),
      halfDifference: delta / 2,
      regularisation: r.motors_count === 0 ? null : centsToEuros(Math.round((delta * cash) / (2 * r.motors_count))),
    };
  });
}

export async function currentHalfDifference(db: Database, ctx: AuthContext): Promise<HalfDifference | null> {
  return (await halfDifferences(db, ctx)).find((h) => h.isCurrent) ?? null;
}

export async function config(db: Database, ctx: AuthContext): Promise<DashboardConfig> {
  const row = await readTenant(db, requireOrganization(ctx), (tx) => repo.findConfig(tx));
  return {
    lossRatioPercentage: row?.lossRatioPercentage ?? DEFAULT_LOSS_RATIO_PERCENTAGE,
    claimFrequencyPercentage: row?.claimFrequencyPercentage ?? DEFAULT_CLAIM_FREQUENCY_PERCENTAGE,
  };
}

export async function updateConfig(db: Database, ctx: AuthContext, body: UpdateDashboardConfigBody): Promise<DashboardConfig> {
  if (!isAdmin(ctx)) throw new ForbiddenError('Seul un administrateur peut modifier les limites');
  const organizationUuid = requireOrganization(ctx);
  const row = await withTenant(db, organizationUuid, (tx) => repo.upsertConfig(tx, { organizationUuid, ...body }));
  return { lossRatioPercentage: row.lossRatioPercentage, claimFrequencyPercentage: row.claimFrequencyPercentage };
}

/** Every month of the window, the empty ones included. */
export async function monthly(db: Database, ctx: AuthContext, q: WindowQuery) {
  const w = resolveWindow(q);
  const rows = await readTenant(db, requireOrganization(ctx), (tx) => repo.monthly(tx, w));
  const found = new Map(rows.map((r) => [r.month, r]));
  const months: { month: string; claims: number; cost: number }[] = [];
  for (let m = `${w.startDate.slice(0, 7)}-01`; m.slice(0, 7) <= w.endDate.slice(0, 7); m = addMonths(m, 1)) {
    const row = found.get(m.slice(0, 7));
    months.push({ month: m.slice(0, 7), claims: row?.claims ?? 0, cost: row ? euros(row.cost) : 0 });
  }
  return months;
}

export async function byGuarantee(db: Database, ctx: AuthContext, q: WindowQuery) {
  const rows = await readTenant(db, requireOrganization(ctx), (tx) => repo.byGuarantee(tx, resolveWindow(q)));
  return rows.map((r) => ({ guaranteeUuid: r.guarantee_uuid, label: r.label, claims: r.claims, cost: euros(r.cost) }));
}

/** The four buckets always, in a fixed order: at fault (100 %), shared (25–75 %), not at fault (0 %), unknown. */
export async function byResponsibility(db: Database, ctx: AuthContext, q: WindowQuery) {
  const rows = await readTenant(db, requireOrganization(ctx), (tx) => repo.byResponsibility(tx, resolveWindow(q)));
  return RESPONSIBILITY_BUCKETS.map((responsibility) => {
    const row = rows.find((r) => r.responsibility === responsibility);
    return { responsibility, claims: row?.claims ?? 0, cost: row ? euros(row.cost) : 0 };
  });
}

export async function byCategory(db: Database, ctx: AuthContext, q: WindowQuery) {
  const rows = await readTenant(db, requireOrganization(ctx), (tx) => repo.byCategory(tx, resolveWindow(q)));
  return rows.map((r) => ({ type: r.type, claims: r.claims, cost: euros(r.cost) }));
}

export const TOP_DRIVERS = 10;

/** The 12 months ending on the window's last day (DOMAIN.md "Prevention": two at-fault claims in 12 months). */
export async function topDrivers(db: Database, ctx: AuthContext, q: WindowQuery) {
  const w = resolveWindow(q);
  const last12 = { startDate: addDays(addMonths(w.endDate, -12), 1), endDate: w.endDate, isDeclared: w.isDeclared };
  const rows = await readTenant(db, requireOrganization(ctx), (tx) => repo.topDrivers(tx, last12, TOP_DRIVERS));
  return rows.map((r) => ({ driverUuid: r.uuid, firstName: r.first_name, lastName: r.last_name, atFaultClaims: r.claims, cost: euros(r.cost) }));
}

/** Fleet size on the window's first day, on the last day of each month, and on its last day. */
export async function fleetSize(db: Database, ctx: AuthContext, q: WindowQuery) {
  const w = resolveWindow(q);
  const days = new Set([w.startDate]);
  for (let m = `${w.startDate.slice(0, 7)}-01`; m <= w.endDate; m = addMonths(m, 1)) {
    const monthEnd = addDays(addMonths(m, 1), -1);
    if (monthEnd >= w.startDate && monthEnd <= w.endDate) days.add(monthEnd);
  }
  days.add(w.endDate);
  const fleetOn = fleetCounter(await readTenant(db, requireOrganization(ctx), (tx) => repo.fleetMovements(tx)));
  return [...days].map((date) => ({ date, vehicles: fleetOn(date) }));
}

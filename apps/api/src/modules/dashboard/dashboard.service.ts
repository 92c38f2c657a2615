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
import { type ReadTx, readTenant, withTenant } from '../../db/scope.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import * as repo from './dashboard.repository.js';

/** The earned premiums' SQL, for the broker's table (one statement over an environment's organizations). */
export { earnedPremiums } from './dashboard.repository.js';

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

const euros = (cents: string | number) => centsToEuros(Number(cents));

/** S/P in percent, exact (decision 022): null without premiums. */
export const lossRatioPercent = (costCents: number, earnedCents: number) => (earnedCents === 0 ? null : (costCents * 100) / earnedCents);
/** Frequency in percent, exact: null when the period has no vehicle. */
export const frequencyPercent = (claims: number, motors: number) => (motors === 0 ? null : (claims * 100) / motors);
/** Half-difference's regularisation in cents, rounded once (DOMAIN.md): null when the period has no vehicle at start. */
export const regularisationCents = (n0: number, n1: number, cashCents: number) => (n0 === 0 ? null : Math.round(((n1 - n0) * cashCents) / (2 * n0)));

export async function lossRatio(db: Database, ctx: AuthContext, q: WindowQuery): Promise<LossRatio> {
  const w = resolveWindow(q);
  const { costCents, earnedCents } = await readTenant(db, requireOrganization(ctx), (tx) => repo.lossRatio(tx, w));
  return {
    startDate: w.startDate,
    endDate: w.endDate,
    costOfClaims: centsToEuros(costCents),
    earnedPremiums: centsToEuros(earnedCents),
    ratio: lossRatioPercent(costCents, earnedCents),
  };
}

/** Claims of a period (the current one when no uuid is given) over its vehicles at start. */
export async function claimFrequency(db: Database, ctx: AuthContext, q: { indicator?: string | undefined; isDeclared?: boolean | undefined }): Promise<ClaimFrequency> {
  const period = await readTenant(db, requireOrganization(ctx), (tx) => repo.periodClaims(tx, q.indicator ? { uuid: q.indicator } : { on: todayIso() }, q.isDeclared));
  if (!period) throw new NotFoundError(q.indicator ? 'Période introuvable' : "Aucune période ne contient la date d'aujourd'hui");
  const { uuid, motors_count: motors, claims } = period;
  return { indicatorUuid: uuid, claims, motors, frequency: frequencyPercent(claims, motors) };
}
export type { ClaimFrequencyQuery };

/**
 * The current period's S/P to date (its start to today, premiums earned to date) and frequency,
 * with the organization's limits, in the caller's tenant transaction: the figures the prevention
 * alerts judge (decision 037), by the same statements as the dashboard's cards. Null without a
 * period containing today.
 */
export async function currentPeriodFigures(tx: ReadTx, today = todayIso()) {
  const period = await repo.periodClaims(tx, { on: today }, undefined);
  if (!period) return null;
  const countedUntil = period.end_date < today ? period.end_date : today;
  const { costCents, earnedCents } = await repo.lossRatio(tx, { startDate: period.start_date, endDate: countedUntil });
  const limits = await repo.findConfig(tx);
  return {
    periodUuid: period.uuid,
    startDate: period.start_date,
    endDate: period.end_date,
    countedUntil,
    lossRatio: earnedCents === 0 ? null : (costCents * 100) / earnedCents,
    claims: period.claims,
    motors: period.motors_count,
    frequency: period.motors_count === 0 ? null : (period.claims * 100) / period.motors_count,
    lossRatioLimit: limits?.lossRatioPercentage ?? DEFAULT_LOSS_RATIO_PERCENTAGE,
    frequencyLimit: limits?.claimFrequencyPercentage ?? DEFAULT_CLAIM_FREQUENCY_PERCENTAGE,
  };
}

/** Half-difference of every period, newest first (DOMAIN.md, product rule); amounts rounded once to the cent. */
export async function halfDifferences(db: Database, ctx: AuthContext): Promise<HalfDifference[]> {
  const today = todayIso();
  const periods = await readTenant(db, requireOrganization(ctx), (tx) => repo.periodsWithFleet(tx, today));
  return periods.map((p) => {
    const isCurrent = p.start_date <= today && today <= p.end_date;
    const cash = Number(p.cash_received_cents);
    const delta = p.n1 - p.motors_count;
    return {
      indicatorUuid: p.uuid,
      startDate: p.start_date,
      endDate: p.end_date,
      countedOn: isCurrent ? today : p.end_date,
      isCurrent,
      n0: p.motors_count,
      n1: p.n1,
      unitPremium: p.motors_count === 0 ? null : centsToEuros(Math.round(cash / p.motors_count)),
      halfDifference: delta / 2,
      regularisation: p.motors_count === 0 ? null : centsToEuros(regularisationCents(p.motors_count, p.n1, cash)!),
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
  const counts = new Map((await readTenant(db, requireOrganization(ctx), (tx) => repo.fleetOn(tx, [...days]))).map((r) => [r.day, r.vehicles]));
  return [...days].map((date) => ({ date, vehicles: counts.get(date) ?? 0 }));
}

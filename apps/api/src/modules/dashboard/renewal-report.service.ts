import { centsToEuros, type SinisterStatus, type ClaimFrequency, type DashboardConfig, type HalfDifference, type LossRatio } from '@flotte/contract';
import type { Readable } from 'node:stream';
import type { Database } from '../../db/client.js';
import { readTenant } from '../../db/scope.js';
import { NotFoundError } from '../../errors.js';
import { type AuthContext, requireOrganization } from '../../lib/auth-context.js';
import * as dashboard from './dashboard.service.js';
import { type ReportParties, reportParties } from './renewal-report.parties.js';
import { renderRenewalReport } from './renewal-report.pdf.js';
import * as repo from './renewal-report.repository.js';

/**
 * The claims the report lists, at most: about twenty pages. Beyond it the report says how many
 * more the window holds; the figures, the chart and the breakdowns always count every claim.
 */
export const REPORT_CLAIMS_MAX = 500;

export type ReportClaim = {
  date: string;
  ref: string | null;
  immatriculation: string | null;
  driverName: string | null;
  guarantee: string | null;
  city: string | null;
  responsibilityRate: number | null;
  isDeclared: boolean;
  status: SinisterStatus;
  paid: number;
  reserve: number;
  cost: number;
};

/** Everything the PDF shows; every figure comes from the dashboard's service functions. */
export type RenewalReportData = {
  organization: string;
  window: { startDate: string; endDate: string; isDeclared: boolean | undefined };
  issuedOn: string;
  parties: ReportParties;
  config: DashboardConfig;
  lossRatio: LossRatio;
  /** The current period's, as the dashboard shows it; null without a current period. */
  frequency: (ClaimFrequency & { startDate: string; endDate: string }) | null;
  currentHalfDifference: HalfDifference | null;
  halfDifferences: HalfDifference[];
  monthly: Awaited<ReturnType<typeof dashboard.monthly>>;
  byGuarantee: Awaited<ReturnType<typeof dashboard.byGuarantee>>;
  byResponsibility: Awaited<ReturnType<typeof dashboard.byResponsibility>>;
  byCategory: Awaited<ReturnType<typeof dashboard.byCategory>>;
  topDrivers: Awaited<ReturnType<typeof dashboard.topDrivers>>;
  claims: ReportClaim[];
  /** Every claim of the window (the monthly counts summed); claims.length when all are listed. */
  claimsTotal: number;
};

async function currentFrequency(db: Database, ctx: AuthContext, q: dashboard.WindowQuery, halfDifferences: HalfDifference[]) {
  try {
    const frequency = await dashboard.claimFrequency(db, ctx, { isDeclared: q.isDeclared });
    const period = halfDifferences.find((h) => h.indicatorUuid === frequency.indicatorUuid);
    return period ? { ...frequency, startDate: period.startDate, endDate: period.endDate } : null;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

export async function reportData(db: Database, ctx: AuthContext, q: dashboard.WindowQuery, today: string): Promise<RenewalReportData> {
  const organizationUuid = requireOrganization(ctx);
  const w = dashboard.resolveWindow(q, today);
  const window = { startDate: w.startDate, endDate: w.endDate, isDeclared: w.isDeclared };
  // One at a time: each is one short read, and a request must not hold several connections.
  const config = await dashboard.config(db, ctx);
  const lossRatio = await dashboard.lossRatio(db, ctx, window);
  const halfDifferences = await dashboard.halfDifferences(db, ctx);
  const frequency = await currentFrequency(db, ctx, window, halfDifferences);
  const monthly = await dashboard.monthly(db, ctx, window);
  const byGuarantee = await dashboard.byGuarantee(db, ctx, window);
  const byResponsibility = await dashboard.byResponsibility(db, ctx, window);
  const byCategory = await dashboard.byCategory(db, ctx, window);
  const topDrivers = await dashboard.topDrivers(db, ctx, window);
  const parties = await reportParties(db, ctx);
  const { organization, rows } = await readTenant(db, organizationUuid, async (tx) => ({
    organization: (await repo.organizationTitle(tx)) ?? '',
    rows: await repo.claimsOfWindow(tx, w, REPORT_CLAIMS_MAX),
  }));
  return {
    organization,
    window,
    issuedOn: today,
    parties,
    config,
    lossRatio,
    frequency,
    currentHalfDifference: halfDifferences.find((h) => h.isCurrent) ?? null,
    halfDifferences,
    monthly,
    byGuarantee,
    byResponsibility,
    byCategory,
    topDrivers,
    claims: rows.map((r) => ({
      date: r.sinister_date,
      ref: r.ref,
      immatriculation: r.immatriculation,
      driverName: r.driver_name,
      guarantee: r.guarantee,
      city: r.city,
      responsibilityRate: r.responsibility_rate,
      isDeclared: r.is_declared,
      status: r.status as SinisterStatus,
      paid: centsToEuros(Number(r.paid_cents)),
      reserve: centsToEuros(Number(r.reserve_cents)),
      cost: centsToEuros(Number(r.cost_cents)),
    })),
    claimsTotal: monthly.reduce((sum, m) => sum + m.claims, 0),
  };
}

/** `Transports Martin & Fils` → `transports-martin-fils`: ASCII letters, digits and dashes only. */
export function fileSlug(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/œ/g, 'oe')
    .replace(/Œ/g, 'OE')
    .replace(/æ/g, 'ae')
    .replace(/Æ/g, 'AE')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'organisation';
}

export function reportFileName(data: Pick<RenewalReportData, 'organization' | 'window'>): string {
  return `rapport-sinistralite-${fileSlug(data.organization)}-${data.window.startDate}-${data.window.endDate}.pdf`;
}

/** The PDF as a stream, written page by page while the client reads it. */
export async function renewalReport(db: Database, ctx: AuthContext, q: dashboard.WindowQuery, today: string): Promise<{ fileName: string; stream: Readable }> {
  const data = await reportData(db, ctx, q, today);
  return { fileName: reportFileName(data), stream: renderRenewalReport(data) };
}

/** The current organization's title as the reports print it ('' without one): the claim pack's summary too. */
export async function organizationTitle(db: Database, ctx: AuthContext): Promise<string> {
  return (await readTenant(db, requireOrganization(ctx), repo.organizationTitle)) ?? '';
}

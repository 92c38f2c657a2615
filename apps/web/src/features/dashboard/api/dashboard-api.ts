import {
  ClaimFrequencySchema,
  ClaimsByGuaranteeSchema,
  ClaimsByResponsibilitySchema,
  CurrentHalfDifferenceSchema,
  DashboardConfigSchema,
  FleetSizeSchema,
  HalfDifferenceListSchema,
  LossRatioSchema,
  MonthlyClaimsSchema,
  TopDriversSchema,
  type ClaimFrequency,
  type DashboardConfig,
  type HalfDifference,
  type LossRatio,
} from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { windowQuery, type DashboardWindow } from '../utils/dashboard-window';

// GET /api/dashboard/…: every figure under queryKeys.dashboard (a write to the periods or the
// limits refreshes them all). Schemas check the answers in development and tests only (decision 015).
// `dev ? Schema : undefined` at each call: the build folds it and leaves the schemas out.
const dev = import.meta.env.DEV;

export type MonthlyClaims = z.infer<typeof MonthlyClaimsSchema>;
export type ClaimsByGuarantee = z.infer<typeof ClaimsByGuaranteeSchema>;
export type ClaimsByResponsibility = z.infer<typeof ClaimsByResponsibilitySchema>;
export type TopDrivers = z.infer<typeof TopDriversSchema>;
export type FleetSize = z.infer<typeof FleetSizeSchema>;

function figure<T>(name: string, schema: z.ZodType<T> | undefined, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  return queryOptions({
    queryKey: queryKeys.dashboard.figure(name, query),
    queryFn: ({ signal }) => api<T>(`/api/dashboard/${name}${search ? `?${search}` : ''}`, { schema, signal }),
  });
}

/** The figures over the window (loss ratio, breakdowns, fleet size). */
export const windowFigures = (window: DashboardWindow) => {
  const q = windowQuery(window);
  return {
    lossRatio: figure<LossRatio>('loss-ratio', dev ? LossRatioSchema : undefined, q),
    monthly: figure<MonthlyClaims>('claims-by-month', dev ? MonthlyClaimsSchema : undefined, q),
    byGuarantee: figure<ClaimsByGuarantee>('claims-by-guarantee', dev ? ClaimsByGuaranteeSchema : undefined, q),
    byResponsibility: figure<ClaimsByResponsibility>('claims-by-responsibility', dev ? ClaimsByResponsibilitySchema : undefined, q),
    topDrivers: figure<TopDrivers>('top-drivers', dev ? TopDriversSchema : undefined, q),
    fleetSize: figure<FleetSize>('fleet-size', dev ? FleetSizeSchema : undefined, q),
  };
};

/** The claim frequency of the current period (404 when no period contains today: `retry` off). */
export function claimFrequencyOptions(declared: DashboardWindow['declared']) {
  const q: Record<string, string> = declared === 'all' ? {} : { isDeclared: String(declared === 'declared') };
  return { ...figure<ClaimFrequency>('claim-frequency', dev ? ClaimFrequencySchema : undefined, q), retry: false };
}

export const halfDifferencesOptions = () => figure<HalfDifference[]>('half-differences', dev ? HalfDifferenceListSchema : undefined);
export const currentHalfDifferenceOptions = () => figure<HalfDifference | null>('current-half-difference', dev ? CurrentHalfDifferenceSchema : undefined);

/** The limits, under the same key as the /parameters page's (features/indicators). */
export const dashboardConfigOptions = () =>
  queryOptions({
    queryKey: queryKeys.dashboard.config(),
    queryFn: ({ signal }) => api<DashboardConfig>('/api/dashboard/config', { schema: dev ? DashboardConfigSchema : undefined, signal }),
  });

export const useDashboardConfig = () => useQuery(dashboardConfigOptions());

import {
  CurrentIndicatorSchema,
  DashboardConfigSchema,
  IndicatorListSchema,
  type DashboardConfig,
  type Indicator,
  type SaveIndicatorsBody,
  type UpdateDashboardConfigBody,
} from '@flotte/contract';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The insurance periods and the dashboard's limits. Every dashboard figure depends on the periods
 * (earned premiums, frequency, half-differences): a write to them makes everything under
 * `dashboard` stale too, whichever feature shows it (keys in lib/query-keys.ts, shared).
 */
const indicatorKeys = {
  all: queryKeys.indicators.all,
  list: queryKeys.indicators.list,
  current: queryKeys.indicators.current,
  dashboard: queryKeys.dashboard.all,
  config: queryKeys.dashboard.config,
};

const dev = import.meta.env.DEV;

export function indicatorsQueryOptions() {
  return queryOptions({
    queryKey: indicatorKeys.list(),
    queryFn: ({ signal }) => api<Indicator[]>('/api/indicators', { schema: dev ? IndicatorListSchema : undefined, signal }),
  });
}

export function currentIndicatorQueryOptions() {
  return queryOptions({
    queryKey: indicatorKeys.current(),
    queryFn: ({ signal }) => api<Indicator | null>('/api/indicators/current', { schema: dev ? CurrentIndicatorSchema : undefined, signal }),
  });
}

export function dashboardConfigQueryOptions() {
  return queryOptions({
    queryKey: indicatorKeys.config(),
    queryFn: ({ signal }) => api<DashboardConfig>('/api/dashboard/config', { schema: dev ? DashboardConfigSchema : undefined, signal }),
  });
}

export const useIndicators = () => useQuery(indicatorsQueryOptions());
export const useDashboardConfig = () => useQuery(dashboardConfigQueryOptions());

function invalidatePeriods(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: indicatorKeys.all });
  void queryClient.invalidateQueries({ queryKey: indicatorKeys.dashboard });
}

/** POST /api/indicators: creates (no uuid) or updates (uuid) periods; answers them all, newest first. */
export function useSaveIndicators() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveIndicatorsBody) => api<Indicator[]>('/api/indicators', { method: 'POST', body, schema: dev ? IndicatorListSchema : undefined }),
    onSuccess: (periods) => {
      queryClient.setQueryData(indicatorKeys.list(), periods);
      invalidatePeriods(queryClient);
    },
  });
}

export function useDeleteIndicator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => api<void>(`/api/indicators/${encodeURIComponent(uuid)}`, { method: 'DELETE' }),
    onSuccess: () => invalidatePeriods(queryClient),
  });
}

/** PUT /api/dashboard/config (administrators). */
export function useUpdateDashboardConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDashboardConfigBody) => api<DashboardConfig>('/api/dashboard/config', { method: 'PUT', body, schema: dev ? DashboardConfigSchema : undefined }),
    onSuccess: (config) => {
      queryClient.setQueryData(indicatorKeys.config(), config);
      void queryClient.invalidateQueries({ queryKey: indicatorKeys.dashboard });
    },
  });
}

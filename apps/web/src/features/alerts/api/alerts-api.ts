import {
  AlertPageSchema,
  MAX_LIMIT,
  OrganizationPageSchema,
  type OrganizationPage,
  PreventionAlertDetailSchema,
  PreventionAlertListSchema,
  UnreadAlertsSchema,
  type AlertPage,
  type AlertSeverity,
  type CreatePreventionAlertBody,
  type PreventionAlert,
  type PreventionAlertDetail,
  type UnreadAlerts,
} from '@flotte/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

// Prevention alerts (issue 16, decision 037): a member's /alerts and the superadmin's console.
// Schemas check the answers in development and tests only (decision 015).
const dev = import.meta.env.DEV;

export const ALERTS_KEY = ['alerts'] as const;
export const ALERTS_PAGE_SIZE = 20;

export function alertsQueryOptions(filters: { severity: AlertSeverity | ''; page: number }) {
  return queryOptions({
    queryKey: [...ALERTS_KEY, 'list', filters],
    queryFn: ({ signal }) =>
      api<AlertPage>('/api/alert', {
        query: { page: filters.page, limit: ALERTS_PAGE_SIZE, severity: filters.severity || undefined },
        schema: dev ? AlertPageSchema : undefined,
        signal,
      }),
  });
}

export const unreadAlertsQueryOptions = () =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'unread'],
    queryFn: ({ signal }) => api<UnreadAlerts>('/api/alert/unread-count', { schema: dev ? UnreadAlertsSchema : undefined, signal }),
    // Light: one count; refreshed when the window comes back and every few minutes.
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
  });

export function useUnreadAlerts(enabled = true) {
  return useQuery({ ...unreadAlertsQueryOptions(), enabled });
}

export function useMarkAlertRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => api(`/api/alert/${uuid}/read`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

export function useMarkAllAlertsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<UnreadAlerts>('/api/alert/read-all', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

const PREVENTION_KEY = (environment: string) => [...ALERTS_KEY, 'environment', environment] as const;

export function usePreventionAlerts(environment: string) {
  return useQuery({
    queryKey: [...PREVENTION_KEY(environment), 'list'],
    queryFn: ({ signal }) => api<{ data: PreventionAlert[] }>(`/api/environment/${environment}/alert`, { schema: dev ? PreventionAlertListSchema : undefined, signal }),
  });
}

export function usePreventionAlert(environment: string, uuid: string | null) {
  return useQuery({
    queryKey: [...PREVENTION_KEY(environment), 'detail', uuid],
    queryFn: ({ signal }) => api<PreventionAlertDetail>(`/api/environment/${environment}/alert/${uuid}`, { schema: dev ? PreventionAlertDetailSchema : undefined, signal }),
    enabled: uuid !== null,
  });
}

export function useCreatePreventionAlert(environment: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePreventionAlertBody) => api<PreventionAlertDetail>(`/api/environment/${environment}/alert`, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

export function useDeletePreventionAlert(environment: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => api(`/api/environment/${environment}/alert/${uuid}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

/**
 * The organizations an alert may be sent to (GET /api/organization/environment), asked here rather
 * through the organization switcher's module: shared with this lazy form, that module would leave
 * the logged layout's chunk for a file of its own on every page's first load.
 */
export function useAlertRecipients(environment: string) {
  return useQuery({
    queryKey: [...PREVENTION_KEY(environment), 'organizations'],
    queryFn: ({ signal }) => api<OrganizationPage>('/api/organization/environment', { query: { limit: MAX_LIMIT }, schema: dev ? OrganizationPageSchema : undefined, signal }),
    select: (page) => page.data.filter((organization) => organization.environment?.uuid === environment),
  });
}

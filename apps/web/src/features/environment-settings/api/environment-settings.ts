import {
  AlertDigestSettingSchema,
  EnvironmentSchema,
  type AlertDigestSetting,
  type Environment,
  type UpdateEnvironmentBody,
} from '@flotte/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

// The calls of /superadmin/settings (decision 040). The page reads the environment through the help
// dialog's own query (GET /api/environment/current, under ['environments']): after a save, every
// environment query reads again, so the dialog shows what was saved.

/** PATCH /api/environment/{uuid}; the environment queries (the help dialog's included) then read again. */
export function useUpdateEnvironment(environmentUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateEnvironmentBody) =>
      api<Environment>(`/api/environment/${environmentUuid}`, { method: 'PATCH', body, schema: import.meta.env.DEV ? EnvironmentSchema : undefined }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['environments'] }),
  });
}

/** GET /api/environment/{uuid}/alert-digest: whether the calling superadmin receives the daily digest. */
export function alertDigestQueryOptions(environmentUuid: string) {
  return queryOptions({
    queryKey: ['environments', environmentUuid, 'alert-digest'],
    queryFn: ({ signal }) =>
      api<AlertDigestSetting>(`/api/environment/${environmentUuid}/alert-digest`, { schema: import.meta.env.DEV ? AlertDigestSettingSchema : undefined, signal }),
  });
}

export function useAlertDigest(environmentUuid: string) {
  return useQuery(alertDigestQueryOptions(environmentUuid));
}

/** PUT /api/environment/{uuid}/alert-digest {enabled}. */
export function useSetAlertDigest(environmentUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      api<AlertDigestSetting>(`/api/environment/${environmentUuid}/alert-digest`, {
        method: 'PUT',
        body: { enabled },
        schema: import.meta.env.DEV ? AlertDigestSettingSchema : undefined,
      }),
    onSuccess: (setting) => queryClient.setQueryData(alertDigestQueryOptions(environmentUuid).queryKey, setting),
  });
}

import { SuperadminSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The superadmin who looks after an environment, or null when there is none. */
export function environmentSuperadminQueryOptions(environmentUuid: string) {
  return queryOptions({
    queryKey: ['environments', environmentUuid, 'superadmin'],
    queryFn: async ({ signal }) =>
      (await api(`/api/environment-user/${environmentUuid}/superadmin`, { schema: import.meta.env.DEV ? SuperadminSchema : undefined, signal })) ?? null,
  });
}

export function useEnvironmentSuperadmin(environmentUuid: string | undefined) {
  return useQuery({
    ...environmentSuperadminQueryOptions(environmentUuid ?? ''),
    enabled: environmentUuid !== undefined,
  });
}

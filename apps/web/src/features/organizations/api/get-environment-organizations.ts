import { MAX_LIMIT, OrganizationPageSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Organizations of the superadmin's environment(s) (GET /api/organization/environment). */
export function environmentOrganizationsQueryOptions(search = '') {
  return queryOptions({
    queryKey: ['organizations', 'environment', { search }],
    queryFn: ({ signal }) =>
      api('/api/organization/environment', {
        query: { search, limit: MAX_LIMIT },
        schema: import.meta.env.DEV ? OrganizationPageSchema : undefined,
        signal,
      }),
  });
}

export function useEnvironmentOrganizations(enabled: boolean) {
  return useQuery({ ...environmentOrganizationsQueryOptions(), enabled });
}

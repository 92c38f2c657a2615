import { MAX_LIMIT, OrganizationUserPageSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The current user's own organization links (GET /api/organization-user). */
export function myOrganizationUsersQueryOptions(userUuid: string) {
  return queryOptions({
    queryKey: ['organization-users', 'mine', userUuid],
    queryFn: ({ signal }) =>
      api('/api/organization-user', { query: { limit: MAX_LIMIT }, schema: import.meta.env.DEV ? OrganizationUserPageSchema : undefined, signal }),
  });
}

export function useMyOrganizationUsers(userUuid: string) {
  return useQuery(myOrganizationUsersQueryOptions(userUuid));
}

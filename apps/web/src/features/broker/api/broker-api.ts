import {
  type BrokerOrganization,
  BrokerOrganizationPageSchema,
  type BrokerOrganizationsQuery,
  type CreateBrokerOrganizationBody,
  OrganizationSchema,
  OrganizationUserPageSchema,
} from '@flotte/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A row of the table; never archived (the register kit's lists expect the flag). */
export type BrokerRow = BrokerOrganization & { isArchived: false };

/** GET /api/broker/organization: a page of the environment's organizations with their figures. */
export function brokerOrganizationsQueryOptions(query: BrokerOrganizationsQuery) {
  return queryOptions({
    queryKey: queryKeys.broker.organizations(query),
    queryFn: ({ signal }) =>
      api('/api/broker/organization', { query: query as Record<string, string | number | undefined>, schema: import.meta.env.DEV ? BrokerOrganizationPageSchema : undefined, signal }),
    select: (page) => ({ ...page, data: page.data.map((row): BrokerRow => ({ ...row, isArchived: false })) }),
    placeholderData: keepPreviousData,
  });
}

/** The table's list, as the register kit reads a register's (useRegisterList). */
export const brokerOrganizationsSource = {
  useList: (query: BrokerOrganizationsQuery) => useQuery(brokerOrganizationsQueryOptions(query)),
  archiveCounts: false,
};

/** POST /api/broker/organization; the table and the organization switcher then read again. */
export function useCreateBrokerOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBrokerOrganizationBody) =>
      api('/api/broker/organization', { method: 'POST', body, schema: import.meta.env.DEV ? OrganizationSchema : undefined }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.broker.all });
      void queryClient.invalidateQueries({ queryKey: ['organizations'] });
    },
  });
}

/** The members of one organization (GET /api/organization-user?organization=…), read only. */
export function useOrganizationMembers(organizationUuid: string) {
  return useQuery({
    queryKey: ['organizations', 'members', organizationUuid],
    queryFn: ({ signal }) =>
      api('/api/organization-user', {
        query: { organization: organizationUuid, limit: 100 },
        schema: import.meta.env.DEV ? OrganizationUserPageSchema : undefined,
        signal,
      }),
  });
}

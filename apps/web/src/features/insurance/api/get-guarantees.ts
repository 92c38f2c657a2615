import { GuaranteeListSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The reference list of guarantees a contract may cover (the same query as the claims'). */
export function guaranteesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.guarantees,
    queryFn: ({ signal }) => api('/api/guarantees', { schema: import.meta.env.DEV ? GuaranteeListSchema : undefined, signal }),
    staleTime: 60 * 60 * 1000,
  });
}

export function useGuarantees() {
  return useQuery(guaranteesQueryOptions());
}

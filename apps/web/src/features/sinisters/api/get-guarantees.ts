import { GuaranteeListSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export function getGuarantees(signal?: AbortSignal) {
  return api('/api/guarantees', { schema: import.meta.env.DEV ? GuaranteeListSchema : undefined, signal });
}

export function guaranteesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.guarantees,
    queryFn: ({ signal }) => getGuarantees(signal),
    // A reference list that only ROOT edits: once per session is enough.
    staleTime: 60 * 60 * 1000,
  });
}

/** The guarantees a claim may trigger, in the order of the reference list. */
export function useGuarantees() {
  return useQuery(guaranteesQueryOptions());
}

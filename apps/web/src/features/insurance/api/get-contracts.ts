import { InsuranceContractListSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const contractKeys = { all: ['insurance-contract'] as const };

/** GET /api/contract: every version, the one in force first. */
export function contractsQueryOptions() {
  return queryOptions({
    queryKey: contractKeys.all,
    queryFn: ({ signal }) => api('/api/contract', { schema: import.meta.env.DEV ? InsuranceContractListSchema : undefined, signal }),
  });
}

export function useContracts() {
  return useQuery(contractsQueryOptions());
}

import { CurrentInsuranceIntermediarySchema, InsuranceIntermediaryListSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const intermediaryKeys = {
  all: ['insurance-intermediary'] as const,
  history: () => [...intermediaryKeys.all, 'history'] as const,
  current: () => [...intermediaryKeys.all, 'current'] as const,
};

/** GET /api/insurance-intermediary: every intermediary, the latest start first. */
export function intermediariesQueryOptions() {
  return queryOptions({
    queryKey: intermediaryKeys.history(),
    queryFn: ({ signal }) =>
      api('/api/insurance-intermediary', { schema: import.meta.env.DEV ? InsuranceIntermediaryListSchema : undefined, signal }),
  });
}

/** GET /api/insurance-intermediary/current: the one in charge today, or null. */
export function currentIntermediaryQueryOptions() {
  return queryOptions({
    queryKey: intermediaryKeys.current(),
    queryFn: ({ signal }) =>
      api('/api/insurance-intermediary/current', { schema: import.meta.env.DEV ? CurrentInsuranceIntermediarySchema : undefined, signal }),
  });
}

export function useIntermediaries() {
  return useQuery(intermediariesQueryOptions());
}

export function useCurrentIntermediary() {
  return useQuery(currentIntermediaryQueryOptions());
}

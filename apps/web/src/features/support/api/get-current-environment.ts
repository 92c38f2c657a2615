import { EnvironmentSchema, type Environment } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';

/** GET /api/environment/current; null when the user belongs to no environment (404). */
export async function getCurrentEnvironment(signal?: AbortSignal): Promise<Environment | null> {
  try {
    return await api('/api/environment/current', { schema: import.meta.env.DEV ? EnvironmentSchema : undefined, signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function currentEnvironmentQueryOptions() {
  return queryOptions({
    queryKey: ['environments', 'current'],
    queryFn: ({ signal }) => getCurrentEnvironment(signal),
  });
}

export function useCurrentEnvironment(enabled: boolean) {
  return useQuery({ ...currentEnvironmentQueryOptions(), enabled });
}

import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';

/** How many times a failed read is tried again (network errors, 5xx): twice. */
export const QUERY_RETRIES = 2;
/** A `Retry-After` longer than this is not waited for: the error shows, with its 'Réessayer'. */
export const MAX_RETRY_AFTER_SECONDS = 10;

/** A 4xx will answer the same again; only network errors and 5xx deserve another try. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= QUERY_RETRIES) return false;
  if (!(error instanceof ApiError)) return true;
  if (error.status >= 400 && error.status < 500) return false;
  // An overloaded server (503) names its wait: beyond a few seconds, the person decides.
  return error.retryAfterSeconds === null || error.retryAfterSeconds <= MAX_RETRY_AFTER_SECONDS;
}

/**
 * Waits what the server asked (`Retry-After` of a 503 under overload), otherwise TanStack's
 * default: 1 s, 2 s, 4 s… up to 30 s.
 */
export function queryRetryDelay(failureCount: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfterSeconds !== null) return error.retryAfterSeconds * 1000;
  return Math.min(1000 * 2 ** failureCount, 30_000);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
      },
      // Writes are never sent twice by themselves: the snackbar tells the API's French message.
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { MAX_RETRY_AFTER_SECONDS, queryRetryDelay, shouldRetryQuery } from './query-client';

const overloaded = (seconds: number | null) => new ApiError(503, 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.', 'Service Unavailable', [], seconds);

describe('query retries', () => {
  it('tries a read twice more after a 5xx or a network error, never after a 4xx', () => {
    expect(shouldRetryQuery(0, overloaded(2))).toBe(true);
    expect(shouldRetryQuery(1, overloaded(2))).toBe(true);
    expect(shouldRetryQuery(2, overloaded(2))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(0, 'Impossible de joindre le serveur.'))).toBe(true);
    expect(shouldRetryQuery(0, new ApiError(404, 'Véhicule introuvable'))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(429, 'Trop de requêtes', '', [], 60))).toBe(false);
  });

  it('waits the Retry-After of a 503, and gives up at once on a long one (the person decides)', () => {
    expect(queryRetryDelay(0, overloaded(3))).toBe(3000);
    expect(queryRetryDelay(1, overloaded(0))).toBe(0);
    expect(shouldRetryQuery(0, overloaded(MAX_RETRY_AFTER_SECONDS + 1))).toBe(false);
  });

  it('otherwise waits as TanStack does: 1 s, 2 s, 4 s…', () => {
    expect(queryRetryDelay(0, overloaded(null))).toBe(1000);
    expect(queryRetryDelay(1, new Error('x'))).toBe(2000);
    expect(queryRetryDelay(10, new Error('x'))).toBe(30_000);
  });
});

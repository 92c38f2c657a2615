/**
 * Where failures are counted per key in a sliding window (login: lib/login-limits.ts).
 *
 * In memory (this file) a count is per process: right for the embedded database, which one
 * process holds. With a PostgreSQL server several processes share the counts in PostgreSQL, or in
 * Redis when REDIS_URL is set (platform/failure-stores.ts, decision 020).
 *
 * Times are milliseconds since the epoch, given by the caller (every process reads its own clock:
 * synchronized clocks differ by milliseconds, a window lasts minutes). A key keeps only its
 * `keep` latest failures: a limit never needs to look further back than its own size.
 */
export interface FailureStore {
  /** For each key, its failures after `since`, oldest first (at most the `keep` latest). */
  recent(keys: readonly string[], since: number): Promise<number[][]>;
  /** One failure at `at` for each key; each keeps its `keep` latest, forgotten `windowMs` after the last. */
  record(keys: readonly string[], at: number, windowMs: number, keep: number): Promise<void>;
  /** Forgets the key's failures. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Seconds before a key with these failures may try again under a limit of `max` per window (0: now). */
export function retryAfterSeconds(failures: readonly number[], max: number, windowMs: number, now: number): number {
  if (failures.length < max) return 0;
  const oldest = failures[failures.length - max] ?? now;
  return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
}

/** The counts of one process (embedded database, tests of the limits themselves). */
export class MemoryFailureStore implements FailureStore {
  private readonly failures = new Map<string, { times: number[]; until: number }>();

  constructor(private readonly maxKeys = 50_000) {}

  async recent(keys: readonly string[], since: number): Promise<number[][]> {
    return keys.map((key) => (this.failures.get(key)?.times ?? []).filter((t) => t > since));
  }

  async record(keys: readonly string[], at: number, windowMs: number, keep: number): Promise<void> {
    for (const key of keys) {
      const times = (this.failures.get(key)?.times ?? []).filter((t) => t > at - windowMs);
      times.push(at);
      this.failures.set(key, { times: times.slice(-keep), until: at + windowMs });
    }
    if (this.failures.size > this.maxKeys) this.prune(at);
  }

  async reset(key: string): Promise<void> {
    this.failures.delete(key);
  }

  async close(): Promise<void> {
    this.failures.clear();
  }

  /** Forgets the keys whose window has passed. */
  private prune(now: number) {
    for (const [key, entry] of this.failures) if (entry.until <= now) this.failures.delete(key);
  }
}

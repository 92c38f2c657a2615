/**
 * Counts failures per key in a sliding window (login: lib/login-limits.ts). In memory, so per
 * process: enough for one instance; several instances would need a shared store.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Seconds to wait before trying again, or 0 when the key may try. */
  retryAfter(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures] ?? this.now();
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  /** Failures of this key within the window. */
  count(key: string): number {
    return this.recent(key).length;
  }

  record(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    this.failures.set(key, recent);
    if (this.failures.size > 50_000) this.prune();
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(key) ?? []).filter((t) => t > since);
  }

  private prune(): void {
    const since = this.now() - this.windowMs;
    for (const [key, times] of this.failures) {
      if (!times.some((t) => t > since)) this.failures.delete(key);
    }
  }
}

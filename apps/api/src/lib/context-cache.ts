import type { AuthContext } from './auth-context.js';

/**
 * Callers' contexts (roles, current organization), kept a few seconds by user and session
 * (docs/decisions/008-auth-context-cache.md; a context is only loaded while its session is live,
 * decision 014).
 *
 * Loading the context is a database round trip on every authenticated request; a page of the web
 * app sends several requests at once. Reads use this cache; writes always load the context afresh.
 * A successful write handled by this process empties the cache before it answers (a switch of
 * organization, a new link, a role change, a logout…), so does the end of a session decided
 * without a successful write (a reused refresh token revokes its family and answers 401), and a context loaded before that cannot be stored
 * after it (generation check): this process never serves a context older than its own writes.
 * Another instance's write is seen within `ttlMs`: with several processes that is the bound on a
 * session ended elsewhere still opening reads here (writes load afresh; decision 020).
 */
export class ContextCache {
  private readonly entries = new Map<string, { ctx: AuthContext; until: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): AuthContext | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.ctx;
    this.entries.delete(key);
    return undefined;
  }

  /** Loads a context through `load` and keeps it, unless the cache was emptied meanwhile. */
  async load(key: string, load: () => Promise<AuthContext | null>): Promise<AuthContext | null> {
    const generation = this.generation;
    const ctx = await load();
    if (ctx && this.ttlMs > 0 && generation === this.generation) {
      this.entries.delete(key);
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(key, { ctx, until: Date.now() + this.ttlMs });
    }
    return ctx;
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }
}

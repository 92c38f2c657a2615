import type { Database } from '../db/client.js';
import type { PageResult, Register } from '../db/registers.js';

/**
 * Register pages already computed, each with the register version it was computed at
 * (docs/decisions/007-register-versions-and-page-cache.md).
 *
 * A list read sends the version of the copy it holds with its statement; while nothing was
 * written to the register, PostgreSQL answers with the version alone and the copy is served.
 * The version is read in the same statement as the rows would be, so a copy is never served
 * after a write has committed, whichever server made it. Bounded; the oldest entries go first.
 */
class PageCache {
  private readonly entries = new Map<string, { version: number; page: unknown }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string) {
    return this.entries.get(key);
  }

  set(key: string, version: number, page: unknown) {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { version, page });
  }
}

/** Pages of up to this many rows are kept (a 999-row select list is not worth the memory). */
const MAX_CACHED_LIMIT = 100;
const MAX_ENTRIES = 2000;
const caches = new WeakMap<Database, PageCache>();

/**
 * A register page, from `read` (given the version of the copy held, or null) or from the copy.
 * `key` must say everything the page depends on besides the register's data: the validated query.
 */
export async function cachedPage<Row, Page>(
  db: Database,
  register: Register,
  organizationUuid: string,
  query: { limit: number },
  read: (knownVersion: number | null) => Promise<PageResult<Row>>,
  build: (result: Extract<PageResult<Row>, { unchanged: false }>) => Page,
): Promise<Page> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new PageCache(MAX_ENTRIES);
    caches.set(db, cache);
  }
  const key = `${register}\u0000${organizationUuid}\u0000${JSON.stringify(query)}`;
  // Identical requests arriving together are NOT merged into one read: a request sent after a
  // write has committed must see it, and a read started before that write would not.
  const held = query.limit <= MAX_CACHED_LIMIT ? cache.get(key) : undefined;
  const result = await read(held?.version ?? null);
  if (result.unchanged) return held!.page as Page;
  const page = build(result);
  if (query.limit <= MAX_CACHED_LIMIT) cache.set(key, result.version, page);
  return page;
}

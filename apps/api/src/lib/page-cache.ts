import { CHOICES_LIMIT } from '@flotte/contract';
import type { Database } from '../db/client.js';
import { observationsOf } from '../platform/metrics/observations.js';

/**
 * Register pages already computed, each with the register version it was computed at
 * (docs/decisions/007-register-versions-and-page-cache.md).
 *
 * A list read holding a copy first reads the registers' current version (one primary-key range);
 * while nothing was written to them, the copy is served. A page is stored with the version read
 * in the same statement as its rows, and every write bumps the version in its own transaction,
 * so a copy is never served after a write has committed, whichever server made it. Bounded; the
 * oldest entries go first.
 */
class PageCache {
  private readonly entries = new Map<string, { version: string; page: unknown; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    /** Told how many pages went to stay within the bounds (the metrics). */
    private readonly onEvicted: (count: number) => void,
  ) {}

  get size() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The page kept under `key`, now the most recently used. */
  get(key: string) {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, version: string, page: unknown, bytes: number) {
    this.remove(key);
    this.entries.set(key, { version, page, bytes });
    this.bytes += bytes;
    let evicted = 0;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.remove(oldest);
      evicted++;
    }
    if (evicted > 0) this.onEvicted(evicted);
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** Pages of up to this many rows are kept: a form's choices (CHOICES_LIMIT), not a 999-row list. */
const MAX_CACHED_LIMIT = CHOICES_LIMIT;
const MAX_ENTRIES = 2000;
/**
 * Memory budget of the pages kept per process, a row counted generously as 2 kB (a claim's
 * objects and its JSON once served take about 1.5 kB): 2 000 pages of 10 rows fit.
 */
const MAX_BYTES = 64 * 1024 * 1024;
const BYTES_PER_ROW = 2048;
const caches = new WeakMap<Database, PageCache>();

/** How many pages the database's cache holds and the memory counted for them (the metrics' gauges). */
export function pageCacheSize(db: Database): { entries: number; bytes: number } {
  return caches.get(db)?.size ?? { entries: 0, bytes: 0 };
}

/** Pages kept in a cache, with their JSON once serialized (null until then). */
const sharedPages = new WeakMap<object, string | null>();

/**
 * Wraps a route's response serializer (the contract's schema): a page served from the cache is
 * serialized once, then its JSON is reused. Anything else goes through `serialize` as usual.
 */
export function serializeSharedPagesOnce(serialize: (data: unknown) => string): (data: unknown) => string {
  return (data) => {
    if (typeof data !== 'object' || data === null || !sharedPages.has(data)) return serialize(data);
    let json = sharedPages.get(data);
    if (!json) {
      json = serialize(data);
      sharedPages.set(data, json);
    }
    return json;
  };
}

/**
 * Whether the client asks for a response computed afresh (`Cache-Control: no-cache` or
 * `no-store`, `Pragma: no-cache`), as a browser's hard reload does: the copy is then not used.
 */
export function wantsFresh(headers: { 'cache-control'?: string; pragma?: string | string[] }): boolean {
  const cacheControl = headers['cache-control']?.toLowerCase() ?? '';
  return cacheControl.includes('no-cache') || cacheControl.includes('no-store') || String(headers.pragma ?? '').toLowerCase().includes('no-cache');
}

export type CachedPageSource<Result, Page> = {
  /** Everything the page depends on besides the registers' data (the list, the organization, the validated query). */
  key: string;
  /** Rows asked for: pages of more than MAX_CACHED_LIMIT rows are not kept. */
  limit: number;
  /** Compute it afresh even when a copy is held (and keep the new one). */
  fresh: boolean;
  /** The current version of the registers the page shows (one small statement). */
  version: () => Promise<string>;
  /** The page's data, with the version it was read at (in the same statement). */
  read: () => Promise<Result & { version: string; rows: readonly unknown[] }>;
  /** The answer made of the data. */
  build: (result: Result) => Page;
};

/**
 * A page held for `key`, when the registers it shows are still at the version it was computed at
 * (`version` checks it), otherwise `read` and keep its result; with the version it holds for.
 * Only the list kit (db/list-kit.ts) calls it.
 */
export async function cachedPage<Result, Page>(db: Database, source: CachedPageSource<Result, Page>): Promise<{ page: Page; version: string }> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new PageCache(MAX_ENTRIES, MAX_BYTES, (count) => observationsOf(db).pageCacheEvicted(count));
    caches.set(db, cache);
  }
  const kept = source.limit <= MAX_CACHED_LIMIT;
  const held = kept && !source.fresh ? cache.get(source.key) : undefined;
  // Identical requests arriving together are NOT merged into one read: a request sent after a
  // write has committed must see it, and a read started before that write would not.
  if (held && (await source.version()) === held.version) {
    observationsOf(db).pageCache('hit');
    return { page: held.page as Page, version: held.version };
  }
  // A miss is a page the cache could have served: one too large to keep is neither.
  if (kept) observationsOf(db).pageCache('miss');
  const result = await source.read();
  const page = source.build(result);
  if (kept) {
    // Shared between requests from now on: frozen, so that no caller can change another's answer.
    deepFreeze(page);
    sharedPages.set(page as object, null);
    cache.set(source.key, result.version, page, (result.rows.length + 1) * BYTES_PER_ROW);
  }
  return { page, version: result.version };
}

function deepFreeze(value: unknown) {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  for (const child of Object.values(value)) deepFreeze(child);
  Object.freeze(value);
}

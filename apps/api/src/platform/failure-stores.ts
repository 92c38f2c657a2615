import { createHash, randomBytes } from 'node:crypto';
import { inArray, lt, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { DependencyUnavailableError } from '../db/availability.js';
import type { DatabaseHandle, Database } from '../db/client.js';
import { failureCounters } from '../db/schema/failure-counters.js';
import { readSystem, withSystem } from '../db/scope.js';
import { type FailureStore, MemoryFailureStore } from '../lib/failure-limiter.js';

/**
 * Failure counts every API process sees (decision 020):
 * in PostgreSQL when the app runs on a server, in Redis when REDIS_URL is set, in memory on the
 * embedded database (one process holds its folder, decision 009).
 */

/** Keys are kept hashed: the store holds no e-mail or IP address in clear. */
function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** How often a process deletes the rows whose window has passed. */
const CLEANUP_EVERY_MS = 10 * 60_000;

type Logger = { warn(obj: unknown, msg?: string): void };

/**
 * One row per key in `failure_counters`: an atomic upsert appends the failure and keeps the
 * latest ones still in the window, so two processes recording at once both count.
 */
export class PostgresFailureStore implements FailureStore {
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    options: { cleanupEveryMs?: number; now?: () => number; logger?: Logger } = {},
  ) {
    const now = options.now ?? (() => Date.now());
    if (options.cleanupEveryMs !== 0) {
      this.timer = setInterval(() => {
        this.cleanup(now()).catch((err: unknown) => options.logger?.warn({ err }, 'failure counters cleanup failed'));
      }, options.cleanupEveryMs ?? CLEANUP_EVERY_MS);
      this.timer.unref();
    }
  }

  async recent(keys: readonly string[], since: number): Promise<number[][]> {
    const hashed = keys.map(hashKey);
    const rows = await readSystem(this.db, (tx) =>
      tx.select({ key: failureCounters.key, failures: failureCounters.failures }).from(failureCounters).where(inArray(failureCounters.key, hashed)),
    );
    const byKey = new Map(rows.map((row) => [row.key, row.failures.map(Number)]));
    return hashed.map((key) => (byKey.get(key) ?? []).filter((t) => t > since).sort((a, b) => a - b));
  }

  async record(keys: readonly string[], at: number, windowMs: number, keep: number): Promise<void> {
    // Rows locked in one order by every process: two logins never wait for each other in a circle.
    const hashed = [...new Set(keys.map(hashKey))].sort();
    if (hashed.length === 0) return;
    const since = at - windowMs;
    await withSystem(this.db, (tx) =>
      tx
        .insert(failureCounters)
        .values(hashed.map((key) => ({ key, failures: [at], expiresAt: new Date(at + windowMs) })))
        .onConflictDoUpdate({
          target: failureCounters.key,
          set: {
            failures: sql`(SELECT coalesce(array_agg(t ORDER BY t), '{}'::bigint[]) FROM (
              SELECT t FROM unnest(failure_counters.failures || excluded.failures) AS u(t)
              WHERE t > ${since}::bigint ORDER BY t DESC LIMIT ${keep}::int) AS kept)`,
            expiresAt: sql`greatest(failure_counters.expires_at, excluded.expires_at)`,
          },
        }),
    );
  }

  async reset(key: string): Promise<void> {
    await withSystem(this.db, (tx) => tx.delete(failureCounters).where(inArray(failureCounters.key, [hashKey(key)])));
  }

  /** Deletes the rows whose last failure has left its window; returns how many. */
  async cleanup(now = Date.now()): Promise<number> {
    const deleted = await withSystem(this.db, (tx) => tx.delete(failureCounters).where(lt(failureCounters.expiresAt, new Date(now))).returning({ key: failureCounters.key }));
    return deleted.length;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
  }
}

/** How long a Redis command or connection may take before the request answers 503. */
const REDIS_TIMEOUT_MS = 2_000;

/**
 * One sorted set per key (score: the failure's time), trimmed to the window and to `keep`
 * members, expiring with the window. A command that fails or takes longer than 2 s answers 503:
 * without its counts the login would be unlimited, so it is refused, never let through.
 */
export class RedisFailureStore implements FailureStore {
  private readonly redis: Redis;
  private readonly prefix = 'flotte:failures:';

  constructor(url: string, logger?: Logger) {
    this.redis = new Redis(url, {
      connectTimeout: REDIS_TIMEOUT_MS,
      commandTimeout: REDIS_TIMEOUT_MS,
      // While Redis is away commands fail at once (503) rather than wait in a queue.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // Reconnects within a second of Redis coming back.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    let lastWarning = 0;
    this.redis.on('error', (err: Error) => {
      // Without a listener ioredis prints every reconnection failure; one line in 10 s is enough.
      if (Date.now() - lastWarning < 10_000) return;
      lastWarning = Date.now();
      logger?.warn({ err }, 'Redis unreachable');
    });
  }

  /** Until the first connection is made (or has failed). */
  async ready(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.redis.off('ready', done).off('error', done);
        resolve();
      };
      this.redis.once('ready', done).once('error', done);
    });
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new DependencyUnavailableError('redis', error);
    }
  }

  async recent(keys: readonly string[], since: number): Promise<number[][]> {
    const results = await this.run(async () => {
      const pipeline = this.redis.pipeline();
      for (const key of keys) pipeline.zrangebyscore(this.prefix + hashKey(key), `(${since}`, '+inf', 'WITHSCORES');
      return (await pipeline.exec()) ?? [];
    });
    return results.map(([error, members]) => {
      if (error) throw new DependencyUnavailableError('redis', error);
      const pairs = members as string[];
      const times: number[] = [];
      for (let i = 1; i < pairs.length; i += 2) times.push(Number(pairs[i]));
      return times;
    });
  }

  async record(keys: readonly string[], at: number, windowMs: number, keep: number): Promise<void> {
    const results = await this.run(async () => {
      const transaction = this.redis.multi();
      for (const key of keys) {
        const name = this.prefix + hashKey(key);
        // A member of its own: two failures in the same millisecond count twice.
        transaction.zadd(name, at, `${at}:${randomBytes(6).toString('base64url')}`);
        transaction.zremrangebyscore(name, '-inf', at - windowMs);
        transaction.zremrangebyrank(name, 0, -(keep + 1));
        transaction.pexpire(name, windowMs);
      }
      return (await transaction.exec()) ?? [];
    });
    const failed = results.find(([error]) => error);
    if (failed) throw new DependencyUnavailableError('redis', failed[0]);
  }

  async reset(key: string): Promise<void> {
    await this.run(() => this.redis.del(this.prefix + hashKey(key)));
  }

  /** Readiness: Redis answers now. */
  async ping(): Promise<void> {
    await this.run(() => this.redis.ping());
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export type FailureStoreChoice = {
  store: FailureStore;
  kind: 'memory' | 'postgres' | 'redis';
  /** A readiness check for a store that is a service of its own (Redis). */
  ping?: () => Promise<void>;
};

/** Redis when REDIS_URL is set; otherwise PostgreSQL on a server, memory on the embedded database. */
export async function createFailureStore(config: Config, database: DatabaseHandle, logger?: Logger): Promise<FailureStoreChoice> {
  if (config.redisUrl) {
    const store = new RedisFailureStore(config.redisUrl, logger);
    // At most the connection timeout: a Redis down at start is reported by /api/ready, not fatal.
    await store.ready();
    return { store, kind: 'redis', ping: () => store.ping() };
  }
  if (database.kind === 'postgres') return { store: new PostgresFailureStore(database.db, { logger }), kind: 'postgres' };
  return { store: new MemoryFailureStore(), kind: 'memory' };
}

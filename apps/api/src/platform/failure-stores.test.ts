import { createHash, randomUUID } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DependencyUnavailableError } from '../db/availability.js';
import type { DatabaseHandle } from '../db/client.js';
import { failureCounters } from '../db/schema/failure-counters.js';
import { readSystem } from '../db/scope.js';
import { type FailureStore, MemoryFailureStore } from '../lib/failure-limiter.js';
import { createTestDatabase } from '../../test/test-app.js';
import { PostgresFailureStore, RedisFailureStore } from './failure-stores.js';

/**
 * The three places login failures are counted behave alike (decision 020): a sliding window, the
 * latest `keep` failures per key, a reset, expiry. PostgreSQL's table runs on both test databases;
 * Redis on the local server (127.0.0.1:6379, database 15).
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
const WINDOW = 60_000;

/** Keys no other test (or run) uses. */
const keyOf = (name: string) => `test:${name}:${randomUUID()}`;

function behavesAsAFailureStore(name: string, open: () => Promise<FailureStore>) {
  describe(name, () => {
    let store: FailureStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(() => store.close());

    it('counts failures per key within the window, oldest first', async () => {
      const [a, b] = [keyOf('a'), keyOf('b')];
      const start = 1_800_000_000_000;
      await store.record([a, b], start, WINDOW, 10);
      await store.record([a], start + 1_000, WINDOW, 10);
      await store.record([a], start + 2_000, WINDOW, 10);
      expect(await store.recent([a, b, keyOf('never')], start - WINDOW)).toEqual([[start, start + 1_000, start + 2_000], [start], []]);
      // Only what is after `since` counts.
      expect(await store.recent([a], start + 500)).toEqual([[start + 1_000, start + 2_000]]);
    });

    it('keeps the latest `keep` failures, and forgets those that left the window when it records', async () => {
      const key = keyOf('keep');
      const start = 1_800_000_000_000;
      for (let i = 0; i < 8; i++) await store.record([key], start + i, WINDOW, 5);
      expect(await store.recent([key], 0)).toEqual([[start + 3, start + 4, start + 5, start + 6, start + 7]]);
      await store.record([key], start + WINDOW + 5, WINDOW, 5);
      expect(await store.recent([key], 0)).toEqual([[start + 6, start + 7, start + WINDOW + 5]]);
    });

    it('counts every failure recorded at once, even in the same millisecond', async () => {
      const key = keyOf('burst');
      const at = 1_800_000_000_000;
      await Promise.all(Array.from({ length: 12 }, () => store.record([key, keyOf('other')], at, WINDOW, 30)));
      expect((await store.recent([key], at - 1))[0]).toHaveLength(12);
    });

    it('forgets a key on reset, and only that key', async () => {
      const [kept, forgotten] = [keyOf('kept'), keyOf('forgotten')];
      await store.record([kept, forgotten], 1_800_000_000_000, WINDOW, 5);
      await store.reset(forgotten);
      expect(await store.recent([kept, forgotten], 0)).toEqual([[1_800_000_000_000], []]);
    });
  });
}

behavesAsAFailureStore('MemoryFailureStore', async () => new MemoryFailureStore());

describe('PostgresFailureStore', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  behavesAsAFailureStore('on the test database', async () => new PostgresFailureStore(database.db, { cleanupEveryMs: 0 }));

  it('keeps no e-mail or address in clear, and cleans up the rows whose window has passed', async () => {
    const store = new PostgresFailureStore(database.db, { cleanupEveryMs: 0 });
    const key = `login:pair:${randomUUID()}@exemple.fr\n192.0.2.1`;
    const past = Date.now() - 2 * WINDOW;
    await store.record([key], past, WINDOW, 5);
    const stored = await readSystem(database.db, (tx) => tx.select({ key: failureCounters.key }).from(failureCounters));
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expect(row.key).toMatch(/^[\w-]{43}$/);
    expect(await store.cleanup(Date.now())).toBeGreaterThanOrEqual(1);
    expect(await store.recent([key], 0)).toEqual([[]]);
    await store.close();
  });

  it('is out of reach of the tenant role', async () => {
    // Outside any scope a connection is flotte_app (decision 002).
    await expect(database.db.execute(sql`SELECT count(*) FROM failure_counters`)).rejects.toMatchObject({ cause: expect.objectContaining({ code: '42501' }) });
  });
});

describe('RedisFailureStore', () => {
  behavesAsAFailureStore('on the local Redis', async () => {
    const store = new RedisFailureStore(REDIS_URL);
    await store.ready();
    return store;
  });

  it('lets each key expire with its window', async () => {
    const store = new RedisFailureStore(REDIS_URL);
    await store.ready();
    const redis = new Redis(REDIS_URL);
    try {
      const key = keyOf('ttl');
      await store.record([key], Date.now(), 30_000, 5);
      // The key itself is hashed: no e-mail or address in clear.
      const name = `flotte:failures:${createHash('sha256').update(key).digest('base64url')}`;
      const ttl = await redis.pttl(name);
      expect(ttl).toBeGreaterThan(25_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
      expect(await redis.keys(`*${key}*`)).toEqual([]);
    } finally {
      redis.disconnect();
      await store.close();
    }
  });

  it('fails fast with DependencyUnavailableError when Redis cannot be reached', async () => {
    // A port nobody listens on: the connection is refused.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const store = new RedisFailureStore(`redis://127.0.0.1:${port}`);
    await store.ready();
    const started = Date.now();
    await expect(store.recent(['x'], 0)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(store.record(['x'], Date.now(), WINDOW, 5)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(store.ping()).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_000);
    await store.close();
  });
});

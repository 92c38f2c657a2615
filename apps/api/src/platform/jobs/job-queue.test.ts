import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase } from '../../../test/test-app.js';
import type { DatabaseHandle } from '../../db/client.js';
import { drivers } from '../../db/schema/drivers.js';
import { readTenant, withSystem, withTenant } from '../../db/scope.js';
import { createDrivers, createOrganization } from '../../seed/factories.js';
import { defineJob, type JobKind, JobPayloadError, PermanentJobError } from './define-job.js';
import { JobQueue, type JobQueueLogger, type JobState } from './job-queue.js';
import { JobScopeError, PgliteQueueSql, PostgresQueueSql } from './queue-sql.js';
import PgBoss from 'pg-boss';

type Line = { level: string; msg: string; obj: object };

function memoryLogger(lines: Line[] = []): JobQueueLogger & { lines: Line[] } {
  const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, msg, obj });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

let database: DatabaseHandle;
const queues: JobQueue[] = [];

/** A started queue on this file's database, stopped after the file. Short polls keep tests quick. */
async function startQueue(kinds: JobKind<unknown>[], options: { worker?: boolean; maintenanceIntervalSeconds?: number; pollingIntervalSeconds?: number } = {}, logger = memoryLogger()) {
  const queue = new JobQueue(database, { logger, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5, worker: options.worker ?? true, maintenanceIntervalSeconds: options.maintenanceIntervalSeconds });
  queue.register(...kinds);
  queues.push(queue);
  await queue.start();
  return queue;
}

/** A statement as the database's login role (the queue's owner), outside the app's roles. */
async function asOwner(text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (database.pglite) {
    return database.pglite.transaction(async (tx) => {
      await tx.exec('SET LOCAL ROLE NONE');
      return (await tx.query<Record<string, unknown>>(text, values)).rows;
    });
  }
  const client = new pg.Client({ connectionString: database.pool!.options.connectionString });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stateOf(queue: JobQueue, kind: JobKind<unknown>, id: string): Promise<JobState | undefined> {
  return (await queue.job(kind, id))?.state;
}

let orgA: string;
let orgB: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await withSystem(database.db, async (tx) => {
    orgA = (await createOrganization(tx, { title: 'Société A' })).uuid;
    orgB = (await createOrganization(tx, { title: 'Société B' })).uuid;
    await createDrivers(tx, orgA, [{ lastName: 'Alpha' }, { lastName: 'Albert' }]);
    await createDrivers(tx, orgB, [{ lastName: 'Bravo' }]);
  });
});

afterAll(async () => {
  for (const queue of queues) await queue.stop({ timeoutMs: 2_000 });
  await database.close();
});

describe('a tenant job runs in its organization’s scope', () => {
  it('sees only its organization’s rows, as flotte_app, and cannot write another organization’s', async () => {
    const seen: { role: string; names: string[]; foreign: string } [] = [];
    const kind = defineJob({
      name: 'test.tenant-scope',
      tenant: true,
      payload: z.object({ label: z.string() }),
      handler: async ({ tenant }) => {
        // No WHERE: row-level security alone keeps the other organization out.
        const names = await tenant.read(async (tx) => (await tx.select({ lastName: drivers.lastName }).from(drivers)).map((d) => d.lastName).sort());
        const role = await tenant.read(async (tx) => ((await tx.execute(sql`select current_user as role`)) as unknown as { rows: { role: string }[] }).rows[0]!.role);
        const foreign = await tenant
          .write((tx) => tx.insert(drivers).values({ organizationUuid: orgB, firstName: 'Intrus', lastName: 'Intrus' }))
          .then(
            () => 'inserted',
            (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
          );
        await tenant.write((tx) => tx.insert(drivers).values({ organizationUuid: tenant.organizationUuid, firstName: 'Par', lastName: 'Tâche' }));
        seen.push({ role, names, foreign });
      },
    });
    const queue = await startQueue([kind]);
    const id = await queue.send(kind, { organizationUuid: orgA, label: 'x' });
    await waitFor('completion', async () => (await stateOf(queue, kind, id!)) === 'completed');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.role).toBe('flotte_app');
    expect(seen[0]!.names).toEqual(['Albert', 'Alpha']);
    expect(seen[0]!.foreign).toMatch(/row-level security/);
    const aNames = await readTenant(database.db, orgA, async (tx) => (await tx.select({ lastName: drivers.lastName }).from(drivers)).map((d) => d.lastName));
    expect(aNames).toContain('Tâche');
    const bNames = await readTenant(database.db, orgB, async (tx) => (await tx.select({ lastName: drivers.lastName }).from(drivers)).map((d) => d.lastName));
    expect(bNames).toEqual(['Bravo']);
  });
});

describe('sending', () => {
  const ran: string[] = [];
  const kind = defineJob({
    name: 'test.send',
    tenant: true,
    payload: z.object({ driverUuid: z.uuid() }),
    handler: async ({ payload }) => void ran.push(payload.driverUuid),
  });
  let queue: JobQueue;
  beforeAll(async () => {
    queue = await startQueue([kind]);
  });

  it('inside withTenant: queued with the commit, nothing queued by a rollback', async () => {
    const committed = randomUUID();
    const committedId = await withTenant(database.db, orgA, (tx) => queue.send(kind, { organizationUuid: orgA, driverUuid: committed }, { tx }));
    let rolledBackId: string | null = null;
    const rolledBack = randomUUID();
    await expect(
      withTenant(database.db, orgA, async (tx) => {
        await tx.insert(drivers).values({ organizationUuid: orgA, firstName: 'Annulé', lastName: 'Annulé' });
        rolledBackId = await queue.send(kind, { organizationUuid: orgA, driverUuid: rolledBack }, { tx });
        // The role and organization of the transaction are back after the send.
        const scope = (await tx.execute(sql`select current_user as role, current_setting('app.org_id') as org`)) as unknown as { rows: { role: string; org: string }[] };
        expect(scope.rows[0]).toEqual({ role: 'flotte_app', org: orgA });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await waitFor('the committed job', async () => (await stateOf(queue, kind, committedId!)) === 'completed');
    expect(rolledBackId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await queue.job(kind, rolledBackId!)).toBeNull();
    expect(ran).toContain(committed);
    expect(ran).not.toContain(rolledBack);
  });

  it('a job sent in a transaction wakes its worker once the transaction commits, not at its next poll', async () => {
    const woken: string[] = [];
    const slow = defineJob({ name: 'test.wake', tenant: true, payload: z.object({ driverUuid: z.uuid() }), handler: async ({ payload }) => void woken.push(payload.driverUuid) });
    const polling = await startQueue([slow as JobKind<unknown>], { pollingIntervalSeconds: 60 });
    // The worker's first look (at start) is over: the next poll is a minute away.
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    const driverUuid = randomUUID();
    const id = await withTenant(database.db, orgA, (tx) => polling.send(slow, { organizationUuid: orgA, driverUuid }, { tx }));
    await waitFor('the woken job', async () => (await stateOf(polling, slow, id!)) === 'completed', 15_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(woken).toEqual([driverUuid]);
  });

  it('looks for due work with one read for all kinds on the embedded database, each kind polling on PostgreSQL; a job set to start later runs within the interval', async () => {
    const ran: string[] = [];
    const kinds = ['a', 'b', 'c', 'd'].map((letter) =>
      defineJob({ name: `test.sweep-${letter}`, tenant: false, payload: z.object({}), handler: async () => void ran.push(letter) }),
    );
    const polling = await startQueue(kinds as JobKind<unknown>[], { pollingIntervalSeconds: 0.5 });
    const sql = (polling as unknown as { sql: { executeSql(text: string, values?: unknown[]): Promise<unknown> } }).sql;
    const statements: string[] = [];
    const executeSql = sql.executeSql.bind(sql);
    sql.executeSql = (text, values) => {
      statements.push(text);
      return executeSql(text, values);
    };
    try {
      await new Promise((r) => setTimeout(r, 2_200));
      const fetches = statements.filter((text) => text.includes('FOR UPDATE SKIP LOCKED')).length;
      const sweeps = statements.filter((text) => text.includes('SELECT DISTINCT name')).length;
      if (database.kind === 'pglite') {
        // Every 0.5 s one read, whatever the number of kinds; no kind fetches on its own.
        expect(sweeps).toBeGreaterThanOrEqual(3);
        expect(sweeps).toBeLessThanOrEqual(6);
        expect(fetches).toBe(0);
      } else {
        expect(sweeps).toBe(0);
        expect(fetches).toBeGreaterThanOrEqual(kinds.length * 3);
      }
      const started = Date.now();
      const id = await polling.send(kinds[2]!, {}, { startAfter: new Date(Date.now() + 1_000) });
      await waitFor('the job set to start later', async () => (await stateOf(polling, kinds[2]!, id!)) === 'completed', 15_000);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(ran).toEqual(['c']);
    } finally {
      sql.executeSql = executeSql;
    }
  });

  it('inside withSystem, a tenant job of any organization is queued', async () => {
    const driverUuid = randomUUID();
    const id = await withSystem(database.db, (tx) => queue.send(kind, { organizationUuid: orgB, driverUuid }, { tx }));
    await waitFor('the job', async () => (await stateOf(queue, kind, id!)) === 'completed');
    expect(ran).toContain(driverUuid);
  });

  it('a tenant transaction cannot queue a job for another organization', async () => {
    await expect(withTenant(database.db, orgA, (tx) => queue.send(kind, { organizationUuid: orgB, driverUuid: randomUUID() }, { tx }))).rejects.toThrow(JobScopeError);
  });

  it('inside a scope without its tx: refused, the job would escape the transaction', async () => {
    await expect(withTenant(database.db, orgA, () => queue.send(kind, { organizationUuid: orgA, driverUuid: randomUUID() }))).rejects.toThrow(/pass its transaction/);
  });

  it('an invalid payload is refused at send with the fields named', async () => {
    const error = await queue.send(kind, { organizationUuid: 'pas-un-uuid', driverUuid: 42 } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobPayloadError);
    expect((error as JobPayloadError).issues.map((issue) => issue.path).sort()).toEqual(['driverUuid', 'organizationUuid']);
    expect((error as Error).message).toMatch(/test\.send/);
  });

  it('a kind that is not registered is refused', async () => {
    const other = defineJob({ name: 'test.unregistered', tenant: false, payload: z.object({}), handler: async () => undefined });
    await expect(queue.send(other, {})).rejects.toThrow(/not registered/);
  });

  it('singleton: one job per key and slot', async () => {
    const later = new Date(Date.now() + 3600_000);
    const singleton = { key: `k-${randomUUID()}`, seconds: 600 };
    const first = await queue.send(kind, { organizationUuid: orgA, driverUuid: randomUUID() }, { singleton, startAfter: later });
    const second = await queue.send(kind, { organizationUuid: orgA, driverUuid: randomUUID() }, { singleton, startAfter: later });
    const otherKey = await queue.send(kind, { organizationUuid: orgA, driverUuid: randomUUID() }, { singleton: { ...singleton, key: 'autre' }, startAfter: later });
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBeNull();
    expect(otherKey).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('failures', () => {
  it('retries with its delay, then the dead letter keeps the payload and the error', async () => {
    const attempts: number[] = [];
    const kind = defineJob({
      name: 'test.always-fails',
      tenant: false,
      payload: z.object({ recordUuid: z.uuid() }),
      retry: { limit: 2, delaySeconds: 1, backoff: false },
      handler: async ({ attempt }) => {
        attempts.push(attempt);
        throw new Error(`panne n° ${attempt}`);
      },
    });
    const logger = memoryLogger();
    const queue = await startQueue([kind], {}, logger);
    const recordUuid = randomUUID();
    const started = Date.now();
    const id = await queue.send(kind, { recordUuid });
    const dead = await waitFor('the dead letter', async () => (await queue.deadLetters(kind)).find((letter) => (letter.payload as { recordUuid: string }).recordUuid === recordUuid));
    expect(attempts).toEqual([1, 2, 3]);
    // Two retries, each after its delay of 1 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(dead.error).toEqual({ name: 'Error', message: 'panne n° 3' });
    expect(await stateOf(queue, kind, id!)).toBe('failed');
    expect(logger.lines.filter((line) => line.level === 'warn' && line.msg.includes('nouvel essai'))).toHaveLength(2);
    expect(logger.lines.filter((line) => line.level === 'error' && line.msg.includes('lettre morte'))).toHaveLength(1);
  });

  it('a PermanentJobError goes to the dead letter without retrying', async () => {
    const attempts: number[] = [];
    const kind = defineJob({
      name: 'test.permanent',
      tenant: false,
      payload: z.object({ recordUuid: z.uuid() }),
      retry: { limit: 5, delaySeconds: 0, backoff: false },
      handler: async ({ attempt }) => {
        attempts.push(attempt);
        throw new PermanentJobError('la fiche n’existe plus');
      },
    });
    const queue = await startQueue([kind]);
    const id = await queue.send(kind, { recordUuid: randomUUID() });
    await waitFor('failure', async () => (await stateOf(queue, kind, id!)) === 'failed');
    expect(attempts).toEqual([1]);
    expect((await queue.deadLetters(kind)).map((letter) => letter.error)).toEqual([{ name: 'PermanentJobError', message: 'la fiche n’existe plus' }]);
  });

  it('a payload its kind no longer accepts fails to the dead letter at run, without calling the handler', async () => {
    let called = false;
    const v1 = defineJob({ name: 'test.schema-change', tenant: false, payload: z.object({ count: z.string() }), handler: async () => undefined });
    const v2 = defineJob({
      name: 'test.schema-change',
      tenant: false,
      payload: z.object({ count: z.number() }),
      retry: { limit: 3, delaySeconds: 0, backoff: false },
      handler: async () => void (called = true),
    });
    const sender = await startQueue([v1], { worker: false });
    const id = await sender.send(v1, { count: 'douze' });
    const queue = await startQueue([v2]);
    await waitFor('failure', async () => (await stateOf(queue, v2, id!)) === 'failed');
    expect(called).toBe(false);
    const [letter] = await queue.deadLetters(v2);
    expect(letter?.error).toMatchObject({ name: 'PermanentJobError', message: expect.stringMatching(/Invalid payload for job test\.schema-change: count/) });
  });

  it('a job over its timeout has its signal aborted and is retried', async () => {
    const signals: AbortSignal[] = [];
    const kind = defineJob({
      name: 'test.timeout',
      tenant: false,
      payload: z.object({}),
      timeoutSeconds: 1,
      retry: { limit: 1, delaySeconds: 0, backoff: false },
      handler: async ({ signal, attempt }) => {
        signals.push(signal);
        if (attempt === 1) await new Promise(() => undefined);
      },
    });
    const queue = await startQueue([kind]);
    const id = await queue.send(kind, {});
    await waitFor('completion', async () => (await stateOf(queue, kind, id!)) === 'completed');
    expect(signals).toHaveLength(2);
    expect(signals[0]!.aborted).toBe(true);
    expect(String(signals[0]!.reason)).toMatch(/délai dépassé/);
  });
});

describe('the queue’s tables are not the application’s', () => {
  it('the tenant and system roles have no access to the pgboss schema', async () => {
    for (const scope of [(fn: Parameters<typeof withSystem>[1]) => withTenant(database.db, orgA, fn), (fn: Parameters<typeof withSystem>[1]) => withSystem(database.db, fn)]) {
      const error = await scope((tx) => tx.execute(sql`select count(*) from pgboss.job`)).catch((e: Error) => e);
      expect(String((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message)).toMatch(/permission denied for schema pgboss/);
    }
  });
});

describe('pg-boss itself through the adapter', () => {
  it('creates its own schema (its BEGIN…COMMIT script), sends, fetches and completes', async () => {
    const logger = memoryLogger();
    const adapter = database.pglite ? new PgliteQueueSql(database.pglite, database.db, logger) : new PostgresQueueSql(database.pool!.options.connectionString!, logger);
    const boss = new PgBoss({ db: adapter, schema: 'pgboss_selfcheck', migrate: true, supervise: false, schedule: false });
    try {
      await boss.start();
      expect(Number(await boss.schemaVersion())).toBe(24);
      await boss.createQueue('selfcheck');
      const id = await boss.send('selfcheck', { n: 1 });
      const [job] = await boss.fetch<{ n: number }>('selfcheck');
      expect(job).toMatchObject({ id, data: { n: 1 } });
      await boss.complete('selfcheck', id!);
      expect((await boss.getJobById('selfcheck', id!))?.state).toBe('completed');
      await boss.maintain();
    } finally {
      await boss.stop({ graceful: false, close: false });
      await adapter.close();
      await asOwner('DROP SCHEMA pgboss_selfcheck CASCADE');
    }
  });
});

describe('the adapter after a script that fails half-way', () => {
  it('leaves no transaction open: the next statement and the application still work', async () => {
    const logger = memoryLogger();
    const adapter = database.pglite ? new PgliteQueueSql(database.pglite, database.db, logger) : new PostgresQueueSql(database.pool!.options.connectionString!, logger, { max: 1 });
    try {
      await expect(adapter.executeSql(`BEGIN;\nCREATE TABLE pgboss.half_way (n int);\nSELECT 1/0;\nCOMMIT;`)).rejects.toThrow(/division by zero/);
      expect(adapter.isHealthy).toBe(false);
      const { rows } = await adapter.executeSql(`SELECT to_regclass('pgboss.half_way') AS half_way, current_user AS role`);
      expect(rows[0]!.half_way).toBeNull();
      expect(rows[0]!.role).not.toBe('flotte_app');
      expect(adapter.isHealthy).toBe(true);
      const names = await readTenant(database.db, orgB, async (tx) => (await tx.select({ lastName: drivers.lastName }).from(drivers)).map((d) => d.lastName));
      expect(names).toEqual(['Bravo']);
    } finally {
      await adapter.close();
    }
  });
});

describe('maintenance and shutdown', () => {
  it('maintenance fails an expired active job, which is then retried and completed', async () => {
    const runs: number[] = [];
    const kind = defineJob({
      name: 'test.expired',
      tenant: false,
      payload: z.object({}),
      timeoutSeconds: 1,
      retry: { limit: 2, delaySeconds: 0, backoff: false },
      handler: async ({ attempt }) => void runs.push(attempt),
    });
    const sender = await startQueue([kind], { worker: false });
    const id = await sender.send(kind, {}, { startAfter: new Date(Date.now() + 3600_000) });
    // As a process that died holding it: active for an hour, its 1 s expiry long past.
    await asOwner(`UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 hour', start_after = now() - interval '1 hour' WHERE name = $1 AND id = $2`, [kind.name, id]);
    const queue = await startQueue([kind], { maintenanceIntervalSeconds: 1 });
    await waitFor('completion', async () => (await stateOf(queue, kind, id!)) === 'completed', 25_000);
    expect(runs).toEqual([2]);
  });

  it('stop lets a running job finish within the timeout', async () => {
    let finished = false;
    const kind = defineJob({
      name: 'test.graceful',
      tenant: false,
      payload: z.object({}),
      handler: async () => {
        await new Promise((r) => setTimeout(r, 700));
        finished = true;
      },
    });
    const logger = memoryLogger();
    const queue = await startQueue([kind], {}, logger);
    const id = await queue.send(kind, {});
    await waitFor('start', async () => (await stateOf(queue, kind, id!)) === 'active');
    expect(queue.isReady()).toBe(true);
    await queue.stop({ timeoutMs: 5_000 });
    expect(queue.isReady()).toBe(false);
    expect(finished).toBe(true);
    const check = await startQueue([kind], { worker: false });
    expect(await stateOf(check, kind, id!)).toBe('completed');
  });

  it('stop returns a job still running at the timeout to the queue: another worker completes it', async () => {
    const runs: number[] = [];
    const kind = defineJob({
      name: 'test.interrupted',
      tenant: false,
      payload: z.object({}),
      retry: { limit: 2, delaySeconds: 0, backoff: false },
      handler: async ({ attempt, signal }) => {
        runs.push(attempt);
        if (attempt === 1) await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
      },
    });
    const queue = await startQueue([kind]);
    const id = await queue.send(kind, {});
    await waitFor('start', async () => (await stateOf(queue, kind, id!)) === 'active');
    const started = Date.now();
    await queue.stop({ timeoutMs: 2_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    const next = await startQueue([kind]);
    await waitFor('completion', async () => (await stateOf(next, kind, id!)) === 'completed');
    expect(runs).toEqual([1, 2]);
  });
});

describe.runIf(process.env.TEST_DB === 'pglite')('a completion the database refuses (embedded: its turn never comes)', () => {
  it('does not stop the process: the job stays active, expires and is retried', async () => {
    const busy = await createTestDatabase({ maxWaitMs: 300 });
    const logger = memoryLogger();
    const queue = new JobQueue(busy, { logger, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
    try {
      const runs: number[] = [];
      const kind = defineJob({
        name: 'test.completion-outage',
        tenant: false,
        payload: z.object({}),
        timeoutSeconds: 1,
        retry: { limit: 2, delaySeconds: 0, backoff: false },
        handler: async ({ attempt }) => {
          runs.push(attempt);
          if (attempt === 1) {
            // Another operation holds the embedded database's only turn for 1.5 s: the completion
            // that follows this handler waits 300 ms for it and gives up.
            void withSystem(busy.db, () => new Promise((r) => setTimeout(r, 1_500)));
            await new Promise((r) => setTimeout(r, 50));
          }
        },
      });
      queue.register(kind);
      await queue.start();
      const id = await queue.send(kind, {});
      // The probe itself may find the database busy meanwhile.
      await waitFor('completion', async () => (await queue.job(kind, id!).catch(() => null))?.state === 'completed', 25_000);
      expect(runs).toEqual([1, 2]);
      expect(logger.lines.some((line) => line.level === 'error' && line.msg.includes('sera reprise à son expiration'))).toBe(true);
    } finally {
      await queue.stop({ timeoutMs: 2_000 });
      await busy.close();
    }
  });
});

describe('scheduled jobs', () => {
  it('a scheduled platform job is sent by the timekeeper and run; a schedule no kind declares is removed', async () => {
    const runs: unknown[] = [];
    // A schedule left by a kind that no longer declares one (its queue still exists).
    const stale = defineJob({ name: 'test.stale-schedule', tenant: false, payload: z.object({}), handler: async () => undefined });
    await startQueue([stale], { worker: false });
    await asOwner(`INSERT INTO pgboss.schedule (name, cron, timezone, data, options) VALUES ($1, '0 3 * * *', 'UTC', '{}', '{}')`, [stale.name]);
    const kind = defineJob({
      name: 'test.every-minute',
      tenant: false,
      schedule: '* * * * *',
      payload: z.object({}),
      handler: async ({ payload }) => void runs.push(payload),
    });
    const queue = await startQueue([kind]);
    await waitFor('the scheduled run', async () => runs.length > 0, 25_000);
    expect(runs[0]).toEqual({});
    const schedules = await asOwner('SELECT name, cron, timezone FROM pgboss.schedule ORDER BY name');
    expect(schedules).toEqual([{ name: 'test.every-minute', cron: '* * * * *', timezone: 'Europe/Paris' }]);
    expect(queue.isReady()).toBe(true);
  });

  it('defineJob refuses a scheduled tenant job and a schedule its schema cannot send', () => {
    expect(() => defineJob({ name: 'test.bad', tenant: true, schedule: '* * * * *', payload: z.object({}), handler: async () => undefined } as never)).toThrow(/cannot be scheduled/);
    expect(() => defineJob({ name: 'test.bad', tenant: false, schedule: '* * * * *', payload: z.object({ id: z.uuid() }), handler: async () => undefined })).toThrow(/refuses/);
    expect(() => defineJob({ name: 'Bad Name', tenant: false, payload: z.object({}), handler: async () => undefined })).toThrow(/lowercase/);
  });
});

describe.runIf(process.env.TEST_DB !== 'pglite')('two workers on one PostgreSQL', () => {
  it('every job runs once, and both workers take part', async () => {
    const runs: { id: string; worker: string }[] = [];
    const make = (worker: string) =>
      defineJob({
        name: 'test.two-workers',
        tenant: false,
        payload: z.object({ n: z.number().int() }),
        concurrency: 2,
        handler: async ({ jobId }) => {
          runs.push({ id: jobId, worker });
          await new Promise((r) => setTimeout(r, 100));
        },
      });
    const first = make('first');
    const second = make('second');
    const queueA = await startQueue([first]);
    const queueB = await startQueue([second]);
    const ids: string[] = [];
    for (let n = 0; n < 24; n++) ids.push((await (n % 2 === 0 ? queueA.send(first, { n }) : queueB.send(second, { n })))!);
    await waitFor('all jobs', async () => runs.length >= ids.length && (await Promise.all(ids.map((id) => stateOf(queueA, first, id)))).every((state) => state === 'completed'));
    expect(runs.map((run) => run.id).sort()).toEqual([...ids].sort());
    expect(new Set(runs.map((run) => run.worker))).toEqual(new Set(['first', 'second']));
  });
});

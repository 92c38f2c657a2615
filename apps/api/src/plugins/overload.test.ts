import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { withTenant } from '../db/scope.js';
import { createDrivers, createOrganization, createUser, linkUser } from '../seed/factories.js';
import { captureLogLines, createTestApp, perDescribe, tableLocker, type TestContext } from '../../test/test-app.js';

/**
 * A saturated database answers 503 with Retry-After and a French message, logged at warn with the
 * route and the organization — never a 500 — and one organization's heavy work leaves the others
 * their connections (decision 011).
 */

const onPostgres = inject('testDb').kind === 'postgres';

type Line = { level: number; msg: string; reason?: string; route?: string; organization?: string | null };

async function organizationApp(databaseOptions: { maxWaitMs?: number; statementTimeoutMs?: number }) {
  const { lines, stream } = captureLogLines<Line>();
  // The auth context cache off: every request reads the database, as the first one of a user does.
  const t = await createTestApp({ LOG_LEVEL: 'warn', AUTH_CONTEXT_TTL_MS: '0' }, databaseOptions, stream);
  const orgs = await t.seed(async (tx) => {
    const result: Record<string, string> = {};
    for (const name of ['Géant', 'Petite', 'Moyenne']) {
      const organization = await createOrganization(tx, { title: name });
      const user = await createUser(tx, { email: `gestion@${name.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')}.fr` });
      await linkUser(tx, organization.uuid, user.uuid, 'ADMIN');
      await createDrivers(tx, organization.uuid, [{ lastName: `Conducteur ${name}` }]);
      result[name] = organization.uuid;
    }
    return result;
  });
  const tokens = { giant: await t.login('gestion@geant.fr'), small: await t.login('gestion@petite.fr') };
  return { t, orgs, tokens, lines };
}

/** Database work of an organization that holds its turn until `release` (a long search, say). */
function holdTurns(t: TestContext, organization: string, count: number) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const started: Promise<unknown>[] = [];
  const holding = Array.from({ length: count }, () =>
    withTenant(t.database.db, organization, async () => {
      started.push(Promise.resolve());
      await released;
    }),
  );
  return { release: async () => (release(), await Promise.all(holding)), started: () => started.length, count };
}

/** Until every holder has its turn (new pooled connections take a moment on a busy machine). */
async function allStarted(holders: { started: () => number; count: number }[]) {
  for (let i = 0; i < 500 && holders.some((holder) => holder.started() < holder.count); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a database that has no turn free in time', () => {
  const ctx = perDescribe(() => organizationApp({ maxWaitMs: 150 }));

  it('answers 503 with Retry-After and a French message, logged at warn with the route and organization, and serves again once free', async () => {
    const { t, orgs, tokens, lines } = ctx();
    // Every connection taken: on PostgreSQL two organizations hold half the pool each; PGlite has one.
    const holders = onPostgres ? [holdTurns(t, orgs['Géant']!, 2), holdTurns(t, orgs['Moyenne']!, 2)] : [holdTurns(t, orgs['Géant']!, 1)];
    const started = Date.now();
    const response = await (async () => {
      try {
        await allStarted(holders);
        return await t.as(tokens.small, { method: 'GET', url: '/api/driver' });
      } finally {
        for (const holder of holders) await holder.release();
      }
    })();
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.',
      requestId: response.headers['x-request-id'],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const warning = lines.find((line) => line.msg === 'database overloaded: 503');
    expect(warning).toMatchObject({ level: 40, reason: 'no database turn in time' });
    // The route; the organization once the caller is known (here the context itself had to wait).
    expect(warning?.route).toBe('/api/driver');
    expect((await t.as(tokens.small, { method: 'GET', url: '/api/driver' })).statusCode).toBe(200);
  });
});

describe('requests waiting for their turn', () => {
  const ctx = perDescribe(() => organizationApp({}));

  it('never hold the event loop between them: a new connection is accepted and a timer fires while forty wait', async () => {
    const { t, tokens } = ctx();
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const read = (i: number) => t.as(i % 2 ? tokens.small : tokens.giant, { method: 'GET', url: `/api/driver?search=conducteur&page=${i + 1}` });
    await Promise.all([0, 1, 2, 3].map(read));
    let answered = 0;
    const reads = Array.from({ length: 40 }, (_, i) => read(i).then((response) => (answered++, response)));
    // Node accepts one connection per turn of its event loop (libuv ≥ 1.45): on the embedded
    // database, whose work waits for no I/O, the forty reads once ran in one turn, and a connection
    // opened meanwhile waited for all of them (docs/performance.md, « Résilience : charge et arrêt »).
    const accepted = new Promise<number>((resolve) => t.app.server.once('connection', () => resolve(answered)));
    const socket = connect(Number(address.port), address.hostname);
    const timer = new Promise<number>((resolve) => setTimeout(() => resolve(answered), 0));
    const statuses = (await Promise.all(reads)).map((response) => response.statusCode);
    socket.destroy();
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
    expect(await accepted, 'answers before the connection was accepted').toBeLessThan(20);
    expect(await timer, 'answers before the timer fired').toBeLessThan(20);
  });
});

describe.runIf(onPostgres)('fair shares of the pool on PostgreSQL', () => {
  const ctx = perDescribe(() => organizationApp({ maxWaitMs: 300 }));

  it('keeps serving another organization while one holds its whole share', async () => {
    const { t, orgs, tokens } = ctx();
    // Half the pool (2 of 4) is the giant's share: it holds it all, and never lets go during the test.
    const giant = holdTurns(t, orgs['Géant']!, 2);
    try {
      await allStarted([giant]);
      expect(giant.started()).toBe(2);
      // Served (had it waited for the giant, it would have been answered 503).
      const response = await t.as(tokens.small, { method: 'GET', url: '/api/driver' });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual([expect.objectContaining({ lastName: 'Conducteur Petite' })]);
      // The giant's own request waits for its turn and is answered 503 when none comes in time.
      const own = await t.as(tokens.giant, { method: 'GET', url: '/api/driver' });
      expect(own.statusCode).toBe(503);
    } finally {
      await giant.release();
    }
    expect((await t.as(tokens.giant, { method: 'GET', url: '/api/driver' })).statusCode).toBe(200);
  });
});

describe.runIf(onPostgres)('a statement cancelled by its timeout', () => {
  const ctx = perDescribe(() => organizationApp({ statementTimeoutMs: 200 }));
  const locker = tableLocker(ctx);

  it('answers 503, not 500, and logs it at warn with the route and organization', async () => {
    const { t, orgs, tokens, lines } = ctx();
    // Another session holds the drivers table: the list's statement waits past its timeout.
    await locker.lock('drivers');
    const response = await t.as(tokens.small, { method: 'GET', url: '/api/driver?search=conducteur' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json().message).toBe('Le service est très sollicité en ce moment : réessayez dans quelques secondes.');
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: 'database overloaded: 503', reason: 'statement timeout', route: '/api/driver', organization: orgs['Petite'] }));
    await locker.release();
    expect((await t.as(tokens.small, { method: 'GET', url: '/api/driver?search=conducteur' })).statusCode).toBe(200);
  });

  it('cancels a write past its timeout too, and writes nothing', async () => {
    const { t, orgs, tokens } = ctx();
    await locker.lock('drivers');
    const response = await t.as(tokens.small, { method: 'POST', url: '/api/driver', payload: { firstName: 'Jamais', lastName: 'Écrit' } });
    expect(response.statusCode).toBe(503);
    await locker.release();
    const rows = await withTenant(t.database.db, orgs['Petite']!, (tx) => tx.execute(sql`select count(*)::int as n from drivers where last_name = 'Écrit'`));
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});

import { randomInt, randomUUID } from 'node:crypto';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DatabaseHandle, openPostgres } from '../db/client.js';
import { REFRESH_COOKIE } from '../modules/auth/auth.routes.js';
import { createUser, DEFAULT_TEST_PASSWORD } from '../seed/factories.js';
import { createTestApp, type TestContext, testAppOn } from '../../test/test-app.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';

/**
 * Several API processes on one database (decision 020). Login limits are shared: two app instances on one database,
 * each with its own pool — as two processes behind a load balancer — count the same failures,
 * through PostgreSQL by default, through Redis when REDIS_URL is set. Counted per process, the
 * limit of 5 failures per (account, address) would let two instances take 10, and refuse only
 * the eleventh. A session ended through one instance stops opening the other's reads within the
 * context cache's time to live, and its writes at once.
 */

const onPostgres = inject('testDb').kind === 'postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';

/** Addresses and accounts of this run only: Redis outlives a test database, and two runs may share it. */
const run = randomInt(1, 250);
const address = (i: number) => `10.${run}.${randomInt(0, 250)}.${i}`;

type Pair = { a: TestContext; b: TestContext; email: string };

/** Instance A on a fresh test database; instance B beside it on the same database. */
async function twoInstances(env: Record<string, string>): Promise<Pair> {
  const a = await createTestApp(env);
  let second: DatabaseHandle;
  if (a.database.kind === 'postgres') {
    second = await openPostgres((a.database as DatabaseHandle & { url: string }).url, { migrate: false, max: 4 });
  } else {
    // PGlite is held by one process: B shares A's handle, and only A closes it.
    second = { ...a.database, close: async () => undefined };
  }
  const b = await testAppOn(second, env);
  const user = await a.seed((tx) => createUser(tx, { email: `cible-${randomUUID().slice(0, 8)}@exemple.fr` }));
  return { a, b, email: user.email };
}

function attempt(instance: TestContext, email: string, password: string, ip: string) {
  return instance.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });
}

function sharedLimits(name: string, env: () => Record<string, string>) {
  describe(name, () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await twoInstances(env());
    });
    afterAll(async () => {
      await pair.b.close();
      await pair.a.close();
    });

    it('refuses an address its sixth try on an account whichever instance receives it, after five failures split between them', async () => {
      const { a, b, email } = pair;
      const ip = address(1);
      for (const instance of [a, b, a, b, a]) expect((await attempt(instance, email, 'mauvais-mot-de-passe', ip)).statusCode).toBe(401);
      for (const instance of [b, a]) {
        const refused = await attempt(instance, email, 'mauvais-mot-de-passe', ip);
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
        expect(refused.json().message).toMatch(/^Trop de tentatives de connexion depuis cette adresse\. Réessayez dans 15 minutes\.$/);
      }
      // Refused before the password is checked: even the right one, from that address.
      expect((await attempt(b, email, DEFAULT_TEST_PASSWORD, ip)).statusCode).toBe(429);
      // The owner, from elsewhere, gets in through either instance.
      expect((await attempt(a, email, DEFAULT_TEST_PASSWORD, address(2))).statusCode).toBe(200);
    });

    it('slows the account down at its eleventh failure whichever instance receives it, ten having been split between them', async () => {
      const { a, b } = pair;
      const target = await a.seed((tx) => createUser(tx, { email: `assiegee-${randomUUID().slice(0, 8)}@exemple.fr` }));
      // A distributed attack: each address fails once, on alternate instances.
      for (let i = 0; i < 10; i++) {
        expect((await attempt(i % 2 ? b : a, target.email, `essai-${i}`, address(10 + i))).statusCode).toBe(401);
      }
      for (const [instance, atLeast] of [[b, 250], [a, 500]] as const) {
        const started = Date.now();
        expect((await attempt(instance, target.email, 'encore-faux', address(100 + atLeast / 250))).statusCode).toBe(401);
        // 250 ms before the eleventh password check, 500 ms before the twelfth (decision 014).
        expect(Date.now() - started).toBeGreaterThanOrEqual(atLeast - 10);
      }
    });
  });
}

describe.runIf(onPostgres)('two instances on one PostgreSQL database', () => {
  sharedLimits('counted in PostgreSQL', () => ({}));
});

sharedLimits('counted in Redis (REDIS_URL)', () => ({ REDIS_URL }));

describe('Redis holding the limits goes away', () => {
  let t: TestContext;
  let proxy: TcpProxy;
  let email: string;
  beforeAll(async () => {
    // Redis reached through a TCP proxy the test cuts.
    const target = new URL(REDIS_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}` });
    email = (await t.seed((tx) => createUser(tx, { email: `redis-${randomUUID().slice(0, 8)}@exemple.fr` }))).email;
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it('GET /api/ready checks Redis beside the database', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok', queue: 'ok' } });
  });

  it('refuses logins 503 while Redis is cut (never unlimited), says not ready, and serves again by itself within 5 s', async () => {
    proxy.cut();
    const started = Date.now();
    const login = await attempt(t, email, DEFAULT_TEST_PASSWORD, address(240));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(login.statusCode).toBe(503);
    expect(login.headers['retry-after']).toBe('5');
    expect(login.json().message).toBe('Le service est momentanément indisponible : réessayez dans quelques instants.');
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().details).toEqual([{ path: 'redis', message: 'ne répond pas' }]);
    proxy.restore();
    const back = Date.now();
    let status = 0;
    while (Date.now() - back < 5_000 && status !== 200) {
      status = (await attempt(t, email, DEFAULT_TEST_PASSWORD, address(241))).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });
});

describe('a session ended through another instance', () => {
  const TTL_MS = 500;
  let pair: Pair;
  beforeAll(async () => {
    pair = await twoInstances({ AUTH_CONTEXT_TTL_MS: String(TTL_MS) });
  });
  afterAll(async () => {
    await pair.b.close();
    await pair.a.close();
  });

  it('is refused by the other instance at once for a write, and within the context TTL for a read', async () => {
    const { a, b, email } = pair;
    const login = await attempt(a, email, DEFAULT_TEST_PASSWORD, address(200));
    expect(login.statusCode).toBe(200);
    const access = login.json().tokens.access_token as string;
    const cookie = login.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    const uuid = login.json().user.uuid as string;
    // B serves a read and keeps the caller's context (cached by the time this read has answered).
    expect((await b.as(access, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    const cached = Date.now();
    expect((await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE }, cookies: { [REFRESH_COOKIE]: cookie } })).statusCode).toBe(204);
    // A write loads the context afresh: refused at once.
    expect((await b.as(access, { method: 'PATCH', url: `/api/user/${uuid}`, payload: { firstName: 'Encore' } })).statusCode).toBe(401);
    // A read is refused once B's cached context has expired: the bound is the TTL (5 s by default).
    // Judged by when each read started, not by how long it took: no read started after the cached
    // context's TTL is served, however slow the machine.
    let lastServedStart = -1;
    let refused = false;
    while (Date.now() - cached < TTL_MS * 6) {
      const started = Date.now() - cached;
      const read = await b.as(access, { method: 'GET', url: '/api/auth/me' });
      if (read.statusCode === 401) {
        refused = true;
        break;
      }
      expect(read.statusCode).toBe(200);
      lastServedStart = started;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(refused).toBe(true);
    expect(lastServedStart).toBeLessThanOrEqual(TTL_MS);
  });
});

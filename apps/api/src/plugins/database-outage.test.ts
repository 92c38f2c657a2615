import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { REFRESH_COOKIE } from '../modules/auth/auth.routes.js';
import { createDrivers, createOrganization, createUser, DEFAULT_TEST_PASSWORD, linkUser } from '../seed/factories.js';
import { captureLogLines, createTestApp, perDescribe } from '../../test/test-app.js';
import { startTcpProxy } from '../../test/tcp-proxy.js';

/**
 * PostgreSQL goes away under the app (decision 020): the app's pool connects through a TCP proxy
 * the test controls. While the database is cut (connections reset, new ones refused) or silent
 * (nothing gets through), every request that needs it answers 503 with Retry-After and a French
 * message within a few seconds — never 500, never a hang — /api/health still answers, /api/ready
 * says 503, and within 5 s of the database's return requests succeed again by themselves.
 */

const testDb = inject('testDb');
const UNAVAILABLE = {
  statusCode: 503,
  error: 'Service Unavailable',
  message: 'Le service est momentanément indisponible : réessayez dans quelques instants.',
};

type Line = { level: number; msg: string; reason?: string; route?: string };

async function appThroughProxy(statementTimeoutMs?: number) {
  if (testDb.kind !== 'postgres') throw new Error('PostgreSQL only');
  const target = new URL(testDb.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const { lines, stream } = captureLogLines<Line>();
  const t = await createTestApp({ LOG_LEVEL: 'warn' }, { throughPort: proxy.port, statementTimeoutMs }, stream);
  await t.seed(async (tx) => {
    const organization = await createOrganization(tx, { title: 'Transports Coupure' });
    const user = await createUser(tx, { email: 'gestion@coupure.fr' });
    await linkUser(tx, organization.uuid, user.uuid, 'ADMIN');
    await createDrivers(tx, organization.uuid, [{ lastName: 'Martin' }]);
  });
  const token = await t.login('gestion@coupure.fr');
  const requests = {
    login: () => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'gestion@coupure.fr', password: DEFAULT_TEST_PASSWORD } }),
    drivers: () => t.as(token, { method: 'GET', url: '/api/driver' }),
    ready: () => t.app.inject({ method: 'GET', url: '/api/ready' }),
    health: () => t.app.inject({ method: 'GET', url: '/api/health' }),
    // Starts with a write transaction (the refresh token's family), before any read.
    refresh: () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
        cookies: { [REFRESH_COOKIE]: 'jeton-inconnu' },
      }),
  };
  return { t, proxy, lines, requests };
}

/** appThroughProxy for the tests of one describe; after them, the network back and the app closed. */
const throughProxyPerDescribe = (statementTimeoutMs?: number) =>
  perDescribe(
    () => appThroughProxy(statementTimeoutMs),
    async ({ t, proxy }) => {
      proxy.restore();
      await t.close();
      await proxy.close();
    },
  );

async function timed(request: () => Promise<LightMyRequestResponse>) {
  const started = Date.now();
  const response = await request();
  return { response, ms: Date.now() - started };
}

function expectUnavailable(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe('5');
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  // With the request's reference (decision 046).
  expect(response.json()).toEqual({ ...UNAVAILABLE, requestId: response.headers['x-request-id'] });
}

/** Polls until `request` answers 200; returns how long that took. */
async function untilOk(request: () => Promise<LightMyRequestResponse>, limitMs: number) {
  const started = Date.now();
  let last: LightMyRequestResponse | undefined;
  while (Date.now() - started < limitMs) {
    last = await request();
    if (last.statusCode === 200) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`still ${last?.statusCode} after ${limitMs} ms: ${last?.body}`);
}

describe.runIf(testDb.kind === 'postgres')('PostgreSQL cut under the app (stopped server, reset connections)', () => {
  const ctx = throughProxyPerDescribe();
  afterEach(() => ctx().proxy.restore());

  it('answers a login and a register list 503 with Retry-After and a French message within a few seconds, and stays up', async () => {
    const { proxy, requests, lines } = ctx();
    // Connections are pooled and idle: the cut resets them under the pool.
    expect((await requests.drivers()).statusCode).toBe(200);
    proxy.cut();
    for (const request of [requests.login, requests.drivers, requests.login, requests.drivers]) {
      const { response, ms } = await timed(request);
      expectUnavailable(response);
      expect(ms).toBeLessThan(3_000);
    }
    // The process is up and says so; it is not ready, and says why.
    expect((await requests.health()).json()).toEqual({ status: 'ok' });
    const { response: ready, ms } = await timed(requests.ready);
    expect(ms).toBeLessThan(3_000);
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: "Le service n'est pas prêt : une ressource dont il dépend ne répond pas.",
      details: [{ path: 'database', message: 'ne répond pas' }],
      requestId: ready.headers['x-request-id'],
    });
    // Said at warn with the route, never as an unhandled error.
    const warnings = lines.filter((line) => line.msg === 'database unavailable: 503');
    expect(warnings.map((line) => line.route)).toEqual(expect.arrayContaining(['/api/auth/login', '/api/driver']));
    expect(warnings.every((line) => line.level === 40)).toBe(true);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('serves again by itself within 5 s of the database coming back', async () => {
    const { proxy, requests } = ctx();
    proxy.cut();
    expectUnavailable(await requests.drivers());
    proxy.restore();
    const back = Date.now();
    await untilOk(requests.login, 5_000);
    await untilOk(requests.drivers, 5_000);
    await untilOk(requests.ready, 5_000);
    expect(Date.now() - back).toBeLessThan(5_000);
    const list = await requests.drivers();
    expect(list.json().data).toEqual([expect.objectContaining({ lastName: 'Martin' })]);
  });

  it('survives repeated cuts without losing pooled connections', async () => {
    const { t, proxy, requests } = ctx();
    // A transaction whose BEGIN fails on a connection just lost used to keep its client for good:
    // after one cut under four such transactions the pool (4 here) was full of them.
    for (let round = 0; round < 3; round++) {
      // Four pooled connections, idle when the cut comes.
      await Promise.all([requests.drivers(), requests.drivers(), requests.drivers(), requests.drivers()]);
      proxy.cut();
      const during = await Promise.all([requests.refresh(), requests.refresh(), requests.refresh(), requests.refresh(), requests.login(), requests.drivers()]);
      for (const response of during) expectUnavailable(response);
      proxy.restore();
      await untilOk(requests.drivers, 5_000);
    }
    expect(t.database.pool!.totalCount).toBeLessThanOrEqual(4);
    expect((await requests.login()).statusCode).toBe(200);
  });
});

describe.runIf(testDb.kind === 'postgres')('PostgreSQL silent under the app (a network that drops everything)', () => {
  // A short statement timeout: a query silent beyond it and its 2 s margin closes its connection.
  const ctx = throughProxyPerDescribe(1_000);

  it('answers 503 within the statement timeout and its margin rather than hanging, and serves again once the network is back', async () => {
    const { proxy, requests } = ctx();
    expect((await requests.drivers()).statusCode).toBe(200);
    proxy.freeze();
    const [list, login, ready] = await Promise.all([timed(requests.drivers), timed(requests.login), timed(requests.ready)]);
    expectUnavailable(list.response);
    expect(list.ms).toBeLessThan(6_000);
    // A login waits for its turn or a new connection at most 5 s, then 503 as well.
    expect(login.response.statusCode).toBe(503);
    expect(login.ms).toBeLessThan(6_000);
    expect(ready.response.statusCode).toBe(503);
    expect(ready.ms).toBeLessThan(3_000);
    proxy.restore();
    const back = Date.now();
    await untilOk(requests.drivers, 5_000);
    await untilOk(requests.login, 5_000);
    expect(Date.now() - back).toBeLessThan(5_000);
  });
});

describe.runIf(testDb.kind === 'postgres')('PostgreSQL silent under the app, with the default statement timeout (15 s)', () => {
  const ctx = throughProxyPerDescribe();

  it('answers 503 within 5 s, not after the statement timeout, because a probe finds the database silent; a new connection then gives up at once', async () => {
    const { proxy, requests } = ctx();
    expect((await requests.drivers()).statusCode).toBe(200);
    proxy.freeze();
    // Queries sent on pooled connections: closed once the probe (1.5 s, then 2 s for SELECT 1) gets no answer.
    const during = await Promise.all([timed(requests.drivers), timed(requests.drivers), timed(requests.login)]);
    for (const { response, ms } of during) {
      expect(response.statusCode).toBe(503);
      expect(ms).toBeLessThan(5_000);
    }
    expectUnavailable(during[0]!.response);
    // The verdict is fresh: a request that needs a new connection is refused without waiting.
    const next = await timed(requests.drivers);
    expectUnavailable(next.response);
    expect(next.ms).toBeLessThan(1_000);
    proxy.restore();
    const back = Date.now();
    await untilOk(requests.drivers, 5_000);
    await untilOk(requests.ready, 5_000);
    expect(Date.now() - back).toBeLessThan(5_000);
  });
});

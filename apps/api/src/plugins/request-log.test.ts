import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, inject, it } from 'vitest';
import { withTenant } from '../db/scope.js';
import { createDrivers, createOrganization, createUser, DEFAULT_TEST_PASSWORD, linkUser } from '../seed/factories.js';
import { captureLogLines, createTestApp, type LogLine, perDescribe, tableLocker, type TestContext, type TestDatabaseOptions } from '../../test/test-app.js';
import { newRequestId } from './request-log.js';

/**
 * Request logs and the support reference (decision 046): every answer has an X-Request-Id, every
 * 5xx carries it in its body as the request's log lines do, a trusted proxy's id is kept only when
 * well-formed, nothing a user typed reaches a line at info, and a slow statement is logged at warn
 * with its shape, never its values.
 */

const onPostgres = inject('testDb').kind === 'postgres';
const GENERATED_ID = /^[A-Za-z0-9_-]{16}$/;

/** A test app whose log lines (JSON, at LOG_LEVEL) are kept: raw text and parsed. */
async function loggedApp(env: Record<string, string>, databaseOptions: TestDatabaseOptions = {}) {
  const { raw, lines, stream } = captureLogLines();
  const t = await createTestApp({ LOG_LEVEL: 'info', ...env }, databaseOptions, stream);
  const organization = await t.seed(async (tx) => {
    const org = await createOrganization(tx, { title: 'Transports Référence' });
    const user = await createUser(tx, { email: 'gestion@reference.fr', firstName: 'Gaspard', lastName: 'Tournesol' });
    await linkUser(tx, org.uuid, user.uuid, 'ADMIN');
    await createDrivers(tx, org.uuid, [{ lastName: 'Castafiore', firstName: 'Bianca' }]);
    return { uuid: org.uuid, userUuid: user.uuid };
  });
  const token = await t.login('gestion@reference.fr');
  return { t, raw, lines, token, organization };
}

const requestLines = (lines: LogLine[]) => lines.filter((line) => line.msg === 'request');
const idOf = (response: LightMyRequestResponse) => response.headers['x-request-id'] as string;

describe('a new request id', () => {
  it('is 16 url-safe characters, each its own, across the refills of its random pool', () => {
    const ids = Array.from({ length: 2_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('X-Request-Id and the request line', () => {
  const ctx = perDescribe(() => loggedApp({}));

  it('answers an id on every answer, a refusal, a 404 and a malformed URL included, each its own', async () => {
    const { t, token } = ctx();
    const responses = [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.as(token, { method: 'GET', url: '/api/driver' }),
      await t.app.inject({ method: 'GET', url: '/api/driver' }),
      await t.as(token, { method: 'POST', url: '/api/driver', payload: { firstName: '' } }),
      await t.as(token, { method: 'GET', url: '/api/driver/00000000-0000-4000-8000-000000000000' }),
      await t.app.inject({ method: 'GET', url: '/api/route-inconnue?x=1' }),
      await t.app.inject({ method: 'GET', url: '/api/driver/%E0%A4%A' }),
    ];
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 401, 400, 404, 404, 400]);
    const ids = responses.map(idOf);
    for (const id of ids) expect(id).toMatch(GENERATED_ID);
    expect(new Set(ids).size).toBe(ids.length);
    // A refusal says what to change: the reference is for server errors only.
    expect(responses[3]!.json()).not.toHaveProperty('requestId');
    expect(responses[5]!.json()).not.toHaveProperty('requestId');
  });

  it('logs a healthy probe at debug only: a load balancer asking every few seconds does not fill the log', async () => {
    const { t, lines } = ctx();
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect([health.statusCode, ready.statusCode]).toEqual([200, 200]);
    for (const response of [health, ready]) expect(requestLines(lines).filter((entry) => entry.reqId === idOf(response))).toEqual([]);
  });

  it('logs one line per request at info: id, route template, method, status, duration, organization and user', async () => {
    const { t, token, lines, organization } = ctx();
    const [driver] = (await t.as(token, { method: 'GET', url: '/api/driver' })).json<{ data: { uuid: string }[] }>().data;
    const response = await t.as(token, { method: 'GET', url: `/api/driver/${driver!.uuid}?fields=tout` });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/route-inconnue?nom=Castafiore' });
    const line = requestLines(lines).find((entry) => entry.reqId === idOf(response));
    expect(line).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/api/driver/:uuid',
      statusCode: response.statusCode,
      organization: organization.uuid,
      user: organization.userUuid,
    });
    expect(line!.ms).toEqual(expect.any(Number));
    expect(requestLines(lines).filter((entry) => entry.reqId === idOf(response))).toHaveLength(1);
    // Never the URL: its path holds ids, its query what a user typed.
    expect(JSON.stringify(line)).not.toContain(driver!.uuid);
    const unmatched = requestLines(lines).find((entry) => entry.reqId === idOf(anonymous));
    expect(unmatched).toMatchObject({ level: 30, method: 'GET', route: null, statusCode: 404 });
    expect(unmatched).not.toHaveProperty('organization');
    expect(JSON.stringify(unmatched)).not.toContain('Castafiore');
  });

  it('keeps no line at info of a login, a create, an update or a search holding what the user typed or the token', async () => {
    const { t, raw } = ctx();
    const start = raw.length;
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'gestion@reference.fr', password: DEFAULT_TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const token = login.json<{ tokens: { access_token: string } }>().tokens.access_token;
    const refreshCookie = login.cookies.find((cookie) => cookie.name.includes('refresh'))?.value;
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'gestion@reference.fr', password: 'MauvaisSecret!42' } });
    expect(wrong.statusCode).toBe(401);
    const created = await t.as(token, {
      method: 'POST',
      url: '/api/driver',
      payload: { firstName: 'Séraphin', lastName: 'Lampion', email: 'seraphin.lampion@assurances-mondass.fr', phone: '06 12 34 56 78' },
    });
    expect(created.statusCode).toBe(201);
    const uuid = created.json<{ uuid: string }>().uuid;
    const updated = await t.as(token, {
      method: 'PATCH',
      url: `/api/driver/${uuid}`,
      payload: { lastName: 'Lampionnet', email: 'lampion.bis@mondass.fr', phone: '07 98 76 54 32' },
    });
    expect(updated.statusCode).toBe(200);
    const searched = await t.as(token, { method: 'GET', url: '/api/driver?search=Lampionnet&sortBy=lastName' });
    expect(searched.statusCode).toBe(200);
    expect(searched.json<{ data: unknown[] }>().data).toHaveLength(1);
    const infoLines = raw.slice(start).filter((line) => (JSON.parse(line) as LogLine).level >= 30);
    // The five requests said themselves, each once.
    expect(infoLines.filter((line) => (JSON.parse(line) as LogLine).msg === 'request')).toHaveLength(5);
    const typed = [
      'gestion@reference.fr',
      DEFAULT_TEST_PASSWORD,
      'MauvaisSecret!42',
      token,
      ...(refreshCookie ? [refreshCookie] : []),
      'Séraphin',
      'Lampion',
      'seraphin.lampion',
      'mondass',
      '0612345678',
      '612345678',
      '06 12 34 56 78',
      '798765432',
      'search=',
      'Gaspard',
      'Tournesol',
    ];
    for (const line of infoLines) for (const text of typed) expect(line, `« ${text} » in a log line`).not.toContain(text);
  });
});

describe('the reference of a server error', () => {
  const ctx = perDescribe(() => loggedApp({}));

  it('puts the request id in the body of a 500, equal to its header and to its log lines', async () => {
    const { t, token, lines } = ctx();
    // A defect below the services: the database's transactions throw an ordinary error.
    const db = t.database.db as { transaction: unknown };
    const transaction = db.transaction;
    db.transaction = () => Promise.reject(new Error('panne simulée'));
    let response: LightMyRequestResponse;
    try {
      response = await t.as(token, { method: 'POST', url: '/api/driver', payload: { firstName: 'Jamais', lastName: 'Écrit' } });
    } finally {
      db.transaction = transaction;
    }
    expect(response.statusCode).toBe(500);
    const id = idOf(response);
    expect(id).toMatch(GENERATED_ID);
    expect(response.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Une erreur interne est survenue. Veuillez réessayer.', requestId: id });
    // The cause at error and the request's line, both under the id the user quotes.
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: 'unhandled error', reqId: id }));
    expect(requestLines(lines)).toContainEqual(expect.objectContaining({ reqId: id, route: '/api/driver', statusCode: 500 }));
  });
});

describe('the error line of a failed query', () => {
  const ctx = perDescribe(() => loggedApp({}));

  it('keeps the SQL and the reference, never the values Drizzle and PostgreSQL quote', async () => {
    const { t, token, raw } = ctx();
    const db = t.database.db as { transaction: unknown };
    const transaction = db.transaction;
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "drivers_email"'), {
      code: '23505',
      detail: 'Key (email)=(seraphin.lampion@mondass.fr) already exists.',
    });
    db.transaction = () => Promise.reject(new DrizzleQueryError('insert into "drivers" ("email") values ($1)', ['seraphin.lampion@mondass.fr'], cause));
    let response: LightMyRequestResponse;
    try {
      response = await t.as(token, { method: 'POST', url: '/api/driver', payload: { firstName: 'Séraphin', lastName: 'Lampion' } });
    } finally {
      db.transaction = transaction;
    }
    expect(response.statusCode).toBe(500);
    const line = raw.find((entry) => entry.includes('"unhandled error"') && entry.includes(idOf(response)));
    expect(line).toBeDefined();
    expect(line).toContain('insert into \\"drivers\\"');
    expect(line).toContain('params: [masqués]');
    expect(line).not.toContain('seraphin.lampion');
  });
});

describe('the reference of a 503: no database turn in time', () => {
  const ctx = perDescribe(() => loggedApp({ AUTH_CONTEXT_TTL_MS: '60000' }, { maxWaitMs: 150 }));

  it('carries the request id in its body, its header and its warn line', async () => {
    const { t, token, lines, organization } = ctx();
    // The caller's context is cached first, so the 503 comes from the list's own turn.
    expect((await t.as(token, { method: 'GET', url: '/api/driver' })).statusCode).toBe(200);
    const response = await holdingEveryTurn(t, organization.uuid, () => t.as(token, { method: 'GET', url: '/api/driver' }));
    expect(response.statusCode).toBe(503);
    const id = idOf(response);
    expect(response.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.',
      requestId: id,
    });
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: 'database overloaded: 503', reqId: id }));
    expect(requestLines(lines)).toContainEqual(expect.objectContaining({ reqId: id, route: '/api/driver', statusCode: 503, organization: organization.uuid }));
  });
});

/** Runs request while the organization's work holds every database turn (a pool of 4 on PostgreSQL, PGlite's one). */
async function holdingEveryTurn(t: TestContext, organization: string, request: () => Promise<LightMyRequestResponse>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  const count = onPostgres ? 2 : 1;
  // An organization's share is half the pool on PostgreSQL: its two holders leave it no turn.
  const holders = Array.from({ length: count }, () =>
    withTenant(t.database.db, organization, async () => {
      started++;
      await released;
    }),
  );
  try {
    for (let i = 0; i < 500 && started < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    return await request();
  } finally {
    release();
    await Promise.all(holders);
  }
}

describe.runIf(onPostgres)('the reference of a 503: a statement cancelled by its timeout', () => {
  const ctx = perDescribe(() => loggedApp({}, { statementTimeoutMs: 200 }));
  const locker = tableLocker(ctx);

  it('carries the request id in its body, equal to its header and to its warn line', async () => {
    const { t, token, lines, organization } = ctx();
    await locker.lock('drivers');
    const response = await t.as(token, { method: 'GET', url: '/api/driver?search=castafiore' });
    await locker.release();
    expect(response.statusCode).toBe(503);
    const id = idOf(response);
    expect(response.json()).toMatchObject({ statusCode: 503, requestId: id });
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: 'database overloaded: 503', reason: 'statement timeout', reqId: id, organization: organization.uuid }));
    // Slow before it was cancelled: said at warn too, failed, under the same id.
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: 'slow statement', reqId: id, failed: true, organization: organization.uuid }));
  });
});

describe('an incoming X-Request-Id', () => {
  const ids = { good: 'proxy-4f2a.9c_0001', short: 'abc1234', long: 'a'.repeat(65), spaced: 'proxy id 0001', quoted: 'proxy"0001"x' };

  it('is reused behind a trusted proxy when well-formed, and replaced when malformed', async () => {
    const { t } = await loggedApp({ TRUST_PROXY: '1' });
    try {
      const reused = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': ids.good } });
      expect(idOf(reused)).toBe(ids.good);
      for (const bad of [ids.short, ids.long, ids.spaced, ids.quoted]) {
        const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
        expect(idOf(response)).toMatch(GENERATED_ID);
      }
    } finally {
      await t.close();
    }
  });

  it('is never reused without TRUST_PROXY: the client does not choose its reference', async () => {
    const { t, lines } = await loggedApp({});
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': ids.good } });
      expect(idOf(response)).toMatch(GENERATED_ID);
      expect(idOf(response)).not.toBe(ids.good);
      expect(lines.some((line) => line.reqId === ids.good)).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('slow statements', () => {
  it('logs each statement over SLOW_STATEMENT_MS at warn with its name, duration and organization, never its values', async () => {
    const { t, token, raw, lines, organization } = await loggedApp({ SLOW_STATEMENT_MS: '0', LOG_LEVEL: 'warn' });
    try {
      const response = await t.as(token, { method: 'GET', url: '/api/driver?search=Castafiore&sortBy=lastName' });
      expect(response.statusCode).toBe(200);
      const slow = lines.filter((line) => line.msg === 'slow statement' && line.reqId === idOf(response));
      expect(slow.length).toBeGreaterThan(0);
      for (const line of slow) {
        expect(line).toMatchObject({ level: 40, statement: expect.any(String), sql: expect.any(String), ms: expect.any(Number) });
      }
      // The list's prepared statement, by its name (db/statements.ts), in the caller's organization.
      expect(slow).toContainEqual(expect.objectContaining({ statement: expect.stringMatching(/^drivers_list_\d+$/), organization: organization.uuid, scope: 'tenant' }));
      for (const line of raw.filter((entry) => entry.includes('slow statement'))) {
        expect(line.toLowerCase()).not.toContain('castafiore');
        expect(line).not.toContain('gestion@reference.fr');
      }
    } finally {
      await t.close();
    }
  });

  it('logs a statement slower than the threshold (pg_sleep), and not the quick ones', async () => {
    // A threshold far above a quick statement's time on a busy host (on PGlite under load a plain
    // select once took over 150 ms), a sleep well beyond it.
    const { t, lines, organization } = await loggedApp({ SLOW_STATEMENT_MS: '1000', LOG_LEVEL: 'warn' });
    try {
      await withTenant(t.database.db, organization.uuid, async (tx) => {
        await tx.execute(sql`select ${'Castafiore'}::text as name`);
        await tx.execute(sql`select pg_sleep(1.3), ${'valeur-secrète'}::text`);
      });
      const slow = lines.filter((line) => line.msg === 'slow statement');
      expect(slow).toHaveLength(1);
      expect(slow[0]).toMatchObject({ level: 40, organization: organization.uuid, scope: 'tenant', statement: expect.stringMatching(/^select #[0-9a-f]{8}$/) });
      expect(slow[0]!.ms).toBeGreaterThanOrEqual(1_250);
      expect(slow[0]!.sql).toContain('pg_sleep');
      // Outside any request: the app's logger, without a request id.
      expect(slow[0]).not.toHaveProperty('reqId');
      expect(JSON.stringify(slow[0])).not.toContain('valeur-secrète');
    } finally {
      await t.close();
    }
  });
});

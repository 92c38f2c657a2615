import { createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import { withSystem } from '../../src/db/scope.js';
import { refreshTokens } from '../../src/db/schema/users.js';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_MS, SESSION_MAX_AGE_MS } from '../../src/lib/tokens.js';
import { REFRESH_COOKIE } from '../../src/modules/auth/session-http.js';
import { createEnvironment, createOrganization, createUser, DEFAULT_TEST_PASSWORD, linkUser } from '../../src/seed/factories.js';
import { createTestDatabase } from '../test-app.js';

/**
 * Issue 20, point 5: the promises of the access token, the refresh cookie and the session, as an
 * attacker tries them. Every forged access token answers 401; a reused refresh token revokes its
 * family; two refreshes at once leave one live chain; the idle (REFRESH_TOKEN_TTL_MS) and absolute
 * (SESSION_MAX_AGE_MS) lifetimes hold, on a clock the test moves (BuildAppOptions.now); the cookie
 * is HttpOnly, Secure behind HTTPS, SameSite=Strict and scoped to /api/auth; a cross-site call of
 * refresh or logout answers 403 and changes nothing. The file prints what it tried and what held.
 */

const SECRET = 'tokens-suite-secret-0123456789-0123456789';
const ISSUER = 'flotteassur';
const AUDIENCE = 'flotteassur-web';
const CSRF = { [CSRF_HEADER]: CSRF_HEADER_VALUE };
const INVALID_TOKEN = 'Session expirée ou jeton invalide';
const SESSION_EXPIRED = 'Session expirée, veuillez vous reconnecter';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** What the file tried, and what held: printed at the end. */
const ledger: string[] = [];
const held = (tried: string, outcome: string) => ledger.push(`  ${tried.padEnd(78)} → ${outcome}`);

/** The app's clock: moved by the tests, read by the tokens and the sessions. */
let clock = Date.now();
let app: FastifyInstance;
let database: DatabaseHandle;
let dataDir: string;
let httpsApp: FastifyInstance;
let httpsDatabase: DatabaseHandle;
let httpsDataDir: string;
let userUuid: string;
let otherUserUuid: string;

async function open(env: Record<string, string>) {
  const db = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'flotte-tokens-'));
  const config = loadConfig({ APP_SECRET: SECRET, LOG_LEVEL: 'silent', JOBS_WORKER: 'false', DATA_DIR: dir, ...env });
  const built = await buildApp(config, db, { serveWeb: false, logger: false, now: () => clock });
  await built.ready();
  return { app: built, db, dir };
}

beforeAll(async () => {
  // The plain app trusts a proxy on the loopback (an https front in production, none in the demo).
  ({ app, db: database, dir: dataDir } = await open({ TRUST_PROXY: 'loopback' }));
  ({ app: httpsApp, db: httpsDatabase, dir: httpsDataDir } = await open({ PUBLIC_URL: 'https://flotte.exemple.fr' }));
  for (const db of [database, httpsDatabase]) {
    const ids = await withSystem(db.db, async (tx) => {
      const environment = await createEnvironment(tx, { title: 'Cabinet Jetons' });
      const organization = await createOrganization(tx, { title: 'Transports Jetons', environmentUuid: environment.uuid });
      const user = await createUser(tx, { email: 'jetons@exemple.fr' });
      const other = await createUser(tx, { email: 'autre-jetons@exemple.fr' });
      await linkUser(tx, organization.uuid, user.uuid);
      await linkUser(tx, organization.uuid, other.uuid);
      return { user: user.uuid, other: other.uuid };
    });
    if (db === database) ({ user: userUuid, other: otherUserUuid } = ids);
  }
});

afterAll(async () => {
  // eslint-disable-next-line no-console -- what the suite tried and what held is its report (issue 20)
  console.log(`[tokens] ${ledger.length} attempts, each held:\n${ledger.join('\n')}`);
  for (const [a, db, dir] of [
    [app, database, dataDir],
    [httpsApp, httpsDatabase, httpsDataDir],
  ] as const) {
    await a?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

type Session = { access: string; cookie: string; sid: string };

function cookieOf(response: LightMyRequestResponse) {
  const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE);
  if (!cookie) throw new Error(`no refresh cookie: ${response.statusCode} ${response.body}`);
  return cookie;
}

function sidOf(access: string): string {
  return JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()).sid;
}

async function login(on = app, email = 'jetons@exemple.fr', ip = '10.20.0.1'): Promise<Session> {
  const response = await on.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email, password: DEFAULT_TEST_PASSWORD } });
  expect(response.statusCode, response.body).toBe(200);
  const access = response.json<{ tokens: { access_token: string } }>().tokens.access_token;
  return { access, cookie: cookieOf(response).value, sid: sidOf(access) };
}

function refresh(cookie: string | undefined, headers: Record<string, string> = CSRF, on = app) {
  return on.inject({ method: 'POST', url: '/api/auth/refresh-token', headers, cookies: cookie === undefined ? {} : { [REFRESH_COOKIE]: cookie } });
}

function logout(cookie: string, headers: Record<string, string> = CSRF) {
  return app.inject({ method: 'POST', url: '/api/auth/logout', headers, cookies: { [REFRESH_COOKIE]: cookie } });
}

function me(access: string, options: Partial<InjectOptions> = {}) {
  return app.inject({ method: 'GET', url: '/api/auth/me', ...options, headers: { authorization: `Bearer ${access}`, ...options.headers } });
}

/** A 401 in the envelope, with the message a refused token gets. */
function expectRefused(response: LightMyRequestResponse, message: string, said: string) {
  expect(response.statusCode, `${said}: ${response.body}`).toBe(401);
  expect(response.json(), said).toEqual({ statusCode: 401, error: 'Unauthorized', message });
}

// ---------------------------------------------------------------------------------------------
// Access tokens
// ---------------------------------------------------------------------------------------------

const derivedKey = (secret: string): KeyObject => createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'flotteassur', 'access-token', 32)));
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const seconds = () => Math.floor(clock / 1000);

/** Claims a real token of the live session has; each case changes one thing. */
function claims(session: Session): Record<string, unknown> {
  return { sub: userUuid, sid: session.sid, iss: ISSUER, aud: AUDIENCE, iat: seconds(), exp: seconds() + ACCESS_TOKEN_TTL_SECONDS };
}

function signed(payload: Record<string, unknown>, key: KeyObject | Uint8Array = derivedKey(SECRET), alg = 'HS256') {
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

function without(payload: Record<string, unknown>, claim: string) {
  const { [claim]: _removed, ...rest } = payload;
  return rest;
}

describe('access tokens: every forgery answers 401', () => {
  let session: Session;
  beforeAll(async () => {
    clock = Date.now();
    session = await login();
  });

  it('accepts the harness’s own token (the control: each refusal below is due to the one thing changed)', async () => {
    const response = await me(await signed(claims(session)));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ uuid: string }>().uuid).toBe(userUuid);
    expect((await me(session.access)).statusCode).toBe(200);
    held('control: a token signed with the derived key, every claim right', '200');
  });

  const forgeries: [string, (session: Session) => Promise<string>][] = [
    ['alg none, no signature', async (s) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims(s))}.`],
    ['alg NONE, the real signature kept', async (s) => `${b64({ alg: 'NONE', typ: 'JWT' })}.${b64(claims(s))}.${(await signed(claims(s))).split('.')[2]}`],
    ['alg None', async (s) => `${b64({ alg: 'None' })}.${b64(claims(s))}.`],
    ['signature stripped from a real token', async (s) => `${s.access.split('.').slice(0, 2).join('.')}.`],
    ['a real token, its payload changed to another user (signature kept)', async (s) => {
      const [header, , signature] = s.access.split('.');
      return `${header}.${b64({ ...claims(s), sub: otherUserUuid })}.${signature}`;
    }],
    ['signed with another APP_SECRET (derived the same way)', async (s) => signed(claims(s), derivedKey('another-secret-0123456789-0123456789-xyz'))],
    ['signed with the raw APP_SECRET, not the derived key', async (s) => signed(claims(s), new TextEncoder().encode(SECRET))],
    ['HS512 with the right key', async (s) => signed(claims(s), derivedKey(SECRET), 'HS512')],
    ['expired a second ago', async (s) => signed({ ...claims(s), iat: seconds() - ACCESS_TOKEN_TTL_SECONDS, exp: seconds() - 1 })],
    ['not yet valid (nbf in a minute)', async (s) => signed({ ...claims(s), nbf: seconds() + 60 })],
    ['wrong issuer', async (s) => signed({ ...claims(s), iss: 'ailleurs' })],
    ['wrong audience', async (s) => signed({ ...claims(s), aud: 'autre-app' })],
    ['audiences that leave ours out', async (s) => signed({ ...claims(s), aud: ['autre-app', 'flotteassur-admin'] })],
    ['no issuer', async (s) => signed(without(claims(s), 'iss'))],
    ['no audience', async (s) => signed(without(claims(s), 'aud'))],
    ['no expiry', async (s) => signed(without(claims(s), 'exp'))],
    ['no session (sid)', async (s) => signed(without(claims(s), 'sid'))],
    ['a session id that is not a uuid', async (s) => signed({ ...claims(s), sid: `${s.sid}' or 1=1 --` })],
    ['a subject that is not a uuid', async (s) => signed({ ...claims(s), sub: 'admin' })],
    ['the live session’s id under another user', async (s) => signed({ ...claims(s), sub: otherUserUuid })],
    ['the refresh token (cookie value) as a bearer token', async (s) => s.cookie],
    ['garbage', async () => 'pas.un.jeton'],
  ];

  it.each(forgeries)('%s → 401', async (tried, forge) => {
    const response = await me(await forge(session));
    expectRefused(response, INVALID_TOKEN, tried);
    held(`access token: ${tried}`, '401');
  });

  it('refuses a real token once the clock is past its expiry, though it was accepted (and cached) before', async () => {
    const own = await login(app, 'jetons@exemple.fr', '10.20.0.2');
    expect((await me(own.access)).statusCode).toBe(200);
    clock += ACCESS_TOKEN_TTL_SECONDS * 1000 - 1000;
    expect((await me(own.access)).statusCode).toBe(200);
    clock += 2000;
    expectRefused(await me(own.access), INVALID_TOKEN, 'expired real token');
    clock = Date.now();
    held('access token: a real one, 1 s before and 1 s after its 15 minutes', '200, then 401');
  });

  it('refuses an access token as the refresh cookie, and keeps the session', async () => {
    const own = await login(app, 'jetons@exemple.fr', '10.20.0.3');
    expectRefused(await refresh(own.access), SESSION_EXPIRED, 'access token as refresh cookie');
    expect((await refresh(own.cookie)).statusCode).toBe(200);
    held('refresh: the access token as the refresh cookie', '401, the session lives on');
  });
});

// ---------------------------------------------------------------------------------------------
// Refresh rotation
// ---------------------------------------------------------------------------------------------

describe('refresh tokens: rotation, reuse, races', () => {
  it('rotates: each refresh gives a new cookie and a new access token of the same session', async () => {
    clock = Date.now();
    const first = await login(app, 'jetons@exemple.fr', '10.21.0.1');
    const response = await refresh(first.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const second = cookieOf(response).value;
    const access = response.json<{ tokens: { access_token: string } }>().tokens.access_token;
    expect(second).not.toBe(first.cookie);
    expect(sidOf(access)).toBe(first.sid);
    expect((await me(access)).statusCode).toBe(200);
    held('refresh: rotation', 'new cookie, same session, working access token');
  });

  it('a reused refresh token revokes its whole family: the newer cookie and every access token of it answer 401', async () => {
    const first = await login(app, 'jetons@exemple.fr', '10.21.0.2');
    const rotated = await refresh(first.cookie);
    const second = cookieOf(rotated).value;
    const access = rotated.json<{ tokens: { access_token: string } }>().tokens.access_token;
    const elsewhere = await login(app, 'jetons@exemple.fr', '10.21.0.3');

    const replay = await refresh(first.cookie);
    expectRefused(replay, SESSION_EXPIRED, 'replay');
    expect(cookieOf(replay).value).toBe('');
    expectRefused(await refresh(second), SESSION_EXPIRED, 'newer cookie of the revoked family');
    expectRefused(await me(access), INVALID_TOKEN, 'access token of the revoked family');
    expectRefused(await me(first.access), INVALID_TOKEN, 'first access token of the revoked family');
    const family = await withSystem(database.db, (tx) => tx.select({ revokedAt: refreshTokens.revokedAt }).from(refreshTokens).where(eq(refreshTokens.family, first.sid)));
    expect(family.length).toBe(2);
    expect(family.every((row) => row.revokedAt !== null)).toBe(true);
    // Another session of the same user is not touched.
    expect((await me(elsewhere.access)).statusCode).toBe(200);
    expect((await refresh(elsewhere.cookie)).statusCode).toBe(200);
    held('refresh: a rotated token shown again', '401; its family revoked (2 tokens), other session live');
  });

  it('two refreshes of one token at once leave one live chain: the same successor, which works; the old token is then a reuse', async () => {
    const first = await login(app, 'jetons@exemple.fr', '10.21.0.4');
    const answers = await Promise.all([refresh(first.cookie), refresh(first.cookie)]);
    expect(answers.map((r) => r.statusCode), answers.map((r) => r.body).join('\n')).toEqual([200, 200]);
    const successors = new Set(answers.map((r) => cookieOf(r).value));
    expect(successors.size).toBe(1);
    const [successor] = [...successors];
    const live = await withSystem(database.db, (tx) => tx.select().from(refreshTokens).where(eq(refreshTokens.family, first.sid)));
    expect(live.filter((row) => row.usedAt === null && row.revokedAt === null)).toHaveLength(1);
    for (const answer of answers) expect((await me(answer.json<{ tokens: { access_token: string } }>().tokens.access_token)).statusCode).toBe(200);
    const next = await refresh(successor);
    expect(next.statusCode, next.body).toBe(200);
    // Afterwards, the first token is a replay like any other.
    expectRefused(await refresh(first.cookie), SESSION_EXPIRED, 'replay after the race');
    expectRefused(await refresh(cookieOf(next).value), SESSION_EXPIRED, 'chain after the replay');
    held('refresh: the same token twice at once', 'both 200 with one successor; one unused token in the family');
  });

  it('a refresh racing a logout cannot revive the session', async () => {
    const first = await login(app, 'jetons@exemple.fr', '10.21.0.5');
    const [rotated, out] = await Promise.all([refresh(first.cookie), logout(first.cookie)]);
    expect(out.statusCode).toBe(204);
    if (rotated.statusCode === 200) {
      expectRefused(await refresh(cookieOf(rotated).value), SESSION_EXPIRED, 'successor of a logged-out session');
      expectRefused(await me(rotated.json<{ tokens: { access_token: string } }>().tokens.access_token), INVALID_TOKEN, 'access of a logged-out session');
    } else expect(rotated.statusCode).toBe(401);
    held('refresh and logout at once', `refresh ${rotated.statusCode}; nothing of the session works after`);
  });

  it('refuses a missing, empty or unknown cookie', async () => {
    expectRefused(await refresh(undefined), SESSION_EXPIRED, 'no cookie');
    expectRefused(await refresh(''), SESSION_EXPIRED, 'empty cookie');
    expectRefused(await refresh('x'.repeat(43)), SESSION_EXPIRED, 'unknown cookie');
    held('refresh: no cookie, an empty one, an unknown one', '401 each');
  });
});

// ---------------------------------------------------------------------------------------------
// Lifetimes, on the injected clock
// ---------------------------------------------------------------------------------------------

describe('session lifetimes (the app’s clock moved by the test)', () => {
  it(`idle: a refresh token unused for ${REFRESH_TOKEN_TTL_MS / DAY} days is refused and its family revoked; used a minute before, it works`, async () => {
    clock = Date.now();
    const session = await login(app, 'jetons@exemple.fr', '10.22.0.1');
    clock += REFRESH_TOKEN_TTL_MS - MINUTE;
    const kept = await refresh(session.cookie);
    expect(kept.statusCode, kept.body).toBe(200);
    const next = cookieOf(kept).value;
    const access = kept.json<{ tokens: { access_token: string } }>().tokens.access_token;
    clock += REFRESH_TOKEN_TTL_MS + MINUTE;
    expectRefused(await refresh(next), SESSION_EXPIRED, 'idle past its lifetime');
    // The family is revoked: going back in time does not bring it back.
    clock -= REFRESH_TOKEN_TTL_MS + MINUTE;
    expectRefused(await me(access), INVALID_TOKEN, 'access token of the idle-expired session');
    clock = Date.now();
    held(`idle lifetime: refresh after ${REFRESH_TOKEN_TTL_MS / DAY} d − 1 min, then after ${REFRESH_TOKEN_TTL_MS / DAY} d + 1 min`, '200, then 401 and family revoked');
  });

  it('the sessions of /account follow the same clock: one idle past its lifetime is neither listed nor ended again (404)', async () => {
    clock = Date.now();
    const idle = await login(app, 'jetons@exemple.fr', '10.22.0.3');
    clock += REFRESH_TOKEN_TTL_MS + MINUTE;
    const current = await login(app, 'jetons@exemple.fr', '10.22.0.4');
    const listed = await app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { authorization: `Bearer ${current.access}` } });
    expect(listed.statusCode, listed.body).toBe(200);
    const uuids = listed.json<{ data: { uuid: string }[] }>().data.map((session) => session.uuid);
    expect(uuids).toContain(current.sid);
    expect(uuids).not.toContain(idle.sid);
    const ended = await app.inject({ method: 'DELETE', url: `/api/auth/sessions/${idle.sid}`, headers: { authorization: `Bearer ${current.access}` } });
    expect(ended.statusCode, ended.body).toBe(404);
    clock = Date.now();
    held('/account sessions on the app clock: an idle-expired session listed? ended again?', 'not listed, 404');
  });

  it(`absolute: refreshed every 29 days, a session ends ${SESSION_MAX_AGE_MS / DAY} days after its login, its last access token with it`, async () => {
    clock = Date.now();
    const start = clock;
    const session = await login(app, 'jetons@exemple.fr', '10.22.0.2');
    let cookie = session.cookie;
    const steps: number[] = [];
    while (clock + 29 * DAY < start + SESSION_MAX_AGE_MS - 5 * MINUTE) {
      clock += 29 * DAY;
      const response = await refresh(cookie);
      expect(response.statusCode, `day ${(clock - start) / DAY}: ${response.body}`).toBe(200);
      cookie = cookieOf(response).value;
      expect((await me(response.json<{ tokens: { access_token: string } }>().tokens.access_token)).statusCode).toBe(200);
      steps.push(response.statusCode);
    }
    // Five minutes before the end: one more refresh, whose tokens cannot outlive the session.
    clock = start + SESSION_MAX_AGE_MS - 5 * MINUTE;
    const last = await refresh(cookie);
    expect(last.statusCode, last.body).toBe(200);
    const lastCookie = cookieOf(last);
    expect(lastCookie.expires?.getTime()).toBeLessThanOrEqual(start + SESSION_MAX_AGE_MS + 1000);
    const access = last.json<{ tokens: { access_token: string } }>().tokens.access_token;
    const exp = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()).exp as number;
    expect(exp * 1000).toBeLessThanOrEqual(start + SESSION_MAX_AGE_MS + 1000);
    expect((await me(access)).statusCode).toBe(200);
    expect(session.access).not.toBe(access);
    clock = start + SESSION_MAX_AGE_MS + 2000;
    expectRefused(await me(access), INVALID_TOKEN, 'access token past the session’s end');
    expectRefused(await refresh(lastCookie.value), SESSION_EXPIRED, 'refresh past the session’s end');
    clock = Date.now();
    held(
      `absolute lifetime: ${steps.length + 1} refreshes over ${SESSION_MAX_AGE_MS / DAY} days, then 2 s past the end`,
      'each 200; then the access token and the refresh 401',
    );
  });

  it(`absolute: a session opened over ${SESSION_MAX_AGE_MS / DAY} days ago (before the lifetime was counted) is refused at its next refresh, its family revoked`, async () => {
    clock = Date.now();
    const session = await login(app, 'jetons@exemple.fr', '10.22.0.3');
    // Its first token written 91 days ago, as a session opened before this lifetime existed; its own expiry still ahead.
    await withSystem(database.db, (tx) => tx.update(refreshTokens).set({ createdAt: new Date(clock - SESSION_MAX_AGE_MS - DAY) }).where(eq(refreshTokens.family, session.sid)));
    expectRefused(await refresh(session.cookie), SESSION_EXPIRED, 'refresh of a session past its absolute lifetime');
    expectRefused(await me(session.access), INVALID_TOKEN, 'access token of that session');
    held(`absolute lifetime: a session opened ${SESSION_MAX_AGE_MS / DAY + 1} days ago, its token still unexpired`, '401, family revoked');
  });
});

// ---------------------------------------------------------------------------------------------
// The cookie and cross-site calls
// ---------------------------------------------------------------------------------------------

/** The refresh cookie's Set-Cookie line of an answer. */
function setCookieLine(response: LightMyRequestResponse): string {
  const lines = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const line = lines.find((l) => l.startsWith(`${REFRESH_COOKIE}=`));
  if (!line) throw new Error(`no ${REFRESH_COOKIE} in ${JSON.stringify(lines)}`);
  return line;
}

function attributes(line: string) {
  return line
    .split(';')
    .slice(1)
    .map((part) => part.trim().split('=')[0]!.toLowerCase());
}

describe('the refresh cookie', () => {
  it('over http: HttpOnly, SameSite=Strict, Path=/api/auth, no Domain, an expiry, not Secure (the demo on localhost)', async () => {
    clock = Date.now();
    const response = await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.23.0.1', payload: { email: 'jetons@exemple.fr', password: DEFAULT_TEST_PASSWORD } });
    const line = setCookieLine(response);
    expect(line).toMatch(/; HttpOnly(;|$)/);
    expect(line).toMatch(/; SameSite=Strict(;|$)/);
    expect(line).toMatch(/; Path=\/api\/auth(;|$)/);
    expect(line).toMatch(/; Expires=/);
    expect(attributes(line)).not.toContain('domain');
    expect(attributes(line)).not.toContain('secure');
    const rotated = setCookieLine(await refresh(cookieOf(response).value));
    expect(attributes(rotated).sort()).toEqual(attributes(line).sort());
    held('cookie over http (login, refresh)', line.replace(/=[^;]+/, '=…').replace(/Expires=[^;]+/, 'Expires=…'));
  });

  it('behind HTTPS: Secure too, whether PUBLIC_URL says https or a trusted proxy does', async () => {
    const viaPublicUrl = await httpsApp.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.23.0.2', payload: { email: 'jetons@exemple.fr', password: DEFAULT_TEST_PASSWORD } });
    const line = setCookieLine(viaPublicUrl);
    expect(attributes(line)).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite', 'path', 'expires']));
    expect(line).toMatch(/; SameSite=Strict(;|$)/);
    expect(line).toMatch(/; Path=\/api\/auth(;|$)/);
    expect(attributes(line)).not.toContain('domain');
    const rotated = await refresh(cookieOf(viaPublicUrl).value, { ...CSRF, origin: 'https://flotte.exemple.fr', 'sec-fetch-site': 'same-origin' }, httpsApp);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(attributes(setCookieLine(rotated))).toContain('secure');
    // Without PUBLIC_URL: https as the trusted proxy says, not as any peer says.
    const viaProxy = (remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.23.0.3' },
        payload: { email: 'jetons@exemple.fr', password: DEFAULT_TEST_PASSWORD },
      });
    const trusted = setCookieLine(await viaProxy('127.0.0.1'));
    expect(attributes(trusted)).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite', 'path', 'expires']));
    expect(attributes(setCookieLine(await viaProxy('10.23.0.4')))).not.toContain('secure');
    held('cookie behind https (PUBLIC_URL https; a trusted proxy; an untrusted peer)', 'Secure, Secure, not Secure; HttpOnly; SameSite=Strict; Path=/api/auth');
  });

  it('logout clears it on the same path', async () => {
    const session = await login(app, 'jetons@exemple.fr', '10.23.0.4');
    const response = await logout(session.cookie);
    expect(response.statusCode).toBe(204);
    const line = setCookieLine(response);
    expect(line).toMatch(new RegExp(`^${REFRESH_COOKIE}=;`));
    expect(line).toMatch(/; Path=\/api\/auth(;|$)/);
    expect(line).toMatch(/Expires=Thu, 01 Jan 1970/);
    held('cookie after logout', 'emptied, expired, same path');
  });
});

describe('cross-site calls of refresh and logout: 403, and nothing changes', () => {
  const CROSS_SITE: [string, Record<string, string>][] = [
    ['a foreign Origin', { ...CSRF, origin: 'https://pirate.example' }],
    ['a sibling subdomain’s Origin', { ...CSRF, origin: 'https://evil.flotte.exemple.fr' }],
    ['Origin: null (a sandboxed frame)', { ...CSRF, origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { ...CSRF, 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { ...CSRF, 'sec-fetch-site': 'same-site' }],
    ['Sec-Fetch-Site: cross-site with our own Origin', { ...CSRF, origin: 'http://localhost:80', 'sec-fetch-site': 'cross-site' }],
    ['no x-requested-with header (a cross-site form)', {}],
    ['x-requested-with of another value', { [CSRF_HEADER]: 'XMLHttpRequest' }],
  ];

  it.each(CROSS_SITE)('refresh with %s → 403; the cookie still works', async (tried, headers) => {
    clock = Date.now();
    const session = await login(app, 'jetons@exemple.fr', '10.24.0.1');
    const response = await refresh(session.cookie, headers);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(/^Requête refusée/) });
    expect(response.headers['set-cookie']).toBeUndefined();
    expect((await refresh(session.cookie)).statusCode).toBe(200);
    held(`refresh: ${tried}`, '403, token not spent');
  });

  it.each(CROSS_SITE)('logout with %s → 403; the session lives on', async (tried, headers) => {
    const session = await login(app, 'jetons@exemple.fr', '10.24.0.2');
    const response = await logout(session.cookie, headers);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect((await me(session.access)).statusCode).toBe(200);
    expect((await refresh(session.cookie)).statusCode).toBe(200);
    held(`logout: ${tried}`, '403, session live');
  });

  it('accepts our own calls: same-origin fetch metadata, our Origin, the public URL’s origin', async () => {
    const session = await login(app, 'jetons@exemple.fr', '10.24.0.3');
    const rotated = await refresh(session.cookie, { ...CSRF, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const secure = await login(httpsApp, 'jetons@exemple.fr', '10.24.0.4');
    const viaPublic = await refresh(secure.cookie, { ...CSRF, origin: 'https://flotte.exemple.fr' }, httpsApp);
    expect(viaPublic.statusCode, viaPublic.body).toBe(200);
    const out = await logout(cookieOf(rotated).value, { ...CSRF, 'sec-fetch-site': 'same-origin' });
    expect(out.statusCode).toBe(204);
    held('refresh and logout from our own origin', '200, 204');
  });

  it('refuses a password change from another site too (it sets the cookie of a new session); the password stays', async () => {
    const session = await login(app, 'jetons@exemple.fr', '10.24.0.6');
    for (const [tried, headers] of CROSS_SITE) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/password',
        remoteAddress: '10.24.0.6',
        headers: { ...headers, authorization: `Bearer ${session.access}` },
        payload: { currentPassword: DEFAULT_TEST_PASSWORD, newPassword: 'Un-nouveau-mot-de-passe-1' },
      });
      expect(response.statusCode, `${tried}: ${response.body}`).toBe(403);
      expect(response.headers['set-cookie'], tried).toBeUndefined();
    }
    expect((await me(session.access)).statusCode).toBe(200);
    await login(app, 'jetons@exemple.fr', '10.24.0.6');
    held(`password change: the ${CROSS_SITE.length} cross-site variants above`, '403 each, password and session unchanged');
  });

  it('refuses a login from another site too (it would set the cookie)', async () => {
    for (const headers of [{ origin: 'https://pirate.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const response = await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.24.0.5', headers, payload: { email: 'jetons@exemple.fr', password: DEFAULT_TEST_PASSWORD } });
      expect(response.statusCode, response.body).toBe(403);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    held('login: a foreign Origin; Sec-Fetch-Site: cross-site', '403, no cookie');
  });
});

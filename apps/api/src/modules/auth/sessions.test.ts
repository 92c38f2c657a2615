import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../../db/schema/users.js';
import { createUser } from '../../seed/factories.js';
import { createTestApp, DEFAULT_TEST_PASSWORD, type TestContext } from '../../../test/test-app.js';
import { REFRESH_COOKIE } from './auth.routes.js';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const CSRF = { [CSRF_HEADER]: CSRF_HEADER_VALUE };

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ip = 0;
type Session = { access: string; cookie: string };
async function open(email: string, userAgent: string): Promise<Session> {
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEFAULT_TEST_PASSWORD }, headers: { 'user-agent': userAgent }, remoteAddress: `10.7.0.${++ip}` });
  expect(response.statusCode, response.body).toBe(200);
  return { access: response.json().tokens.access_token, cookie: cookieOf(response)!.value };
}
const cookieOf = (response: LightMyRequestResponse) => response.cookies.find((c) => c.name === REFRESH_COOKIE);
const list = (access: string) => t.as(access, { method: 'GET', url: '/api/auth/sessions' });
const me = (access: string) => t.as(access, { method: 'GET', url: '/api/auth/me' });
const refresh = (cookie: string, userAgent = 'curl/8') =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { ...CSRF, 'user-agent': userAgent }, cookies: { [REFRESH_COOKIE]: cookie } });
const user = (email: string) => t.seed((tx) => createUser(tx, { email }));

describe('the sessions of /account (decision 036)', () => {
  it('lists the live sessions with their device, opening and last use, this one marked; a refresh keeps the device', async () => {
    const own = await user('sessions.liste@exemple.fr');
    const windows = await open(own.email, CHROME_WINDOWS);
    const iphone = await open(own.email, SAFARI_IPHONE);
    // A refresh from the iPhone: its last use moves, its device stays (the refresh's own header is not taken).
    const refreshed = await refresh(iphone.cookie);
    expect(refreshed.statusCode).toBe(200);

    const response = await list(windows.access);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { data } = response.json<{ data: { uuid: string; device: string; createdAt: string; lastUsedAt: string; current: boolean }[] }>();
    expect(data.map(({ device, current }) => ({ device, current }))).toEqual([
      { device: 'Safari sur iPhone', current: false },
      { device: 'Chrome sur Windows', current: true },
    ]);
    expect(Date.parse(data[0]!.lastUsedAt)).toBeGreaterThan(Date.parse(data[0]!.createdAt));
    expect(data[1]!.lastUsedAt).toBe(data[1]!.createdAt);
    // The raw header is kept for the label only, cut to 512 characters.
    const rows = await t.seed((tx) => tx.select({ userAgent: refreshTokens.userAgent }).from(refreshTokens).where(eq(refreshTokens.userUuid, own.uuid)));
    expect(new Set(rows.map((row) => row.userAgent))).toEqual(new Set([CHROME_WINDOWS, SAFARI_IPHONE]));
  });

  it('ends one session: its access token answers 401 at once, its refresh too; the others live on', async () => {
    const own = await user('sessions.une@exemple.fr');
    const here = await open(own.email, CHROME_WINDOWS);
    const there = await open(own.email, SAFARI_IPHONE);
    const theirs = (await list(here.access)).json().data.find((s: { current: boolean }) => !s.current);
    const ended = await t.as(here.access, { method: 'DELETE', url: `/api/auth/sessions/${theirs.uuid}` });
    expect(ended.statusCode).toBe(204);
    expect(cookieOf(ended)).toBeUndefined();
    expect((await me(there.access)).statusCode).toBe(401);
    expect((await refresh(there.cookie)).statusCode).toBe(401);
    expect((await me(here.access)).statusCode).toBe(200);
    expect((await list(here.access)).json().data).toHaveLength(1);
    // Already ended: 404.
    expect((await t.as(here.access, { method: 'DELETE', url: `/api/auth/sessions/${theirs.uuid}` })).statusCode).toBe(404);
  });

  it('never shows nor ends another user’s session (404, nothing revoked); a malformed id is a French 400', async () => {
    const mine = await user('sessions.moi@exemple.fr');
    const other = await user('sessions.autre@exemple.fr');
    const me1 = await open(mine.email, CHROME_WINDOWS);
    const theirs = await open(other.email, SAFARI_IPHONE);
    const theirUuid = (await list(theirs.access)).json().data[0].uuid as string;
    expect((await list(me1.access)).json().data.map((s: { uuid: string }) => s.uuid)).not.toContain(theirUuid);
    const refused = await t.as(me1.access, { method: 'DELETE', url: `/api/auth/sessions/${theirUuid}` });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Session introuvable ou déjà terminée');
    expect((await me(theirs.access)).statusCode).toBe(200);
    const revoked = await t.seed((tx) => tx.select({ revokedAt: refreshTokens.revokedAt }).from(refreshTokens).where(eq(refreshTokens.userUuid, other.uuid)));
    expect(revoked.every((row) => row.revokedAt === null)).toBe(true);
    const malformed = await t.as(me1.access, { method: 'DELETE', url: '/api/auth/sessions/pas-un-uuid' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details[0].message).toBe('Identifiant invalide');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/sessions' })).statusCode).toBe(401);
  });

  it('« Se déconnecter partout »: every session ends, this one included, and the cookie is cleared', async () => {
    const own = await user('sessions.partout@exemple.fr');
    const here = await open(own.email, CHROME_WINDOWS);
    const there = await open(own.email, SAFARI_IPHONE);
    const bystander = await open((await user('sessions.voisin@exemple.fr')).email, CHROME_WINDOWS);
    const all = await t.as(here.access, { method: 'DELETE', url: '/api/auth/sessions' });
    expect(all.statusCode).toBe(204);
    expect(cookieOf(all)).toMatchObject({ value: '', path: '/api/auth' });
    for (const session of [here, there]) {
      expect((await me(session.access)).statusCode).toBe(401);
      expect((await refresh(session.cookie)).statusCode).toBe(401);
    }
    expect((await me(bystander.access)).statusCode).toBe(200);
  });

  it('ending this session through the list clears its cookie too', async () => {
    const own = await user('sessions.celle-ci@exemple.fr');
    const here = await open(own.email, CHROME_WINDOWS);
    const mine = (await list(here.access)).json().data[0].uuid as string;
    const ended = await t.as(here.access, { method: 'DELETE', url: `/api/auth/sessions/${mine}` });
    expect(ended.statusCode).toBe(204);
    expect(cookieOf(ended)).toMatchObject({ value: '' });
    expect((await me(here.access)).statusCode).toBe(401);
  });

  it('a password change ends the other sessions; this device goes on in a session that keeps its label', async () => {
    const own = await user('sessions.mdp@exemple.fr');
    const here = await open(own.email, CHROME_WINDOWS);
    const there = await open(own.email, SAFARI_IPHONE);
    const changed = await t.as(here.access, {
      method: 'POST',
      url: '/api/auth/password',
      headers: { ...CSRF, 'user-agent': CHROME_WINDOWS },
      payload: { currentPassword: DEFAULT_TEST_PASSWORD, newPassword: 'Une toute autre phrase 2026' },
      remoteAddress: '10.7.9.1',
    });
    expect(changed.statusCode).toBe(200);
    const renewed = changed.json().tokens.access_token as string;
    expect((await me(there.access)).statusCode).toBe(401);
    const { data } = (await list(renewed)).json();
    expect(data).toEqual([expect.objectContaining({ device: 'Chrome sur Windows', current: true })]);
  });
});

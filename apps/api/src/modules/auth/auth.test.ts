import { hkdfSync, createSecretKey } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshTokens } from '../../db/schema/users.js';
import { createEnvironment, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { hashRefreshToken } from '../../lib/tokens.js';
import { REFRESH_COOKIE } from './auth.routes.js';

const SECRET = 'test-secret-0123456789-0123456789-abcdef';
const CSRF = { 'x-requested-with': 'flotteassur' };
let t: TestContext;
let user: { uuid: string; email: string };
let org: { uuid: string };

beforeAll(async () => {
  t = await createTestApp({ APP_SECRET: SECRET });
  ({ user, org } = await t.seed(async (tx) => {
    const env = await createEnvironment(tx, { title: 'Cabinet Test' });
    const org = await createOrganization(tx, { title: 'Transports Test', environmentUuid: env.uuid });
    const user = await createUser(tx, { email: 'claire@exemple.fr', firstName: 'Claire', lastName: 'Petit', phone: '+33611223344' });
    await linkUser(tx, org.uuid, user.uuid);
    await createUser(tx, { email: 'nolink@exemple.fr' });
    return { user, org };
  }));
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

function login(payload: object, options: { ip?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload,
    remoteAddress: options.ip ?? '10.0.0.1',
    headers: options.headers,
  });
}

/** The session an access token names (its `sid` claim). */
function sessionOf(accessToken: string): string {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid;
}

function refreshCookie(response: { cookies: { name: string; value: string }[] }) {
  const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE);
  if (!cookie) throw new Error('no refresh cookie');
  return cookie;
}

function refresh(token: string | undefined, headers: Record<string, string> = CSRF) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/refresh-token',
    headers,
    cookies: token ? { [REFRESH_COOKIE]: token } : {},
  });
}

describe('POST /api/auth/login', () => {
  it('returns an access token, the user, and a strict HttpOnly refresh cookie limited to /api/auth', async () => {
    const response = await login({ email: 'Claire@Exemple.fr ', password: 'Motdepasse-tests-1' }, { ip: '10.0.1.1' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.tokens.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.user).toMatchObject({
      uuid: user.uuid,
      firstName: 'Claire',
      lastName: 'Petit',
      roles: ['USER'],
      phone: '+33611223344',
      currentOrganizationUser: { organization: { uuid: org.uuid, title: 'Transports Test', environment: { title: 'Cabinet Test' } } },
    });
    expect(response.body).not.toMatch(/passwordHash|password_hash|argon2/);
    const cookie = refreshCookie(response);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(cookie.value).not.toBe(body.tokens.access_token);
    expect((cookie as { secure?: boolean }).secure).toBeFalsy();
    expect(response.body).not.toContain(cookie.value);
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await login({ email: 'claire@exemple.fr', password: 'mauvais' }, { ip: '10.0.2.1' });
    const unknown = await login({ email: 'personne@exemple.fr', password: 'mauvais' }, { ip: '10.0.2.2' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Adresse e-mail ou mot de passe incorrect');
    expect(wrong.cookies).toEqual([]);
  });

  it.each([
    [{}, 'email'],
    [{ email: 'pas-un-email', password: 'x' }, 'email'],
    [{ email: 'claire@exemple.fr' }, 'password'],
    [{ email: 'claire@exemple.fr', password: '' }, 'password'],
  ])('refuses %j with a 400 naming the field', async (payload, path) => {
    const response = await login(payload, { ip: '10.0.3.1' });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe('Bad Request');
    expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(body.message).toMatch(/^Données invalides/);
  });

  it('answers malformed JSON with a French 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/JSON valide/);
  });

  it('refuses a login posted from another site', async () => {
    const response = await login(
      { email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' },
      { ip: '10.0.4.1', headers: { origin: 'https://pirate.example' } },
    );
    expect(response.statusCode).toBe(403);
  });

  it('sets the Secure flag when served over https', async () => {
    const secure = await createTestApp({ APP_SECRET: SECRET, PUBLIC_URL: 'https://flotte.exemple.fr' });
    try {
      await secure.seed((tx) => createUser(tx, { email: 'https@exemple.fr' }));
      const response = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'https@exemple.fr', password: 'Motdepasse-tests-1' },
      });
      expect(response.statusCode).toBe(200);
      expect(refreshCookie(response)).toMatchObject({ secure: true });
    } finally {
      await secure.close();
    }
  });

  // The old rule (10 failures a minute on an account, from anywhere, refused its owner too) is
  // replaced by decision 014: limits per address and per (account, address), a slow-down for the
  // account as a whole, and never a refusal of the right password from an address that has not failed.
  it('refuses an address after 5 failures on one account (429, Retry-After, French), while the owner logs in from elsewhere', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'cible@exemple.fr' }));
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: own.email, password: 'devine' }, { ip: '10.9.1.1' })).statusCode).toBe(401);
    }
    // Even the right password is refused from the attacker's address: it guesses no further.
    const blocked = await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '10.9.1.1' });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900);
    expect(blocked.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Trop de tentatives de connexion depuis cette adresse. Réessayez dans 15 minutes.',
    });
    expect(blocked.cookies).toEqual([]);
    // The owner, from an address that has not failed, gets in at once.
    expect((await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '10.9.1.2' })).statusCode).toBe(200);
    // The attacker's address may still try other accounts (its own limit is higher).
    expect((await login({ email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.9.1.1' })).statusCode).toBe(200);
  });

  it('limits per (account, address): the right password forgives that address, and the limit lifts after 15 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const own = await t.seed((tx) => createUser(tx, { email: 'oublieux@exemple.fr' }));
    for (let i = 0; i < 4; i++) await login({ email: own.email, password: 'presque' }, { ip: '10.9.2.1' });
    // The owner remembers at the fifth try: its failures there are forgiven.
    expect((await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '10.9.2.1' })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: own.email, password: 'encore' }, { ip: '10.9.2.1' })).statusCode).toBe(401);
    }
    expect((await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '10.9.2.1' })).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 15 * 60_000 + 1000);
    expect((await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '10.9.2.1' })).statusCode).toBe(200);
  });

  it('refuses an address after 30 failures on any accounts, not the others', async () => {
    for (let i = 0; i < 30; i++) {
      expect((await login({ email: `inconnu${i}@exemple.fr`, password: 'x' }, { ip: '10.9.3.1' })).statusCode).toBe(401);
    }
    const blocked = await login({ email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.9.3.1' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Trop de tentatives de connexion/);
    expect((await login({ email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.9.3.2' })).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64: changing the end of its address does not reset its limit', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'ipv6@exemple.fr' }));
    for (let i = 1; i <= 5; i++) await login({ email: own.email, password: 'faux' }, { ip: `2001:db8:1:2::${i}` });
    expect((await login({ email: own.email, password: 'faux' }, { ip: '2001:db8:1:2:ffff::9' })).statusCode).toBe(429);
    expect((await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '2001:db8:1:3::1' })).statusCode).toBe(200);
  });

  it('slows an account failed from many addresses down, without ever refusing its owner the right password', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'assiegee@exemple.fr' }));
    // A distributed attack: 12 failures from 4 addresses, under each address's limit.
    for (let i = 0; i < 12; i++) {
      expect((await login({ email: own.email, password: `essai-${i}` }, { ip: `10.9.4.${i % 4}` })).statusCode).toBe(401);
    }
    const started = Date.now();
    const owner = await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '10.9.4.200' });
    expect(owner.statusCode).toBe(200);
    // 250 ms doubled for each failure beyond 10: 1 s before the password is checked.
    const slowed = Date.now() - started;
    expect(slowed).toBeGreaterThanOrEqual(950);
    // Another account is not slowed down: its login takes the same work without the second's wait
    // (compared with the owner's rather than with a fixed time, which a busy machine can exceed).
    const other = Date.now();
    expect((await login({ email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.9.4.201' })).statusCode).toBe(200);
    expect(Date.now() - other).toBeLessThan(slowed - 500);
  });
});

describe('POST /api/auth/refresh-token', () => {
  async function freshSession(ip: string, email = 'claire@exemple.fr') {
    const response = await login({ email, password: 'Motdepasse-tests-1' }, { ip });
    expect(response.statusCode).toBe(200);
    return refreshCookie(response).value;
  }

  it('returns a new access token and rotates the cookie', async () => {
    const first = await freshSession('10.1.0.1');
    const response = await refresh(first);
    expect(response.statusCode).toBe(200);
    const token = response.json().tokens.access_token;
    expect(Object.keys(response.json())).toEqual(['tokens']);
    const rotated = refreshCookie(response);
    expect(rotated.value).not.toBe(first);
    expect(rotated).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    const me = await t.as(token, { method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json().uuid).toBe(user.uuid);
  });

  it('treats a reused token as theft: 401 and the whole family is revoked', async () => {
    const first = await freshSession('10.1.0.2');
    const second = refreshCookie(await refresh(first)).value;
    const reuse = await refresh(first);
    expect(reuse.statusCode).toBe(401);
    // The legitimate, newer token of the same family no longer works either.
    expect((await refresh(second)).statusCode).toBe(401);
  });

  it('refuses an expired token and revokes its family', async () => {
    // A user of its own: expiring Claire's tokens would expire the other tests' sessions too.
    const own = await t.seed((tx) => createUser(tx, { email: 'expiree@exemple.fr' }));
    const token = await freshSession('10.1.0.3', own.email);
    await t.seed((tx) => tx.update(refreshTokens).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(refreshTokens.userUuid, own.uuid)));
    const response = await refresh(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('Session expirée, veuillez vous reconnecter');
  });

  it('refuses a missing or unknown cookie', async () => {
    expect((await refresh(undefined)).statusCode).toBe(401);
    expect((await refresh('inconnu')).statusCode).toBe(401);
  });

  it('refuses cross-site requests: no custom header, or a foreign Origin', async () => {
    const token = await freshSession('10.1.0.4');
    expect((await refresh(token, {})).statusCode).toBe(403);
    expect((await refresh(token, { ...CSRF, origin: 'https://pirate.example' })).statusCode).toBe(403);
    // Neither attempt consumed the token.
    expect((await refresh(token, { ...CSRF, origin: 'http://localhost:80' })).statusCode).toBe(200);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the family and clears the cookie', async () => {
    const response = await login({ email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.2.0.1' });
    const token = refreshCookie(response).value;
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: CSRF, cookies: { [REFRESH_COOKIE]: token } });
    expect(logout.statusCode).toBe(204);
    const cleared = refreshCookie(logout);
    expect(cleared.value).toBe('');
    expect((await refresh(token)).statusCode).toBe(401);
  });

  it('requires the custom header', async () => {
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(logout.statusCode).toBe(403);
  });
});

describe('an ended session ends its access tokens at once (decision 014)', () => {
  /** A user of its own and a fresh session: access token, refresh cookie. */
  async function session(email: string, ip = '10.4.0.1', password = 'Motdepasse-tests-1') {
    const response = await login({ email, password }, { ip });
    expect(response.statusCode).toBe(200);
    return { access: response.json().tokens.access_token as string, cookie: refreshCookie(response).value };
  }
  const me = (access: string) => t.as(access, { method: 'GET', url: '/api/auth/me' });
  const logout = (cookie: string) => t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: CSRF, cookies: { [REFRESH_COOKIE]: cookie } });
  const changePassword = (access: string, payload: object, headers: Record<string, string> = CSRF, ip = '10.4.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/auth/password', headers: { ...headers, authorization: `Bearer ${access}` }, payload, remoteAddress: ip });

  it('after logout: the access token answers 401 at once, though its context was just cached; other sessions live on', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'deconnexion@exemple.fr' }));
    const [first, second] = [await session(own.email), await session(own.email)];
    expect((await me(first.access)).statusCode).toBe(200);
    expect((await logout(first.cookie)).statusCode).toBe(204);
    const after = await me(first.access);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Session expirée ou jeton invalide');
    expect((await me(second.access)).statusCode).toBe(200);
  });

  it('after a password change: every session of the user ends, the caller gets a new one, the new password works', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'changement@exemple.fr' }));
    const [current, elsewhere] = [await session(own.email), await session(own.email)];
    expect((await me(current.access)).statusCode).toBe(200);
    expect((await me(elsewhere.access)).statusCode).toBe(200);
    const changed = await changePassword(current.access, { currentPassword: 'Motdepasse-tests-1', newPassword: 'Un nouveau mot de passe' });
    expect(changed.statusCode).toBe(200);
    expect(Object.keys(changed.json())).toEqual(['tokens']);
    expect(changed.headers['cache-control']).toBe('no-store');
    const renewed = { access: changed.json().tokens.access_token as string, cookie: refreshCookie(changed).value };
    expect((await me(current.access)).statusCode).toBe(401);
    expect((await me(elsewhere.access)).statusCode).toBe(401);
    expect((await refresh(current.cookie)).statusCode).toBe(401);
    expect((await refresh(elsewhere.cookie)).statusCode).toBe(401);
    expect((await me(renewed.access)).statusCode).toBe(200);
    expect((await refresh(renewed.cookie)).statusCode).toBe(200);
    expect((await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '10.4.0.2' })).statusCode).toBe(401);
    expect((await login({ email: own.email, password: 'Un nouveau mot de passe' }, { ip: '10.4.0.2' })).statusCode).toBe(200);
  });

  it('refuses a password change with a wrong current password (400, French), limited like a login, and changes nothing', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'prudence@exemple.fr' }));
    const { access } = await session(own.email, '10.4.1.1');
    const wrong = await changePassword(access, { currentPassword: 'pas le bon', newPassword: 'Un nouveau mot de passe' }, CSRF, '10.4.1.1');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: 'Mot de passe actuel incorrect', details: [{ path: 'currentPassword', message: 'Mot de passe actuel incorrect' }] });
    // Not a 401: the web app would take it for an expired session.
    expect((await me(access)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await changePassword(access, { currentPassword: `pas le bon ${i}`, newPassword: 'Un nouveau mot de passe' }, CSRF, '10.4.1.1');
    const limited = await changePassword(access, { currentPassword: 'Motdepasse-tests-1', newPassword: 'Un nouveau mot de passe' }, CSRF, '10.4.1.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login({ email: own.email, password: 'Motdepasse-tests-1' }, { ip: '10.4.1.2' })).statusCode).toBe(200);
  });

  it.each([
    [{ currentPassword: 'Motdepasse-tests-1', newPassword: 'court' }, 'newPassword', 'Le nouveau mot de passe doit contenir au moins 12 caractères'],
    [{ currentPassword: 'Motdepasse-tests-1', newPassword: 'Motdepasse-tests-1' }, 'newPassword', "Le nouveau mot de passe doit être différent de l'actuel"],
    [{ newPassword: 'Un nouveau mot de passe' }, 'currentPassword', 'Le mot de passe actuel est obligatoire'],
  ])('refuses the password change %j with a 400 naming the field', async (payload, path, message) => {
    const own = await t.seed((tx) => createUser(tx, { email: `regle-${path}-${message.length}@exemple.fr` }));
    const { access } = await session(own.email, '10.4.2.1');
    const response = await changePassword(access, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message });
    expect((await me(access)).statusCode).toBe(200);
  });

  it('refuses a password change without the custom header, or without a token', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'entete@exemple.fr' }));
    const { access } = await session(own.email, '10.4.3.1');
    const body = { currentPassword: 'Motdepasse-tests-1', newPassword: 'Un nouveau mot de passe' };
    expect((await changePassword(access, body, {})).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/auth/password', headers: CSRF, payload: body });
    expect(anonymous.statusCode).toBe(401);
    expect((await me(access)).statusCode).toBe(200);
  });

  it('after a refresh token is reused (theft): the access tokens of that family answer 401 at once, other sessions live on', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'volee@exemple.fr' }));
    const [stolen, other] = [await session(own.email), await session(own.email)];
    const rotated = await refresh(stolen.cookie);
    const rotatedAccess = rotated.json().tokens.access_token as string;
    expect((await me(stolen.access)).statusCode).toBe(200);
    expect((await me(rotatedAccess)).statusCode).toBe(200);
    // The thief replays the first cookie: the family is revoked, with every access token it issued.
    expect((await refresh(stolen.cookie)).statusCode).toBe(401);
    expect((await me(stolen.access)).statusCode).toBe(401);
    expect((await me(rotatedAccess)).statusCode).toBe(401);
    expect((await refresh(refreshCookie(rotated).value)).statusCode).toBe(401);
    expect((await me(other.access)).statusCode).toBe(200);
  });

  it('keeps a revoked family revoked when its old tokens are cleaned up: a token issued by a refresh racing the logout stays dead', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'course@exemple.fr' }));
    const ended = await session(own.email);
    const family = sessionOf(ended.access);
    expect((await logout(ended.cookie)).statusCode).toBe(204);
    // The revoked tokens are long expired; a refresh that raced the logout left a fresh token.
    await t.seed((tx) => tx.update(refreshTokens).set({ expiresAt: sql`now() - interval '2 days'` }).where(eq(refreshTokens.family, family)));
    await t.seed((tx) => tx.insert(refreshTokens).values({ userUuid: own.uuid, family, tokenHash: hashRefreshToken('jeton-de-la-course'), expiresAt: sql`now() + interval '30 days'` }));
    // Another logout cleans expired tokens up.
    expect((await logout((await session(own.email)).cookie)).statusCode).toBe(204);
    expect((await me(ended.access)).statusCode).toBe(401);
    expect((await refresh('jeton-de-la-course')).statusCode).toBe(401);
  });

  it('keeps a session through its refreshes: each new access token names the same session', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'fidele@exemple.fr' }));
    const first = await session(own.email);
    const rotated = await refresh(first.cookie);
    expect(sessionOf(rotated.json().tokens.access_token)).toBe(sessionOf(first.access));
    expect((await me(first.access)).statusCode).toBe(200);
  });

  it('refuses an access token issued before sessions were checked (no sid); the refresh cookie gives a working one', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'ancien@exemple.fr' }));
    const { cookie } = await session(own.email);
    const key = createSecretKey(Buffer.from(hkdfSync('sha256', SECRET, 'flotteassur', 'access-token', 32)));
    const old = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(own.uuid).setIssuer('flotteassur').setAudience('flotteassur-web').setIssuedAt().setExpirationTime('15m').sign(key);
    expect((await me(old)).statusCode).toBe(401);
    const renewed = await refresh(cookie);
    expect(renewed.statusCode).toBe(200);
    expect((await me(renewed.json().tokens.access_token)).statusCode).toBe(200);
  });

  it("refuses a live session's id carried by another user's token", async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'emprunt@exemple.fr' }));
    const { access } = await session(own.email);
    const key = createSecretKey(Buffer.from(hkdfSync('sha256', SECRET, 'flotteassur', 'access-token', 32)));
    const borrowed = await new SignJWT({ sid: sessionOf(access) }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.uuid).setIssuer('flotteassur').setAudience('flotteassur-web').setIssuedAt().setExpirationTime('5m').sign(key);
    expect((await me(borrowed)).statusCode).toBe(401);
  });
});

describe('GET /api/auth/me and the access token', () => {
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', SECRET, 'flotteassur', 'access-token', 32)));
  /** A live session of Claire's: the forged tokens below are refused for what they are, not for lacking one. */
  let sid: string;
  beforeAll(async () => {
    sid = sessionOf((await login({ email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.3.0.1' })).json().tokens.access_token);
  });
  const sign = (claims: { iss?: string; aud?: string; exp?: number; sub?: string }) =>
    new SignJWT({ sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub ?? user.uuid)
      .setIssuer(claims.iss ?? 'flotteassur')
      .setAudience(claims.aud ?? 'flotteassur-web')
      .setIssuedAt()
      .setExpirationTime(claims.exp ?? '5m')
      .sign(key);

  it('returns the User of SPEC section 3, with the version of the terms it accepted', async () => {
    const response = await t.as(await sign({}), { method: 'GET', url: '/api/auth/me' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(
      ['avatar', 'cguAcceptedVersion', 'currentEnvironmentUser', 'currentOrganizationUser', 'description', 'email', 'firstName', 'lastName', 'onboardingStep', 'phone', 'roles', 'uuid'].sort(),
    );
  });

  it.each([
    ['no header', undefined],
    ['a malformed token', 'Bearer abc.def.ghi'],
    ['another scheme', 'Basic Y2xhaXJlOng='],
  ])('refuses %s', async (_label, authorization) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authorization ? { authorization } : {} });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('refuses a tampered token', async () => {
    const token = await sign({});
    const [header, payload, signature] = token.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    forged.sub = '00000000-0000-4000-8000-000000000000';
    const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    expect((await t.as(tampered, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('refuses an unsigned (alg none) token', async () => {
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.uuid, iss: 'flotteassur', aud: 'flotteassur-web', exp: 9999999999, iat: 1 })).toString('base64url')}.`;
    expect((await t.as(none, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('refuses an expired token, a wrong issuer and a wrong audience', async () => {
    const expired = await sign({ exp: Math.floor(Date.now() / 1000) - 10 });
    expect((await t.as(expired, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await t.as(await sign({ iss: 'ailleurs' }), { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await t.as(await sign({ aud: 'autre-app' }), { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('refuses a token signed with another secret', async () => {
    const otherKey = createSecretKey(Buffer.from(hkdfSync('sha256', 'another-secret-0123456789-0123456789', 'flotteassur', 'access-token', 32)));
    const token = await new SignJWT({ sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.uuid).setIssuer('flotteassur').setAudience('flotteassur-web').setIssuedAt().setExpirationTime('5m').sign(otherKey);
    expect((await t.as(token, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('refuses a valid token whose user no longer exists', async () => {
    const ghost = await sign({ sub: '00000000-0000-4000-8000-000000000000' });
    expect((await t.as(ghost, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });
});

describe('unknown API routes', () => {
  it('answer the JSON error envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nexiste-pas' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route GET /api/nexiste-pas introuvable' });
  });
});

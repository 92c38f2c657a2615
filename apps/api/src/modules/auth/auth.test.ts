import { hkdfSync, createSecretKey } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshTokens } from '../../db/schema/users.js';
import { createEnvironment, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
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

  it('answers 429 with Retry-After after 10 failures a minute from one IP', async () => {
    for (let i = 0; i < 10; i++) {
      const r = await login({ email: `inconnu${i}@exemple.fr`, password: 'x' }, { ip: '10.9.9.9' });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await login({ email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.9.9.9' });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(blocked.json().message).toMatch(/Trop de tentatives/);
    // Another IP is not affected.
    const other = await login({ email: 'claire@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.9.9.10' });
    expect(other.statusCode).toBe(200);
  });

  it('answers 429 after 10 failures a minute on one account, whatever the IP, and lets it in a minute later', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i < 10; i++) {
      const r = await login({ email: 'nolink@exemple.fr', password: 'faux' }, { ip: `10.8.0.${i}` });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await login({ email: 'nolink@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.8.1.1' });
    expect(blocked.statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 61_000);
    const later = await login({ email: 'nolink@exemple.fr', password: 'Motdepasse-tests-1' }, { ip: '10.8.1.1' });
    expect(later.statusCode).toBe(200);
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

describe('GET /api/auth/me and the access token', () => {
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', SECRET, 'flotteassur', 'access-token', 32)));
  const sign = (claims: { iss?: string; aud?: string; exp?: number; sub?: string }) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub ?? user.uuid)
      .setIssuer(claims.iss ?? 'flotteassur')
      .setAudience(claims.aud ?? 'flotteassur-web')
      .setIssuedAt()
      .setExpirationTime(claims.exp ?? '5m')
      .sign(key);

  it('returns the User of SPEC section 3', async () => {
    const response = await t.as(await sign({}), { method: 'GET', url: '/api/auth/me' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(
      ['avatar', 'currentEnvironmentUser', 'currentOrganizationUser', 'description', 'email', 'firstName', 'lastName', 'phone', 'roles', 'uuid'].sort(),
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
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(user.uuid).setIssuer('flotteassur').setAudience('flotteassur-web').setIssuedAt().setExpirationTime('5m').sign(otherKey);
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

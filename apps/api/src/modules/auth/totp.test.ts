import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE, LOGIN_CHALLENGE_EXPIRED_MESSAGE, TOTP_CODE_WRONG_MESSAGE, TOTP_RECOVERY_CODE_WRONG_MESSAGE, TOTP_REQUIRED_MESSAGE } from '@flotte/contract';
import { environments, environmentUsers } from '../../db/schema/environments.js';
import { loginChallenges, refreshTokens, totpRecoveryCodes, trustedDevices, userTotp } from '../../db/schema/users.js';
import { createEnvironment, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { captureLogLines, createTestApp, DEFAULT_TEST_PASSWORD, securityEventsOf, type TestContext } from '../../../test/test-app.js';
import { DEVICE_COOKIE, REFRESH_COOKIE } from './auth.routes.js';

let t: TestContext;
// At info, the production level: the security events of the second step are read from it.
const logs = captureLogLines();

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://flotte.exemple.fr', LOG_LEVEL: 'info' }, {}, logs.stream);
});

/** The security events one answer wrote (by its request id). */
const eventsOf = (response: LightMyRequestResponse) => securityEventsOf(logs.lines, response).map(({ event, reason, userUuid, method }) => ({ event, reason, userUuid, method }));

afterAll(async () => {
  await t.close();
});

let ipCounter = 0;
/** Each test from its own address, so the per-address limit of one test does not reach another. */
const nextIp = () => `10.8.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;

const login = (email: string, options: { ip?: string; device?: string; password?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: options.password ?? DEFAULT_TEST_PASSWORD },
    remoteAddress: options.ip ?? nextIp(),
    ...(options.device ? { cookies: { [DEVICE_COOKIE]: options.device } } : {}),
  });
const secondStep = (payload: object, ip = nextIp()) => t.app.inject({ method: 'POST', url: '/api/auth/login/totp', payload, remoteAddress: ip });
const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, ip = nextIp()) =>
  t.app.inject({ method, url, payload, remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });

/** The code of the key at `steps` periods from now (otplib, as an authenticator app would). */
const codeOf = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
/** Lets the next code of the same period in: only tests that are not about replays use it. */
const forgetLastStep = (userUuid: string) => t.seed((tx) => tx.update(userTotp).set({ lastStep: null }).where(eq(userTotp.userUuid, userUuid)));

const totpRow = (userUuid: string) => t.seed(async (tx) => (await tx.select().from(userTotp).where(eq(userTotp.userUuid, userUuid)))[0] ?? null);
const sessionsOf = (userUuid: string) => t.seed((tx) => tx.select().from(refreshTokens).where(eq(refreshTokens.userUuid, userUuid)));
const recoveryRows = (userUuid: string) => t.seed((tx) => tx.select().from(totpRecoveryCodes).where(eq(totpRecoveryCodes.userUuid, userUuid)));

function expectInvalid(response: LightMyRequestResponse, path: string, message: string) {
  expect(response.statusCode).toBe(400);
  const body = response.json<{ message: string; details?: { path: string; message: string }[] }>();
  expect(body.details ?? []).toContainEqual({ path, message: expect.stringContaining(message) as string });
}

let userCounter = 0;
async function freshUser(roles: ('USER' | 'SUPERADMIN')[] = ['USER']) {
  const email = `totp.${++userCounter}.${Date.now()}@exemple.fr`;
  const user = await t.seed(async (tx) => {
    const org = await createOrganization(tx);
    const created = await createUser(tx, { email, roles });
    await linkUser(tx, org.uuid, created.uuid);
    return created;
  });
  return { uuid: user.uuid, email, token: await t.login(email) };
}

/** A user with TOTP on, through the account page's calls. */
async function withTotp(roles: ('USER' | 'SUPERADMIN')[] = ['USER']) {
  const user = await freshUser(roles);
  const setup = await call(user.token, 'POST', '/api/auth/totp/setup');
  expect(setup.statusCode).toBe(200);
  const secret = setup.json<{ secret: string }>().secret.replace(/\s/g, '');
  const enabled = await call(user.token, 'POST', '/api/auth/totp/enable', { code: await codeOf(secret) });
  expect(enabled.statusCode).toBe(200);
  await forgetLastStep(user.uuid);
  return { ...user, secret, recoveryCodes: enabled.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

async function challengeOf(email: string, ip?: string) {
  const response = await login(email, { ip });
  expect(response.statusCode).toBe(200);
  const body = response.json<{ challenge: string; mode: string; expiresAt: string; tokens?: unknown }>();
  expect(body.tokens).toBeUndefined();
  return body;
}

describe('two-factor sign-in: setup on the account page', () => {
  it('gives a key as a QR code and in text, enables it with a code, and shows ten recovery codes once, stored hashed', async () => {
    const user = await freshUser();
    expect((await call(user.token, 'GET', '/api/auth/totp')).json()).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false });

    const setup = await call(user.token, 'POST', '/api/auth/totp/setup');
    expect(setup.statusCode).toBe(200);
    const { secret: shown, otpauthUrl, qrCodeSvg } = setup.json<{ secret: string; otpauthUrl: string; qrCodeSvg: string }>();
    const secret = shown.replace(/\s/g, '');
    expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/FlotteAssur:/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(otpauthUrl).toContain('issuer=FlotteAssur');
    expect(qrCodeSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Encrypted at rest; not enabled before a code.
    const pending = await totpRow(user.uuid);
    expect(pending!.secret).not.toContain(secret);
    expect(pending!.secret).toMatch(/^v1\./);
    expect(pending!.enabledAt).toBeNull();
    expect((await call(user.token, 'GET', '/api/auth/totp')).json().enabled).toBe(false);
    // A login before the setup ends still gives a session.
    expect((await login(user.email)).json().tokens).toBeDefined();

    const enabled = await call(user.token, 'POST', '/api/auth/totp/enable', { code: await codeOf(secret) });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const rows = await recoveryRows(user.uuid);
    expect(rows).toHaveLength(10);
    for (const row of rows) for (const code of recoveryCodes) expect(row.codeHash).not.toContain(code.replace('-', ''));

    const status = (await call(user.token, 'GET', '/api/auth/totp')).json();
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    expect(Date.parse(status.enabledAt)).toBeGreaterThan(Date.now() - 60_000);
    // Once on, no new key replaces it.
    expect((await call(user.token, 'POST', '/api/auth/totp/setup')).statusCode).toBe(409);
    expect((await totpRow(user.uuid))!.secret).toBe(pending!.secret);
  });

  it('refuses a wrong or malformed code in French and writes nothing', async () => {
    const user = await freshUser();
    const early = await call(user.token, 'POST', '/api/auth/totp/enable', { code: '123456' });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('Commencez par afficher le QR code à scanner.');
    expect(await totpRow(user.uuid)).toBeNull();
    await call(user.token, 'POST', '/api/auth/totp/setup');
    const secret = (await totpRow(user.uuid))!.secret;
    for (const [payload, message] of [
      [{ code: 'abcdef' }, 'Code invalide : 6 chiffres attendus'],
      [{ code: '12345' }, 'Code invalide : 6 chiffres attendus'],
      [{}, 'Le code est obligatoire'],
      [{ code: '123456', extra: 1 }, 'Champ non reconnu : extra'],
    ] as const) {
      const response = await call(user.token, 'POST', '/api/auth/totp/enable', payload);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(message);
    }
    const wrong = await call(user.token, 'POST', '/api/auth/totp/enable', { code: '000000' });
    expectInvalid(wrong, 'code', TOTP_CODE_WRONG_MESSAGE);
    const row = await totpRow(user.uuid);
    expect(row!.enabledAt).toBeNull();
    expect(row!.lastStep).toBeNull();
    expect(row!.secret).toBe(secret);
    expect(await recoveryRows(user.uuid)).toHaveLength(0);
  });

  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/totp'],
      ['POST', '/api/auth/totp/setup'],
      ['POST', '/api/auth/totp/enable'],
      ['POST', '/api/auth/totp/recovery-codes'],
      ['POST', '/api/auth/totp/disable'],
    ] as const) {
      expect((await t.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
    }
  });
});

describe('two-factor sign-in: login', () => {
  it('answers the password with a challenge, then the code with the session', async () => {
    const user = await withTotp();
    const before = (await sessionsOf(user.uuid)).length;
    const response = await login(user.email);
    expect(response.statusCode).toBe(200);
    const challenge = response.json<{ challenge: string; mode: string; expiresAt: string }>();
    expect(challenge.mode).toBe('code');
    expect(Date.parse(challenge.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(Date.parse(challenge.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(response.cookies.find((c) => c.name === REFRESH_COOKIE)).toBeUndefined();
    expect(await sessionsOf(user.uuid)).toHaveLength(before);
    // Only the challenge's hash is kept.
    const [row] = await t.seed((tx) => tx.select().from(loginChallenges).where(eq(loginChallenges.userUuid, user.uuid)));
    expect(row!.tokenHash).not.toBe(challenge.challenge);

    const done = await secondStep({ challenge: challenge.challenge, code: await codeOf(user.secret) });
    expect(done.statusCode).toBe(200);
    const body = done.json();
    expect(body.user.email).toBe(user.email);
    expect(body.recoveryCodes).toBeUndefined();
    expect((await t.as(body.tokens.access_token, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    const cookie = done.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: true, path: '/api/auth' });
    expect(done.cookies.find((c) => c.name === DEVICE_COOKIE)).toBeUndefined();
    expect(await sessionsOf(user.uuid)).toHaveLength(before + 1);

    // The challenge served once.
    const again = await secondStep({ challenge: challenge.challenge, code: await codeOf(user.secret, 1) });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(LOGIN_CHALLENGE_EXPIRED_MESSAGE);
  });

  it('refuses a wrong code, a replayed code and an older code, without a session; the challenge stays for another try', async () => {
    const user = await withTotp();
    const { challenge } = await challengeOf(user.email);
    const wrong = await secondStep({ challenge, code: '000000' });
    expectInvalid(wrong, 'code', TOTP_CODE_WRONG_MESSAGE);
    expect(wrong.cookies).toHaveLength(0);

    const code = await codeOf(user.secret);
    expect((await secondStep({ challenge, code: ` ${code.slice(0, 3)} ${code.slice(3)} ` })).statusCode).toBe(200);
    // The same code with a new challenge: refused (a code serves once), as is the code before it.
    const next = await challengeOf(user.email);
    expectInvalid(await secondStep({ challenge: next.challenge, code }), 'code', TOTP_CODE_WRONG_MESSAGE);
    expectInvalid(await secondStep({ challenge: next.challenge, code: await codeOf(user.secret, -1) }), 'code', TOTP_CODE_WRONG_MESSAGE);
    // A code from far in the future or the past: refused.
    expectInvalid(await secondStep({ challenge: next.challenge, code: await codeOf(user.secret, 4) }), 'code', TOTP_CODE_WRONG_MESSAGE);
    // The next period's code is still good.
    expect((await secondStep({ challenge: next.challenge, code: await codeOf(user.secret, 1) })).statusCode).toBe(200);
  });

  it('says each refused second step as a failed login naming the challenge’s user, and the passed one as a login', async () => {
    const user = await withTotp();
    const { challenge } = await challengeOf(user.email);
    const wrong = await secondStep({ challenge, code: '000000' });
    expect(wrong.statusCode).toBe(400);
    // One event, not also an « access refused ».
    expect(eventsOf(wrong)).toEqual([{ event: 'login.failed', reason: 'wrong-second-factor', userUuid: user.uuid, method: undefined }]);
    const wrongRecovery = await secondStep({ challenge, recoveryCode: 'abcde-23456' });
    expect(eventsOf(wrongRecovery)).toEqual([{ event: 'login.failed', reason: 'wrong-second-factor', userUuid: user.uuid, method: undefined }]);
    const unknown = await secondStep({ challenge: 'x'.repeat(43), code: '000000' });
    expect(unknown.statusCode).toBe(401);
    expect(eventsOf(unknown)).toEqual([{ event: 'login.failed', reason: 'challenge-expired', userUuid: null, method: undefined }]);
    const passed = await secondStep({ challenge, code: await codeOf(user.secret) });
    expect(passed.statusCode).toBe(200);
    expect(eventsOf(passed)).toEqual([{ event: 'login.succeeded', reason: undefined, userUuid: user.uuid, method: 'second-factor' }]);
  });

  it('accepts each recovery code once', async () => {
    const user = await withTotp();
    const [first, second] = user.recoveryCodes as [string, string];
    const { challenge } = await challengeOf(user.email);
    const done = await secondStep({ challenge, recoveryCode: first.toUpperCase().replace('-', ' ') });
    expect(done.statusCode).toBe(200);
    const used = await recoveryRows(user.uuid);
    expect(used.filter((r) => r.usedAt !== null)).toHaveLength(1);
    const token = done.json().tokens.access_token as string;
    expect((await call(token, 'GET', '/api/auth/totp')).json().recoveryCodesLeft).toBe(9);

    const next = await challengeOf(user.email);
    expectInvalid(await secondStep({ challenge: next.challenge, recoveryCode: first }), 'recoveryCode', TOTP_RECOVERY_CODE_WRONG_MESSAGE);
    expectInvalid(await secondStep({ challenge: next.challenge, recoveryCode: 'zzzzz-zzzzz' }), 'recoveryCode', TOTP_RECOVERY_CODE_WRONG_MESSAGE);
    expect((await secondStep({ challenge: next.challenge, recoveryCode: second })).statusCode).toBe(200);
  });

  it('refuses an expired, unknown or malformed challenge and bad bodies in French', async () => {
    const user = await withTotp();
    const { challenge } = await challengeOf(user.email);
    await t.seed((tx) => tx.update(loginChallenges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(loginChallenges.userUuid, user.uuid)));
    const expired = await secondStep({ challenge, code: await codeOf(user.secret) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe(LOGIN_CHALLENGE_EXPIRED_MESSAGE);
    expect((await totpRow(user.uuid))!.lastStep).toBeNull();
    expect((await secondStep({ challenge: 'inconnu', code: '123456' })).statusCode).toBe(401);
    expectInvalid(await secondStep({ challenge: 'pas un défi !', code: '123456' }), 'challenge', LOGIN_CHALLENGE_EXPIRED_MESSAGE);

    const fresh = await challengeOf(user.email);
    for (const [payload, path, message] of [
      [{ challenge: fresh.challenge }, 'code', 'Saisissez le code de votre application, ou un code de secours'],
      [{ challenge: fresh.challenge, code: '123456', recoveryCode: 'abcde-23456' }, 'code', 'Saisissez le code de votre application, ou un code de secours'],
      [{ challenge: fresh.challenge, code: '12a456' }, 'code', 'Code invalide : 6 chiffres attendus'],
      [{ challenge: fresh.challenge, recoveryCode: 'abc' }, 'recoveryCode', 'Code de secours invalide : 10 lettres ou chiffres attendus'],
      [{ challenge: fresh.challenge, code: '123456', rememberDevice: 'oui' }, 'rememberDevice', 'vrai ou faux attendu'],
    ] as const) {
      expectInvalid(await secondStep(payload), path, message);
    }
    const extra = await secondStep({ challenge: fresh.challenge, code: '123456', admin: true });
    expect(extra.statusCode).toBe(400);
    expect(extra.body).toContain('Champ non reconnu : admin');
    // Nothing spent: the challenge still opens the session.
    expect((await secondStep({ challenge: fresh.challenge, code: await codeOf(user.secret) })).statusCode).toBe(200);
  });

  it('remembers a browser for 30 days when asked: its cookie skips the code for that user only', async () => {
    const user = await withTotp();
    const other = await withTotp();
    const { challenge } = await challengeOf(user.email);
    const done = await secondStep({ challenge, code: await codeOf(user.secret), rememberDevice: true });
    expect(done.statusCode).toBe(200);
    const device = done.cookies.find((c) => c.name === DEVICE_COOKIE);
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: true, path: '/api/auth' });
    const days = (new Date(device!.expires!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const [stored] = await t.seed((tx) => tx.select().from(trustedDevices).where(eq(trustedDevices.userUuid, user.uuid)));
    expect(stored!.tokenHash).not.toBe(device!.value);

    const remembered = await login(user.email, { device: device!.value });
    expect(remembered.json().tokens).toBeDefined();
    expect(remembered.cookies.find((c) => c.name === REFRESH_COOKIE)).toBeDefined();
    // The wrong password is still wrong; another user on the same browser still types a code.
    expect((await login(user.email, { device: device!.value, password: 'Pas le bon mot de passe' })).statusCode).toBe(401);
    expect((await login(other.email, { device: device!.value })).json().mode).toBe('code');
    // Expired: the code again.
    await t.seed((tx) => tx.update(trustedDevices).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(trustedDevices.userUuid, user.uuid)));
    expect((await login(user.email, { device: device!.value })).json().mode).toBe('code');
  });

  it('forgets the remembered browsers when the password changes or every session is ended', async () => {
    const rememberedBrowser = async (user: Awaited<ReturnType<typeof withTotp>>) => {
      await forgetLastStep(user.uuid);
      const { challenge } = await challengeOf(user.email);
      const done = await secondStep({ challenge, code: await codeOf(user.secret), rememberDevice: true });
      expect(done.statusCode).toBe(200);
      const device = done.cookies.find((c) => c.name === DEVICE_COOKIE)!.value;
      expect((await login(user.email, { device })).json().tokens).toBeDefined();
      return device;
    };
    const devicesOf = (userUuid: string) => t.seed((tx) => tx.select().from(trustedDevices).where(eq(trustedDevices.userUuid, userUuid)));

    const changing = await withTotp();
    const before = await rememberedBrowser(changing);
    const newPassword = 'Une toute autre phrase 2026';
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers: { authorization: `Bearer ${changing.token}`, [CSRF_HEADER]: CSRF_HEADER_VALUE },
      payload: { currentPassword: DEFAULT_TEST_PASSWORD, newPassword },
      remoteAddress: nextIp(),
    });
    expect(changed.statusCode).toBe(200);
    expect(await devicesOf(changing.uuid)).toHaveLength(0);
    expect((await login(changing.email, { device: before, password: newPassword })).json().mode).toBe('code');

    const leaving = await withTotp();
    const device = await rememberedBrowser(leaving);
    const bystander = await withTotp();
    const kept = await rememberedBrowser(bystander);
    expect((await call(leaving.token, 'DELETE', '/api/auth/sessions', undefined)).statusCode).toBe(204);
    expect((await login(leaving.email, { device })).json().mode).toBe('code');
    // Another user's remembered browser stays.
    expect((await login(bystander.email, { device: kept })).json().tokens).toBeDefined();
  });

  it('counts wrong codes in the login limits: the address is refused after 5 failures, even with the right code', async () => {
    const user = await withTotp();
    const ip = nextIp();
    const { challenge } = await challengeOf(user.email, ip);
    for (let i = 0; i < 5; i++) expect((await secondStep({ challenge, code: '000000' }, ip)).statusCode).toBe(400);
    const refused = await secondStep({ challenge, code: await codeOf(user.secret) }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Trop de tentatives/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(eventsOf(refused)).toEqual([{ event: 'login.failed', reason: 'too-many-attempts', userUuid: user.uuid, method: undefined }]);
    expect((await totpRow(user.uuid))!.lastStep).toBeNull();
    // The password too is refused from that address; another address still gets in.
    expect((await login(user.email, { ip })).statusCode).toBe(429);
    expect((await secondStep({ challenge, code: await codeOf(user.secret) })).statusCode).toBe(200);
  });
});

describe('two-factor sign-in: recovery codes and turning it off', () => {
  it('regenerates the recovery codes with a code: the old ones stop working', async () => {
    const user = await withTotp();
    expectInvalid(await call(user.token, 'POST', '/api/auth/totp/recovery-codes', { code: '000000' }), 'code', TOTP_CODE_WRONG_MESSAGE);
    const before = await recoveryRows(user.uuid);
    const response = await call(user.token, 'POST', '/api/auth/totp/recovery-codes', { code: await codeOf(user.secret) });
    expect(response.statusCode).toBe(200);
    const fresh = response.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(user.recoveryCodes[0]);
    expect((await recoveryRows(user.uuid)).map((r) => r.codeHash)).not.toContain(before[0]!.codeHash);
    const { challenge } = await challengeOf(user.email);
    expectInvalid(await secondStep({ challenge, recoveryCode: user.recoveryCodes[0] }), 'recoveryCode', TOTP_RECOVERY_CODE_WRONG_MESSAGE);
    expect((await secondStep({ challenge, recoveryCode: fresh[0] })).statusCode).toBe(200);
  });

  it('turns it off with the password and a code: the key, codes and remembered browsers go', async () => {
    const user = await withTotp();
    const { challenge } = await challengeOf(user.email);
    await secondStep({ challenge, code: await codeOf(user.secret), rememberDevice: true });
    await forgetLastStep(user.uuid);

    const wrongPassword = await call(user.token, 'POST', '/api/auth/totp/disable', { password: 'Pas le mien du tout', code: await codeOf(user.secret) });
    expectInvalid(wrongPassword, 'password', 'Mot de passe actuel incorrect');
    expectInvalid(await call(user.token, 'POST', '/api/auth/totp/disable', { password: DEFAULT_TEST_PASSWORD, code: '000000' }), 'code', TOTP_CODE_WRONG_MESSAGE);
    expectInvalid(await call(user.token, 'POST', '/api/auth/totp/disable', { code: '123456' }), 'password', 'Le mot de passe est obligatoire');
    expect((await totpRow(user.uuid))!.enabledAt).not.toBeNull();
    expect(await recoveryRows(user.uuid)).toHaveLength(10);

    const off = await call(user.token, 'POST', '/api/auth/totp/disable', { password: DEFAULT_TEST_PASSWORD, code: await codeOf(user.secret) });
    expect(off.statusCode).toBe(204);
    expect(await totpRow(user.uuid)).toBeNull();
    expect(await recoveryRows(user.uuid)).toHaveLength(0);
    expect(await t.seed((tx) => tx.select().from(trustedDevices).where(eq(trustedDevices.userUuid, user.uuid)))).toHaveLength(0);
    expect((await login(user.email)).json().tokens).toBeDefined();
    const already = await call(user.token, 'POST', '/api/auth/totp/disable', { password: DEFAULT_TEST_PASSWORD, code: '123456' });
    expect(already.statusCode).toBe(400);
    expect(already.json().message).toBe('La double authentification n’est pas activée sur ce compte.');
  });

  it('turns it off with a recovery code (a lost phone)', async () => {
    const user = await withTotp();
    const off = await call(user.token, 'POST', '/api/auth/totp/disable', { password: DEFAULT_TEST_PASSWORD, recoveryCode: user.recoveryCodes[3] });
    expect(off.statusCode).toBe(204);
    expect((await call(user.token, 'GET', '/api/auth/totp')).json().enabled).toBe(false);
  });
});

describe('two-factor sign-in required by the environment for its superadmins', () => {
  async function requiringEnvironment() {
    return t.seed(async (tx) => {
      const environment = await createEnvironment(tx, { title: 'Cabinet Exigeant' });
      await tx.update(environments).set({ requireSuperadminTotp: true }).where(eq(environments.uuid, environment.uuid));
      return environment;
    });
  }
  async function superadminOf(environmentUuid: string) {
    const email = `super.${++userCounter}.${Date.now()}@exemple.fr`;
    const user = await t.seed(async (tx) => {
      const created = await createUser(tx, { email, roles: ['SUPERADMIN'] });
      await tx.insert(environmentUsers).values({ environmentUuid, userUuid: created.uuid });
      return created;
    });
    return { uuid: user.uuid, email };
  }

  it('makes a superadmin without TOTP set it up after the password, before any session', async () => {
    const environment = await requiringEnvironment();
    const superadmin = await superadminOf(environment.uuid);
    const { challenge, mode, expiresAt } = await challengeOf(superadmin.email);
    expect(mode).toBe('setup');
    // Time to install an app: 15 minutes.
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(await sessionsOf(superadmin.uuid)).toHaveLength(0);
    // No way around the setup: a recovery code or a made-up code do not open a session.
    expectInvalid(await secondStep({ challenge, recoveryCode: 'abcde-23456' }), 'recoveryCode', 'Configurez d’abord');
    expectInvalid(await secondStep({ challenge, code: '123456' }), 'code', TOTP_CODE_WRONG_MESSAGE);

    const setup = await t.app.inject({ method: 'POST', url: '/api/auth/login/totp/setup', payload: { challenge } });
    expect(setup.statusCode).toBe(200);
    const secret = setup.json<{ secret: string }>().secret.replace(/\s/g, '');
    expect(setup.json().qrCodeSvg).toMatch(/^<svg/);
    expect(await sessionsOf(superadmin.uuid)).toHaveLength(0);

    const done = await secondStep({ challenge, code: await codeOf(secret) });
    expect(done.statusCode).toBe(200);
    const body = done.json();
    expect(body.recoveryCodes).toHaveLength(10);
    expect(body.tokens.access_token).toBeTruthy();
    const status = (await call(body.tokens.access_token, 'GET', '/api/auth/totp')).json();
    expect(status).toMatchObject({ enabled: true, required: true, recoveryCodesLeft: 10 });
    // Required: it cannot be turned off.
    await forgetLastStep(superadmin.uuid);
    const refused = await call(body.tokens.access_token, 'POST', '/api/auth/totp/disable', { password: DEFAULT_TEST_PASSWORD, code: await codeOf(secret) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(TOTP_REQUIRED_MESSAGE);
    expect((await totpRow(superadmin.uuid))!.enabledAt).not.toBeNull();
    // Next time: a code.
    expect((await challengeOf(superadmin.email)).mode).toBe('code');
  });

  it('gives the setup key only to a live setup challenge', async () => {
    const user = await withTotp();
    const { challenge } = await challengeOf(user.email);
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/login/totp/setup', payload: { challenge } });
    expect(refused.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login/totp/setup', payload: { challenge: 'inconnu' } })).statusCode).toBe(401);
    expectInvalid(await t.app.inject({ method: 'POST', url: '/api/auth/login/totp/setup', payload: {} }), 'challenge', LOGIN_CHALLENGE_EXPIRED_MESSAGE);
  });

  it('asks nothing of a superadmin of an environment that does not require it, nor of a user of one that does', async () => {
    const relaxed = await t.seed((tx) => createEnvironment(tx));
    const superadmin = await superadminOf(relaxed.uuid);
    expect((await login(superadmin.email)).json().tokens).toBeDefined();

    const environment = await requiringEnvironment();
    const email = `client.${++userCounter}@exemple.fr`;
    await t.seed(async (tx) => {
      const org = await createOrganization(tx, { environmentUuid: environment.uuid });
      const created = await createUser(tx, { email });
      await linkUser(tx, org.uuid, created.uuid);
    });
    expect((await login(email)).json().tokens).toBeDefined();
  });
});

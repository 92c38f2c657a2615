import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE, RECOVERY_LINK_INVALID_MESSAGE, RECOVERY_REQUESTED_MESSAGE } from '@flotte/contract';
import { mailOutbox } from '../../db/schema/mail.js';
import { passwordResetTokens, refreshTokens, users } from '../../db/schema/users.js';
import { createEnvironment, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, DEFAULT_TEST_PASSWORD, type TestContext } from '../../../test/test-app.js';
import { REFRESH_COOKIE } from './auth.routes.js';
import { maskEmail } from './recovery.service.js';

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://flotte.exemple.fr' });
});

afterAll(async () => {
  await t.close();
});

const NEW_PASSWORD = 'Une phrase bien à moi 2026';
let ipCounter = 0;
/** Each test from its own address, so the per-address limit of one test does not reach another. */
const nextIp = () => `10.9.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;

const ask = (email: unknown, ip = nextIp()) => t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email }, remoteAddress: ip });
/** Asks for a link, then waits for the work done after the answer (the link made, the e-mail queued). */
async function requestLink(email: unknown, ip = nextIp()): Promise<LightMyRequestResponse> {
  const response = await ask(email, ip);
  await t.app.afterAnswer.settled();
  return response;
}
const check = (token: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/recover/check', payload: { token } });
const reset = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/recover/password', payload });
const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: nextIp() });

/** The messages queued for an address, newest last. */
const mailsTo = (email: string) =>
  t.seed((tx) => tx.select({ subject: mailOutbox.subject, text: mailOutbox.text, html: mailOutbox.html }).from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.createdAt));

/** The token of the link in the last recovery e-mail sent to `email`. */
async function tokenSentTo(email: string): Promise<string> {
  const mails = await mailsTo(email);
  const link = /https:\/\/flotte\.exemple\.fr\/recover\/password\?token=([\w-]+)/.exec(mails.at(-1)?.text ?? '');
  if (!link) throw new Error(`no recovery link sent to ${email}`);
  return link[1]!;
}

const tokenRows = (userUuid: string) => t.seed((tx) => tx.select().from(passwordResetTokens).where(eq(passwordResetTokens.userUuid, userUuid)));

function cookieOf(response: LightMyRequestResponse) {
  const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE);
  if (!cookie) throw new Error('no refresh cookie');
  return cookie.value;
}

describe('account recovery', () => {
  it('sends a one-hour link to a known address, in French, branded with its environment; the link opens the form and sets the password once', async () => {
    const own = await t.seed(async (tx) => {
      const environment = await createEnvironment(tx, { title: 'Cabinet Martin Assurances' });
      const org = await createOrganization(tx, { title: 'Transports Lefèvre', environmentUuid: environment.uuid });
      const user = await createUser(tx, { email: 'jeanne.lefevre@exemple.fr', firstName: 'Jeanne' });
      await linkUser(tx, org.uuid, user.uuid);
      return user;
    });
    const asked = await requestLink('Jeanne.Lefevre@Exemple.fr');
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: RECOVERY_REQUESTED_MESSAGE });

    const [mail] = await mailsTo('jeanne.lefevre@exemple.fr');
    expect(mail!.subject).toBe('Réinitialisation de votre mot de passe Cabinet Martin Assurances');
    expect(mail!.text).toContain('Bonjour Jeanne,');
    expect(mail!.text).toContain('1 heure');
    const token = await tokenSentTo('jeanne.lefevre@exemple.fr');
    // Only the token's hash is stored.
    const [row] = await tokenRows(own.uuid);
    expect(row!.tokenHash).not.toContain(token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(59 * 60_000);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(61 * 60_000);

    const checked = await check(token);
    expect(checked.statusCode).toBe(200);
    expect(checked.json().email).toBe('j•••••••••••••@exemple.fr');

    expect((await reset({ token, password: NEW_PASSWORD, confirmation: NEW_PASSWORD })).statusCode).toBe(204);
    expect((await login('jeanne.lefevre@exemple.fr', DEFAULT_TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login('jeanne.lefevre@exemple.fr', NEW_PASSWORD)).statusCode).toBe(200);

    // Single use: the same link again is refused, and changes nothing.
    const again = await reset({ token, password: 'Encore une autre phrase 77', confirmation: 'Encore une autre phrase 77' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(RECOVERY_LINK_INVALID_MESSAGE);
    expect((await check(token)).statusCode).toBe(400);
    expect((await login('jeanne.lefevre@exemple.fr', NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and sends nothing', async () => {
    await t.seed((tx) => createUser(tx, { email: 'connue@exemple.fr' }));
    const known = await requestLink('connue@exemple.fr');
    const unknown = await requestLink('inconnue@exemple.fr');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    expect(await mailsTo('inconnue@exemple.fr')).toEqual([]);
    expect(await mailsTo('connue@exemple.fr')).toHaveLength(1);
  });

  it('takes about the same time for a known and an unknown address (medians of 11, asked in turn)', async () => {
    // One address per request: each is under its limit (a 429 would answer both alike, and fast).
    await t.seed(async (tx) => {
      for (let i = 0; i < 11; i++) await createUser(tx, { email: `chrono-${i}@exemple.fr` });
    });
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    // In turn, so that both meet the same load of the machine.
    for (let i = 0; i < 11; i++) {
      for (const [which, email] of [
        ['known', `chrono-${i}@exemple.fr`],
        ['unknown', `personne-${i}@exemple.fr`],
      ] as const) {
        const start = performance.now();
        const response = await ask(email);
        times[which].push(performance.now() - start);
        expect(response.statusCode).toBe(202);
        // The link's making, after the answer, is not what the asker can time: each turn starts clean.
        await t.app.afterAnswer.settled();
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[5]!;
    const [known, unknown] = [median(times.known), median(times.unknown)];
    // Both answers only count the request against the limits: the known address's link is made
    // after its answer. A lookup, a write or a password hash on one path only would show here.
    expect(Math.abs(known - unknown)).toBeLessThan(Math.max(40, 0.5 * Math.max(known, unknown)));
  });

  it('ends every session of the account when the link is used', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'sessions@exemple.fr' }));
    const first = await login(own.email, DEFAULT_TEST_PASSWORD);
    const second = await login(own.email, DEFAULT_TEST_PASSWORD);
    const access = first.json().tokens.access_token as string;
    expect((await t.as(access, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    await requestLink(own.email);
    expect((await reset({ token: await tokenSentTo(own.email), password: NEW_PASSWORD, confirmation: NEW_PASSWORD })).statusCode).toBe(204);
    expect((await t.as(access, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    for (const response of [first, second]) {
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
        cookies: { [REFRESH_COOKIE]: cookieOf(response) },
      });
      expect(refreshed.statusCode).toBe(401);
    }
    const live = await t.seed((tx) => tx.select().from(refreshTokens).where(eq(refreshTokens.userUuid, own.uuid)));
    expect(live.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('refuses an expired link, and a link replaced by a newer request', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'expire@exemple.fr' }));
    await requestLink(own.email);
    const first = await tokenSentTo(own.email);
    await requestLink(own.email);
    const second = await tokenSentTo(own.email);
    expect(second).not.toBe(first);
    expect((await check(first)).statusCode).toBe(400);
    expect((await check(second)).statusCode).toBe(200);
    await t.seed((tx) => tx.update(passwordResetTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(passwordResetTokens.userUuid, own.uuid)));
    const expired = await reset({ token: second, password: NEW_PASSWORD, confirmation: NEW_PASSWORD });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(RECOVERY_LINK_INVALID_MESSAGE);
    expect((await login(own.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('of two uses of one link at the same time, one wins', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'course-lien@exemple.fr' }));
    await requestLink(own.email);
    const token = await tokenSentTo(own.email);
    const answers = await Promise.all([
      reset({ token, password: 'Première phrase choisie 1', confirmation: 'Première phrase choisie 1' }),
      reset({ token, password: 'Seconde phrase choisie 22', confirmation: 'Seconde phrase choisie 22' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 400]);
    const winner = answers[0]!.statusCode === 204 ? 'Première phrase choisie 1' : 'Seconde phrase choisie 22';
    expect((await login(own.email, winner)).statusCode).toBe(200);
  });

  it('limits requests to 5 per 30 minutes per address and per e-mail, with the same 429 for known and unknown e-mails', async () => {
    await t.seed((tx) => createUser(tx, { email: 'limite@exemple.fr' }));
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await requestLink('limite@exemple.fr', nextIp())).statusCode).toBe(202);
    const perEmail = await requestLink('limite@exemple.fr', ip);
    expect(perEmail.statusCode).toBe(429);
    expect(perEmail.json().message).toMatch(/^Trop de demandes de réinitialisation\. Réessayez dans \d+ minutes\.$/);
    expect(Number(perEmail.headers['retry-after'])).toBeGreaterThan(25 * 60);
    expect(await mailsTo('limite@exemple.fr')).toHaveLength(5);

    const busy = nextIp();
    for (let i = 0; i < 5; i++) expect((await requestLink(`personne-${i}@exemple.fr`, busy)).statusCode).toBe(202);
    const perAddress = await requestLink('limite-bis@exemple.fr', busy);
    expect(perAddress.statusCode).toBe(429);
    const unknownLimited = await requestLink('limite@exemple.fr', busy);
    expect(unknownLimited.statusCode).toBe(429);
  });

  it.each([
    [{ email: '' }, 'email', "L'adresse e-mail est obligatoire"],
    [{ email: 'pas-une-adresse' }, 'email', 'Adresse e-mail invalide'],
    [{ email: 'a@exemple.fr', role: 'ROOT' }, '', 'Champ non reconnu : role'],
  ])('refuses the request %j with a French 400 and sends nothing', async (payload, path, message) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload, remoteAddress: nextIp() });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message });
  });

  it.each([
    [{ password: 'court', confirmation: 'court' }, 'password', 'Le nouveau mot de passe doit contenir au moins 12 caractères'],
    [{ password: 'azerty123456', confirmation: 'azerty123456' }, 'password', 'Ce mot de passe figure parmi les plus utilisés : choisissez-en un autre'],
    [{ password: 'aaaaaaaaaaaaaaaa', confirmation: 'aaaaaaaaaaaaaaaa' }, 'password', 'Ce mot de passe répète trop peu de caractères différents'],
    [{ password: NEW_PASSWORD, confirmation: `${NEW_PASSWORD}!` }, 'confirmation', 'Les deux mots de passe ne sont pas identiques'],
  ])('refuses the new password %j with a French 400, and the link still works after', async (payload, path, message) => {
    const own = await t.seed((tx) => createUser(tx, { email: `regle-${path}-${message.length}-${payload.password.length}@exemple.fr` }));
    await requestLink(own.email);
    const token = await tokenSentTo(own.email);
    const refused = await reset({ token, ...payload });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toContainEqual({ path, message });
    expect((await check(token)).statusCode).toBe(200);
    expect((await login(own.email, DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a made-up, empty or oversized token with the same French message', async () => {
    for (const token of ['nimporte-quoi', '', 'x'.repeat(500), 42]) {
      const response = await check(token);
      expect(response.statusCode).toBe(400);
      expect(response.json().details).toEqual([{ path: 'token', message: RECOVERY_LINK_INVALID_MESSAGE }]);
    }
    const response = await reset({ token: 'nimporte-quoi', password: NEW_PASSWORD, confirmation: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(RECOVERY_LINK_INVALID_MESSAGE);
  });

  it('refuses a request from another site’s page', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email: 'connue@exemple.fr' }, headers: { origin: 'https://pirate.exemple' } });
    expect(response.statusCode).toBe(403);
  });

  it('a deleted account’s links go with it', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'partie@exemple.fr' }));
    await requestLink(own.email);
    const token = await tokenSentTo(own.email);
    await t.seed((tx) => tx.delete(users).where(eq(users.uuid, own.uuid)));
    expect((await check(token)).statusCode).toBe(400);
    expect(await tokenRows(own.uuid)).toEqual([]);
  });

  it('masks an address enough to recognise it, not to learn it', () => {
    expect(maskEmail('jean.dupont@exemple.fr')).toBe('j••••••••••@exemple.fr');
    expect(maskEmail('a@b.fr')).toBe('a•••@b.fr');
  });
});

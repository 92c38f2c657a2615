import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CGU_VERSION,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  EMAIL_NOT_CONFIRMED_MESSAGE,
  SIGNUP_LINK_INVALID_MESSAGE,
  SIGNUP_REQUESTED_MESSAGE,
} from '@flotte/contract';
import { mailOutbox } from '../../db/schema/mail.js';
import { emailConfirmationTokens, users } from '../../db/schema/users.js';
import { createUser } from '../../seed/factories.js';
import { captureLogLines, createTestApp, DEFAULT_TEST_PASSWORD, securityEventsOf, type TestContext } from '../../../test/test-app.js';
import { REFRESH_COOKIE } from './auth.routes.js';

let t: TestContext;
// At info, the production level: a confirmation's sign-in is a security event like a login's.
const logs = captureLogLines();

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://flotte.exemple.fr', LOG_LEVEL: 'info' }, {}, logs.stream);
});

afterAll(async () => {
  await t.close();
});

const PASSWORD = 'Une flotte bien rangée 2026';
let ipCounter = 0;
/** Each test from its own address, so the per-address limit of one test does not reach another. */
const nextIp = () => `10.7.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;

const body = (email: string, extra: object = {}) => ({ firstName: 'Léa', lastName: 'Moreau', email, password: PASSWORD, cguVersion: CGU_VERSION, ...extra });
const signup = (payload: object, ip = nextIp()) => t.app.inject({ method: 'POST', url: '/api/auth/signup', payload, remoteAddress: ip });
const resend = (email: unknown, ip = nextIp()) => t.app.inject({ method: 'POST', url: '/api/auth/signup/resend', payload: { email }, remoteAddress: ip });
const confirm = (token: unknown) => t.app.inject({ method: 'POST', url: '/api/auth/signup/confirm', payload: { token } });
const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: nextIp() });

const mailsTo = (email: string) =>
  t.seed((tx) => tx.select({ subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.createdAt));

async function tokenSentTo(email: string): Promise<string> {
  const mails = await mailsTo(email);
  const link = /https:\/\/flotte\.exemple\.fr\/signup\/confirmation\?token=([\w-]+)/.exec(mails.at(-1)?.text ?? '');
  if (!link) throw new Error(`no confirmation link sent to ${email}`);
  return link[1]!;
}

const userRow = (email: string) => t.seed(async (tx) => (await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`))[0]);
const userCount = () => t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n);

describe('signup', () => {
  it('creates an unconfirmed account with the CGU accepted, sends a 24-hour link; the link confirms and signs in, once', async () => {
    const answer = await signup(body('Lea.Moreau@Exemple.fr'));
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({ message: SIGNUP_REQUESTED_MESSAGE });

    const row = await userRow('lea.moreau@exemple.fr');
    expect(row).toMatchObject({ firstName: 'Léa', lastName: 'Moreau', roles: ['USER'], emailConfirmedAt: null, cguAcceptedVersion: CGU_VERSION, onboardingStep: 'welcome' });
    expect(row!.passwordHash).not.toContain(PASSWORD);

    const [mail] = await mailsTo('lea.moreau@exemple.fr');
    expect(mail!.subject).toBe('Confirmez votre adresse e-mail pour FlotteAssur');
    expect(mail!.text).toContain('Bonjour Léa,');
    expect(mail!.text).toContain('24 heures');
    const token = await tokenSentTo('lea.moreau@exemple.fr');
    const [stored] = await t.seed((tx) => tx.select().from(emailConfirmationTokens).where(eq(emailConfirmationTokens.userUuid, row!.uuid)));
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBeGreaterThan(23.9 * 3_600_000);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBeLessThanOrEqual(24.1 * 3_600_000);

    // Not yet confirmed: the right password is refused with the way to a new link, and no session.
    const early = await login('lea.moreau@exemple.fr', PASSWORD);
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toBe(EMAIL_NOT_CONFIRMED_MESSAGE);
    expect(early.cookies.find((c) => c.name === REFRESH_COOKIE)).toBeUndefined();
    // A wrong password still reads as any wrong password (no hint the account exists).
    expect((await login('lea.moreau@exemple.fr', 'Pas le bon mot de passe 1')).statusCode).toBe(401);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().user).toMatchObject({ email: 'lea.moreau@exemple.fr', currentOrganizationUser: null });
    expect(securityEventsOf(logs.lines, confirmed)).toEqual([
      expect.objectContaining({ event: 'login.succeeded', method: 'confirmation-link', userUuid: confirmed.json().user.uuid, organizationUuid: null }),
    ]);
    const cookie = confirmed.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(cookie?.httpOnly).toBe(true);
    const me = await t.as(confirmed.json().tokens.access_token, { method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);
    // The refresh cookie works as the login's does.
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE }, cookies: { [REFRESH_COOKIE]: cookie!.value } });
    expect(refreshed.statusCode).toBe(200);
    expect((await userRow('lea.moreau@exemple.fr'))!.emailConfirmedAt).not.toBeNull();
    expect((await login('lea.moreau@exemple.fr', PASSWORD)).statusCode).toBe(200);

    // Single use.
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: SIGNUP_LINK_INVALID_MESSAGE, details: [{ path: 'token', message: SIGNUP_LINK_INVALID_MESSAGE }] });
  });

  it('answers an address that has an account exactly as a new one, creates nothing, and tells its owner', async () => {
    await t.seed((tx) => createUser(tx, { email: 'deja.inscrite@exemple.fr', firstName: 'Nadia' }));
    const before = await userCount();
    const known = await signup(body('deja.inscrite@exemple.fr'));
    const unknown = await signup(body('toute.nouvelle@exemple.fr'));
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
    expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
    expect(await userCount()).toBe(before + 1);

    const [told] = await mailsTo('deja.inscrite@exemple.fr');
    expect(told!.subject).toBe("Tentative d'inscription avec votre adresse sur FlotteAssur");
    expect(told!.text).toContain('Bonjour Nadia,');
    expect(told!.text).toContain('https://flotte.exemple.fr/recover');
    expect(told!.text).not.toContain('token=');
    // The existing account is untouched: its password still works, the signup's does not.
    expect((await login('deja.inscrite@exemple.fr', DEFAULT_TEST_PASSWORD)).statusCode).toBe(200);
    expect((await login('deja.inscrite@exemple.fr', PASSWORD)).statusCode).toBe(401);
  });

  it('takes about the same time for a known and a new address (medians of 7, asked in turn)', async () => {
    await t.seed(async (tx) => {
      for (let i = 0; i < 7; i++) await createUser(tx, { email: `chrono-inscrit-${i}@exemple.fr` });
    });
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let i = 0; i < 7; i++) {
      for (const [which, email] of [
        ['known', `chrono-inscrit-${i}@exemple.fr`],
        ['unknown', `chrono-nouveau-${i}@exemple.fr`],
      ] as const) {
        const start = performance.now();
        expect((await signup(body(email))).statusCode).toBe(202);
        times[which].push(performance.now() - start);
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[3]!;
    const [known, unknown] = [median(times.known), median(times.unknown)];
    // Both hash the password (the bulk of the time); a hash on one path only would differ by far more.
    expect(Math.abs(known - unknown)).toBeLessThan(Math.max(40, 0.5 * Math.max(known, unknown)));
  });

  it('an unconfirmed account with a live link is told, not overwritten; once its links expired, a new signup takes it over', async () => {
    await signup(body('squat@exemple.fr', { firstName: 'Intrus' }));
    const first = await tokenSentTo('squat@exemple.fr');
    await signup(body('squat@exemple.fr', { firstName: 'Vraie', password: 'Ma propre phrase secrète 9' }));
    expect((await mailsTo('squat@exemple.fr')).at(-1)!.subject).toBe("Tentative d'inscription avec votre adresse sur FlotteAssur");
    expect((await userRow('squat@exemple.fr'))!.firstName).toBe('Intrus');

    await t.seed((tx) => tx.update(emailConfirmationTokens).set({ expiresAt: sql`now() - interval '1 second'` }));
    await signup(body('squat@exemple.fr', { firstName: 'Vraie', password: 'Ma propre phrase secrète 9' }));
    expect((await userRow('squat@exemple.fr'))!.firstName).toBe('Vraie');
    const second = await tokenSentTo('squat@exemple.fr');
    expect((await confirm(first)).statusCode).toBe(400);
    expect((await confirm(second)).statusCode).toBe(200);
    expect((await login('squat@exemple.fr', 'Ma propre phrase secrète 9')).statusCode).toBe(200);
    expect((await login('squat@exemple.fr', PASSWORD)).statusCode).toBe(401);
  });

  it('resends a new link to an unconfirmed account (the earlier one dies); the same answer, and nothing sent, for any other address', async () => {
    await t.seed((tx) => createUser(tx, { email: 'confirmee@exemple.fr' }));
    await signup(body('renvoi@exemple.fr'));
    const first = await tokenSentTo('renvoi@exemple.fr');
    const again = await resend('renvoi@exemple.fr');
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ message: SIGNUP_REQUESTED_MESSAGE });
    const second = await tokenSentTo('renvoi@exemple.fr');
    expect(second).not.toBe(first);
    expect((await confirm(first)).statusCode).toBe(400);

    const confirmed = await resend('confirmee@exemple.fr');
    const unknown = await resend('inconnue-renvoi@exemple.fr');
    expect(confirmed.statusCode).toBe(again.statusCode);
    expect(confirmed.body).toBe(again.body);
    expect(unknown.body).toBe(again.body);
    expect(await mailsTo('confirmee@exemple.fr')).toEqual([]);
    expect(await mailsTo('inconnue-renvoi@exemple.fr')).toEqual([]);
    expect((await confirm(second)).statusCode).toBe(200);
  });

  it('refuses an expired link with the one French message; the account stays unconfirmed', async () => {
    await signup(body('expiree@exemple.fr'));
    const token = await tokenSentTo('expiree@exemple.fr');
    await t.seed((tx) =>
      tx
        .update(emailConfirmationTokens)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(sql`${emailConfirmationTokens.userUuid} = (select uuid from users where email = 'expiree@exemple.fr')`),
    );
    const expired = await confirm(token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(SIGNUP_LINK_INVALID_MESSAGE);
    expect((await userRow('expiree@exemple.fr'))!.emailConfirmedAt).toBeNull();
  });

  it('of two uses of one link at the same time, one wins', async () => {
    await signup(body('course@exemple.fr'));
    const token = await tokenSentTo('course@exemple.fr');
    const answers = await Promise.all([confirm(token), confirm(token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });

  it('refuses a made-up, empty or oversized token with the same French message', async () => {
    for (const token of ['nimporte-quoi', '', 'x'.repeat(500), 42, 'a b']) {
      const response = await confirm(token);
      expect(response.statusCode).toBe(400);
      expect(response.json().details).toEqual([{ path: 'token', message: SIGNUP_LINK_INVALID_MESSAGE }]);
    }
  });

  it('limits signups and resends to 3 per 30 minutes per e-mail and 10 per network address, known or not alike', async () => {
    await signup(body('limite-inscription@exemple.fr'));
    expect((await resend('limite-inscription@exemple.fr')).statusCode).toBe(202);
    expect((await resend('limite-inscription@exemple.fr')).statusCode).toBe(202);
    const limited = await resend('limite-inscription@exemple.fr');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Trop de demandes pour cette adresse\. Réessayez dans \d+ minutes\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(25 * 60);
    expect(await mailsTo('limite-inscription@exemple.fr')).toHaveLength(3);
    // An unknown address is counted the same.
    for (let i = 0; i < 3; i++) expect((await resend('limite-inconnue@exemple.fr')).statusCode).toBe(202);
    expect((await resend('limite-inconnue@exemple.fr')).statusCode).toBe(429);

    const office = nextIp();
    for (let i = 0; i < 10; i++) expect((await resend(`bureau-${i}@exemple.fr`, office)).statusCode).toBe(202);
    expect((await signup(body('bureau-11@exemple.fr'), office)).statusCode).toBe(429);
    expect(await userRow('bureau-11@exemple.fr')).toBeUndefined();
  });

  it.each([
    [{ firstName: '' }, 'firstName', 'Le prénom est obligatoire'],
    [{ lastName: '   ' }, 'lastName', 'Le nom est obligatoire'],
    [{ email: 'pas-une-adresse' }, 'email', 'Adresse e-mail invalide'],
    [{ password: 'court' }, 'password', 'Le mot de passe doit contenir au moins 12 caractères'],
    [{ password: 'azerty123456' }, 'password', 'Ce mot de passe figure parmi les plus utilisés : choisissez-en un autre'],
    [{ cguVersion: '' }, 'cguVersion', 'Acceptez les conditions générales d’utilisation pour créer votre compte'],
    [{ cguVersion: '2020-01-01' }, 'cguVersion', 'Ces conditions ne sont plus les dernières : rechargez la page pour lire la version en vigueur.'],
    [{ roles: ['ROOT'] }, '', 'Champ non reconnu : roles'],
  ])('refuses %j with a French 400, and writes and sends nothing', async (change, path, message) => {
    const email = `refus-${path || 'cle'}-${message.length}@exemple.fr`;
    const before = await userCount();
    const response = await signup(body(email, change));
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message });
    expect(await userCount()).toBe(before);
    expect(await mailsTo(email)).toEqual([]);
  });

  it('refuses a signup without the CGU field', async () => {
    const { cguVersion: _omitted, ...payload } = body('sans-cgu@exemple.fr');
    const response = await signup(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path: 'cguVersion', message: 'Acceptez les conditions générales d’utilisation pour créer votre compte' });
  });

  it('refuses a signup from another site’s page', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body('pirate@exemple.fr'), headers: { origin: 'https://pirate.exemple' } });
    expect(response.statusCode).toBe(403);
    expect(await userRow('pirate@exemple.fr')).toBeUndefined();
  });

  it('a recovery link confirms an unconfirmed address (it proves the mailbox too)', async () => {
    await signup(body('oubli@exemple.fr'));
    await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email: 'oubli@exemple.fr' }, remoteAddress: nextIp() });
    // The recovery link is made after the answer.
    await t.app.afterAnswer.settled();
    const mail = (await mailsTo('oubli@exemple.fr')).at(-1)!;
    const token = /recover\/password\?token=([\w-]+)/.exec(mail.text ?? '')![1]!;
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/recover/password', payload: { token, password: 'Nouvelle phrase à moi 42', confirmation: 'Nouvelle phrase à moi 42' } });
    expect(reset.statusCode).toBe(204);
    expect((await login('oubli@exemple.fr', 'Nouvelle phrase à moi 42')).statusCode).toBe(200);
  });
});

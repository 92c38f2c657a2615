import { CGU_VERSION, INVITATION_LINK_INVALID_MESSAGE, INVITATION_OTHER_EMAIL_MESSAGE } from '@flotte/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.js';
import { organizationInvitations, organizationUsers } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';
import { createInvitation, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { captureLogLines, createTestApp, securityEventsOf, type TestContext } from '../../../test/test-app.js';
import { REFRESH_COOKIE } from '../auth/auth.routes.js';
import { ACCOUNT_EXISTS_MESSAGE, ALREADY_MEMBER_MESSAGE, INVITATION_NOT_FOUND_MESSAGE } from './invitations.service.js';

// Invitations by e-mail (decision 034): the administrators' calls, then the link's.
let t: TestContext;
// At info, the production level: an invitation's sign-in is a security event like a login's.
const logs = captureLogLines();
let alpha: { uuid: string };
let beta: { uuid: string };
let adminAlpha: { uuid: string };
const tokens: Record<string, string> = {};
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const PASSWORD = 'Une phrase bien à moi 2026';

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://flotte.exemple.fr', LOG_LEVEL: 'info' }, {}, logs.stream);
  await t.seed(async (tx) => {
    alpha = await createOrganization(tx, { title: 'Transports Alpha' });
    beta = await createOrganization(tx, { title: 'Logistique Bêta' });
    adminAlpha = await createUser(tx, { email: 'chef@alpha.fr', firstName: 'Julien', lastName: 'Martin' });
    const userAlpha = await createUser(tx, { email: 'membre@alpha.fr' });
    const adminBeta = await createUser(tx, { email: 'chef@beta.fr' });
    await createUser(tx, { email: 'orphelin@exemple.fr' });
    await createUser(tx, { email: 'racine@exemple.fr', roles: ['ROOT'] });
    await linkUser(tx, alpha.uuid, adminAlpha.uuid, 'ADMIN');
    await linkUser(tx, alpha.uuid, userAlpha.uuid, 'USER');
    await linkUser(tx, beta.uuid, adminBeta.uuid, 'ADMIN');
  });
  for (const [name, email] of [
    ['admin', 'chef@alpha.fr'],
    ['user', 'membre@alpha.fr'],
    ['beta', 'chef@beta.fr'],
    ['orphan', 'orphelin@exemple.fr'],
  ] as const) {
    tokens[name] = await t.login(email);
  }
});
afterAll(() => t.close());

async function call(token: string | null, options: InjectOptions) {
  const response = token === null ? await t.app.inject(options) : await t.as(token, options);
  expect(response.statusCode, response.body).toBeLessThan(500);
  expect(response.body).not.toMatch(/password_?hash|token_?hash/i);
  return response;
}
const invite = (token: string | null, payload: unknown) => call(token, { method: 'POST', url: '/api/organization-invitation', payload: payload as InjectOptions['payload'] });
const list = (token: string, query = '') => call(token, { method: 'GET', url: `/api/organization-invitation${query}` });
const resend = (token: string | null, uuid: string) => call(token, { method: 'POST', url: `/api/organization-invitation/${uuid}/resend` });
const cancel = (token: string | null, uuid: string) => call(token, { method: 'DELETE', url: `/api/organization-invitation/${uuid}` });
const check = (payload: unknown) => call(null, { method: 'POST', url: '/api/invitation/check', payload: payload as InjectOptions['payload'] });
const accept = (payload: unknown) => call(null, { method: 'POST', url: '/api/invitation/accept', payload: payload as InjectOptions['payload'] });
const join = (token: string | null, payload: unknown) => call(token, { method: 'POST', url: '/api/invitation/join', payload: payload as InjectOptions['payload'] });

let seq = 0;
const freshEmail = () => `invite-${++seq}-${Math.random().toString(36).slice(2, 7)}@exemple.fr`;

/** Every invitation, link, account and message: unchanged means nothing was written. */
const footprint = () =>
  t.seed(async (tx) => {
    const [i] = await tx.select({ n: count() }).from(organizationInvitations);
    const [accepted] = await tx.select({ n: count() }).from(organizationInvitations).where(sql`${organizationInvitations.acceptedAt} is not null`);
    const [l] = await tx.select({ n: count() }).from(organizationUsers);
    const [u] = await tx.select({ n: count() }).from(users);
    const [m] = await tx.select({ n: count() }).from(mailOutbox);
    return `${i!.n}/${accepted!.n}/${l!.n}/${u!.n}/${m!.n}`;
  });

const mailsTo = (email: string) =>
  t.seed((tx) => tx.select({ subject: mailOutbox.subject, text: mailOutbox.text, organizationUuid: mailOutbox.organizationUuid }).from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.createdAt));

/** The token of the link in the last invitation sent to `email`. */
async function tokenSentTo(email: string): Promise<string> {
  const link = /https:\/\/flotte\.exemple\.fr\/signup\?invitation=([\w-]+)/.exec((await mailsTo(email)).at(-1)?.text ?? '');
  if (!link) throw new Error(`no invitation sent to ${email}`);
  return link[1]!;
}
const invitationRow = (uuid: string) => t.seed(async (tx) => (await tx.select().from(organizationInvitations).where(eq(organizationInvitations.uuid, uuid)))[0]);

function expectFrench400(response: { statusCode: number; json: () => { message: string; details?: { path: string; message: string }[] } }, path: string, message: string) {
  expect(response.statusCode).toBe(400);
  expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
}

describe('POST /api/organization-invitation', () => {
  it('invites an address with a role: a 7-day link by e-mail, in French, its token stored hashed', async () => {
    const email = freshEmail();
    const response = await invite(tokens.admin!, { email: email.toUpperCase(), role: 'ADMIN' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ email, role: 'ADMIN', invitedBy: { firstName: 'Julien', lastName: 'Martin' } });
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);

    const [mail] = await mailsTo(email);
    expect(mail!.subject).toBe('Julien Martin vous invite à rejoindre Transports Alpha sur FlotteAssur');
    expect(mail!.text).toContain('valable 7 jours');
    expect(mail!.organizationUuid).toBe(alpha.uuid);
    const token = await tokenSentTo(email);
    const row = await invitationRow(body.uuid);
    expect(row!.tokenHash).not.toContain(token);
    expect(row!.organizationUuid).toBe(alpha.uuid);
  });

  it('refuses a current member (whatever the case of the address) with 409, writing nothing', async () => {
    const before = await footprint();
    const response = await invite(tokens.admin!, { email: 'Membre@Alpha.fr', role: 'USER' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(ALREADY_MEMBER_MESSAGE);
    expect(await footprint()).toBe(before);
  });

  it('replaces a pending invitation of the same address: the old link stops working, the new role counts', async () => {
    const email = freshEmail();
    const first = await invite(tokens.admin!, { email, role: 'USER' });
    const oldToken = await tokenSentTo(email);
    const second = await invite(tokens.admin!, { email, role: 'ADMIN' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ uuid: first.json().uuid, role: 'ADMIN' });
    expect((await check({ token: oldToken })).statusCode).toBe(400);
    const preview = await check({ token: await tokenSentTo(email) });
    expect(preview.json().role).toBe('ADMIN');
    const pending = (await list(tokens.admin!, `?search=${encodeURIComponent(email)}`)).json();
    expect(pending.data).toHaveLength(1);
    // Two at once end as one too.
    await Promise.all([invite(tokens.admin!, { email, role: 'USER' }), invite(tokens.admin!, { email, role: 'USER' })]);
    expect((await list(tokens.admin!, `?search=${encodeURIComponent(email)}`)).json().data).toHaveLength(1);
  });

  it.each([
    [{ email: 'pas-une-adresse', role: 'USER' }, 'email', 'Adresse e-mail invalide'],
    [{ email: '', role: 'USER' }, 'email', "L'adresse e-mail est obligatoire"],
    [{ email: 'a@exemple.fr', role: 'ROOT' }, 'role', 'Rôle invalide : Administrateur ou Utilisateur'],
    [{ email: 'a@exemple.fr', role: 'SUPERADMIN' }, 'role', 'Rôle invalide'],
    [{ email: 'a@exemple.fr' }, 'role', 'Rôle invalide'],
    [{ email: 'a@exemple.fr', role: 'USER', organization: UNKNOWN_UUID }, '', 'Champ non reconnu : organization'],
  ])('refuses %j in French, writing nothing', async (payload, path, message) => {
    const before = await footprint();
    expectFrench400(await invite(tokens.admin!, payload), path, message);
    expect(await footprint()).toBe(before);
  });

  it('refuses a plain member and a user without organization (403), and asks for a token (401), writing nothing', async () => {
    const before = await footprint();
    const byUser = await invite(tokens.user!, { email: freshEmail(), role: 'USER' });
    expect(byUser.statusCode).toBe(403);
    expect(byUser.json().message).toBe("Seul un administrateur peut gérer les membres de l'organisation");
    expect((await invite(tokens.orphan!, { email: freshEmail(), role: 'USER' })).statusCode).toBe(403);
    expect((await invite(null, { email: freshEmail(), role: 'USER' })).statusCode).toBe(401);
    expect(await footprint()).toBe(before);
  });
});

describe('GET, resend and cancel', () => {
  it("lists only the current organization's pending invitations, newest first; an accepted one leaves the list", async () => {
    const mine = freshEmail();
    const theirs = freshEmail();
    await invite(tokens.admin!, { email: mine, role: 'USER' });
    await invite(tokens.beta!, { email: theirs, role: 'USER' });
    const page = (await list(tokens.admin!)).json();
    const emails = page.data.map((i: { email: string }) => i.email);
    expect(emails).toContain(mine);
    expect(emails).not.toContain(theirs);
    expect(emails[0]).toBe(mine);
    expect(page).toMatchObject({ page: 1, total: page.data.length });

    await accept({ token: await tokenSentTo(mine), firstName: 'Léa', lastName: 'Roux', password: PASSWORD, cguAccepted: true });
    expect((await list(tokens.admin!)).json().data.map((i: { email: string }) => i.email)).not.toContain(mine);
  });

  it('refuses the list to a plain member (403)', async () => {
    expect((await list(tokens.user!)).statusCode).toBe(403);
  });

  it('resends with a new 7-day link: the old one stops working', async () => {
    const email = freshEmail();
    const created = (await invite(tokens.admin!, { email, role: 'USER' })).json();
    const oldToken = await tokenSentTo(email);
    const past = new Date(Date.now() - 86_400_000);
    await t.seed((tx) => tx.update(organizationInvitations).set({ expiresAt: past }).where(eq(organizationInvitations.uuid, created.uuid)));
    // Expired: still listed, to be resent.
    expect((await list(tokens.admin!)).json().data.map((i: { uuid: string }) => i.uuid)).toContain(created.uuid);

    const response = await resend(tokens.admin!, created.uuid);
    expect(response.statusCode).toBe(200);
    expect(Date.parse(response.json().expiresAt)).toBeGreaterThan(Date.now() + 7 * 86_400_000 - 120_000);
    expect(await mailsTo(email)).toHaveLength(2);
    const newToken = await tokenSentTo(email);
    expect(newToken).not.toBe(oldToken);
    expect((await check({ token: oldToken })).statusCode).toBe(400);
    expect((await check({ token: newToken })).statusCode).toBe(200);
  });

  it('cancels: the link stops working, a second cancel is 404', async () => {
    const email = freshEmail();
    const created = (await invite(tokens.admin!, { email, role: 'USER' })).json();
    const token = await tokenSentTo(email);
    expect((await cancel(tokens.admin!, created.uuid)).statusCode).toBe(204);
    expect(await invitationRow(created.uuid)).toBeUndefined();
    expect((await check({ token })).statusCode).toBe(400);
    const again = await cancel(tokens.admin!, created.uuid);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(INVITATION_NOT_FOUND_MESSAGE);
  });

  it("answers another organization's invitation exactly as an unknown one (404), changing and sending nothing", async () => {
    const email = freshEmail();
    const theirs = (await invite(tokens.beta!, { email, role: 'USER' })).json();
    const before = await footprint();
    for (const action of [resend, cancel]) {
      const foreign = await action(tokens.admin!, theirs.uuid);
      const unknown = await action(tokens.admin!, UNKNOWN_UUID);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(unknown.json());
    }
    expect(await footprint()).toBe(before);
    expect((await invitationRow(theirs.uuid))!.tokenHash).toBeTruthy();
  });

  it('refuses resend and cancel to a plain member (403) and a malformed id (400), writing nothing', async () => {
    const created = (await invite(tokens.admin!, { email: freshEmail(), role: 'USER' })).json();
    const before = await footprint();
    expect((await resend(tokens.user!, created.uuid)).statusCode).toBe(403);
    expect((await cancel(tokens.user!, created.uuid)).statusCode).toBe(403);
    expect((await resend(null, created.uuid)).statusCode).toBe(401);
    expectFrench400(await cancel(tokens.admin!, 'pas-un-uuid'), 'uuid', 'Identifiant invalide');
    expect(await footprint()).toBe(before);
  });
});

describe('the link: check and accept as a new user', () => {
  it('shows who invites where, the address and whether it has an account', async () => {
    const email = freshEmail();
    await invite(tokens.admin!, { email, role: 'USER' });
    const preview = await check({ token: await tokenSentTo(email) });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ organization: { title: 'Transports Alpha' }, inviterName: 'Julien Martin', email, role: 'USER', accountExists: false });

    await invite(tokens.beta!, { email: 'orphelin@exemple.fr', role: 'USER' });
    expect((await check({ token: await tokenSentTo('orphelin@exemple.fr') })).json().accountExists).toBe(true);
  });

  it('creates the account, confirmed, with the terms accepted, links it with its role, signs it in there', async () => {
    const email = freshEmail();
    await invite(tokens.admin!, { email, role: 'ADMIN' });
    const token = await tokenSentTo(email);
    const response = await accept({ token, firstName: ' Léa ', lastName: 'Roux', password: PASSWORD, cguAccepted: true });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.user).toMatchObject({ email, firstName: 'Léa', lastName: 'Roux', roles: ['ADMIN'], cguAcceptedVersion: CGU_VERSION, currentOrganizationUser: { organization: { uuid: alpha.uuid } } });
    expect(securityEventsOf(logs.lines, response)).toEqual([
      expect.objectContaining({ event: 'login.succeeded', method: 'invitation-link', userUuid: body.user.uuid, organizationUuid: alpha.uuid }),
    ]);
    expect(response.cookies.find((c) => c.name === REFRESH_COOKIE)).toBeTruthy();
    // The access token works, and the new member sees its organization's members.
    const members = await call(body.tokens.access_token, { method: 'GET', url: `/api/organization-user?organization=${alpha.uuid}` });
    expect(members.json().data.find((l: { user: { email: string } }) => l.user.email === email)).toMatchObject({ role: 'ADMIN' });
    // And signs in with its password.
    expect(await t.login(email, PASSWORD)).toBeTruthy();

    // Single use.
    const before = await footprint();
    const again = await accept({ token, firstName: 'Léa', lastName: 'Roux', password: PASSWORD, cguAccepted: true });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(INVITATION_LINK_INVALID_MESSAGE);
    expect((await check({ token })).statusCode).toBe(400);
    expect(await footprint()).toBe(before);
  });

  it.each([
    [{ firstName: '', lastName: 'Roux', password: PASSWORD, cguAccepted: true }, 'firstName', 'Le prénom est obligatoire'],
    [{ firstName: 'Léa', lastName: 'Roux', password: 'court', cguAccepted: true }, 'password', '12 caractères'],
    [{ firstName: 'Léa', lastName: 'Roux', password: 'azerty123456', cguAccepted: true }, 'password', 'plus utilisés'],
    [{ firstName: 'Léa', lastName: 'Roux', password: PASSWORD, cguAccepted: false }, 'cguAccepted', "Acceptez les conditions générales d'utilisation"],
    [{ firstName: 'Léa', lastName: 'Roux', password: PASSWORD }, 'cguAccepted', "Acceptez les conditions générales d'utilisation"],
    [{ firstName: 'Léa', lastName: 'Roux', password: PASSWORD, cguAccepted: true, roles: ['ROOT'] }, '', 'Champ non reconnu : roles'],
  ])('refuses %j in French, writing nothing; the link still works after', async (fields, path, message) => {
    const email = freshEmail();
    await invite(tokens.admin!, { email, role: 'USER' });
    const token = await tokenSentTo(email);
    const before = await footprint();
    expectFrench400(await accept({ token, ...fields }), path, message);
    expect(await footprint()).toBe(before);
    expect((await check({ token })).statusCode).toBe(200);
  });

  it('refuses an address that has an account (409: sign in to accept), writing nothing', async () => {
    await invite(tokens.admin!, { email: 'orphelin@exemple.fr', role: 'USER' });
    const token = await tokenSentTo('orphelin@exemple.fr');
    const before = await footprint();
    const response = await accept({ token, firstName: 'Autre', lastName: 'Personne', password: PASSWORD, cguAccepted: true });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(ACCOUNT_EXISTS_MESSAGE);
    expect(await footprint()).toBe(before);
  });

  it('refuses an expired, a cancelled, a made-up and a malformed link with the same French message, writing nothing', async () => {
    const expired = await t.seed((tx) => createInvitation(tx, { organizationUuid: alpha.uuid, email: freshEmail(), expiresAt: new Date(Date.now() - 1000) }));
    const before = await footprint();
    for (const token of [expired.token, 'jeton-invente-0123456789abcdef', '', 'a'.repeat(201), 'pas un jeton !', 42]) {
      for (const response of [await check({ token }), await accept({ token, firstName: 'Léa', lastName: 'Roux', password: PASSWORD, cguAccepted: true })]) {
        expect(response.statusCode).toBe(400);
        expect(response.json().details).toContainEqual({ path: 'token', message: INVITATION_LINK_INVALID_MESSAGE });
      }
    }
    expect(await footprint()).toBe(before);
  });

  it('of two racing uses of one link, exactly one creates an account', async () => {
    const email = freshEmail();
    await invite(tokens.admin!, { email, role: 'USER' });
    const token = await tokenSentTo(email);
    const answers = await Promise.all([1, 2].map((n) => accept({ token, firstName: `Léa ${n}`, lastName: 'Roux', password: PASSWORD, cguAccepted: true })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 400]);
    const accounts = await t.seed((tx) => tx.select().from(users).where(eq(users.email, email)));
    expect(accounts).toHaveLength(1);
  });

  it.runIf(inject('testDb').kind === 'postgres')('an account made for the address between the check and the insert: 409, never a 500', async () => {
    const email = freshEmail();
    await invite(tokens.admin!, { email, role: 'USER' });
    const token = await tokenSentTo(email);
    // Another transaction (a signup) has inserted the address and not committed: the acceptance
    // checks, finds nobody, then waits on the unique index until that transaction commits.
    let inserted!: () => void;
    let release!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const other = t.seed(async (tx) => {
      await createUser(tx, { email });
      inserted();
      await gate;
    });
    await insertedOnce;
    const accepting = accept({ token, firstName: 'Léa', lastName: 'Roux', password: PASSWORD, cguAccepted: true });
    await vi.waitFor(
      async () => {
        const { rows } = (await t.database.db.execute(sql`select count(*)::int as n from pg_locks where not granted`)) as unknown as { rows: { n: number }[] };
        expect(rows[0]!.n).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 50 },
    );
    release();
    await other;
    const response = await accepting;
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(ACCOUNT_EXISTS_MESSAGE);
    expect(await t.seed((tx) => tx.select().from(users).where(eq(users.email, email)))).toHaveLength(1);
    // The link was not spent: the new account's owner can still join with it once signed in.
    expect((await check({ token })).statusCode).toBe(200);
  });

  it('an invitation accepted while a signup for the same address runs: one account, a 409 or a link, never a 500', async () => {
    for (let round = 0; round < 4; round++) {
      const email = freshEmail();
      await invite(tokens.admin!, { email, role: 'USER' });
      const token = await tokenSentTo(email);
      const [accepted, signedUp] = await Promise.all([
        accept({ token, firstName: 'Léa', lastName: 'Roux', password: PASSWORD, cguAccepted: true }),
        call(null, {
          method: 'POST',
          url: '/api/auth/signup',
          payload: { firstName: 'Léa', lastName: 'Roux', email, password: PASSWORD, cguVersion: CGU_VERSION },
          remoteAddress: `10.77.${round}.1`,
        }),
      ]);
      expect([201, 409]).toContain(accepted.statusCode);
      if (accepted.statusCode === 409) expect(accepted.json().message).toBe(ACCOUNT_EXISTS_MESSAGE);
      expect(signedUp.statusCode).toBe(202);
      expect(await t.seed((tx) => tx.select().from(users).where(eq(users.email, email)))).toHaveLength(1);
    }
  });
});

describe('POST /api/invitation/join (an existing user, signed in)', () => {
  it('links the signed-in user whose address was invited, with the role, and switches its current organization', async () => {
    const email = freshEmail();
    const existing = await t.seed(async (tx) => {
      const user = await createUser(tx, { email });
      await linkUser(tx, beta.uuid, user.uuid, 'USER');
      return user;
    });
    const session = await t.login(email);
    await invite(tokens.admin!, { email, role: 'ADMIN' });
    const token = await tokenSentTo(email);
    const response = await join(session, { token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ uuid: existing.uuid, roles: ['ADMIN'], currentOrganizationUser: { organization: { uuid: alpha.uuid } } });
    const links = await t.seed((tx) => tx.select({ organizationUuid: organizationUsers.organizationUuid, role: organizationUsers.role }).from(organizationUsers).where(eq(organizationUsers.userUuid, existing.uuid)));
    expect(links).toEqual(expect.arrayContaining([{ organizationUuid: alpha.uuid, role: 'ADMIN' }, { organizationUuid: beta.uuid, role: 'USER' }]));
    // Its context follows at once: it administers Alpha now.
    expect((await list(session)).statusCode).toBe(200);

    const again = await join(session, { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(INVITATION_LINK_INVALID_MESSAGE);
  });

  it("refuses a user whose address is not the invited one (403 in French), writing nothing; the link still works", async () => {
    const email = freshEmail();
    await invite(tokens.admin!, { email, role: 'USER' });
    const token = await tokenSentTo(email);
    const before = await footprint();
    const response = await join(tokens.beta!, { token });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(INVITATION_OTHER_EMAIL_MESSAGE);
    expect(await footprint()).toBe(before);
    expect((await check({ token })).statusCode).toBe(200);
  });

  it('asks for a token (401) and refuses an expired link (400), writing nothing', async () => {
    const expired = await t.seed((tx) => createInvitation(tx, { organizationUuid: alpha.uuid, email: 'chef@beta.fr', expiresAt: new Date(Date.now() - 1000) }));
    const before = await footprint();
    expect((await join(null, { token: expired.token })).statusCode).toBe(401);
    expect((await join(tokens.beta!, { token: expired.token })).statusCode).toBe(400);
    expect(await footprint()).toBe(before);
  });

  it('keeps the role of a user already member, and spends the link', async () => {
    const email = freshEmail();
    const member = await t.seed(async (tx) => {
      const user = await createUser(tx, { email });
      await linkUser(tx, alpha.uuid, user.uuid, 'USER');
      return user;
    });
    const invitation = await t.seed((tx) => createInvitation(tx, { organizationUuid: alpha.uuid, email, role: 'ADMIN' }));
    const response = await join(await t.login(email), { token: invitation.token });
    expect(response.statusCode).toBe(200);
    const [link] = await t.seed((tx) => tx.select({ role: organizationUsers.role }).from(organizationUsers).where(and(eq(organizationUsers.userUuid, member.uuid), eq(organizationUsers.organizationUuid, alpha.uuid))));
    expect(link!.role).toBe('USER');
    expect((await invitationRow(invitation.uuid))!.acceptedAt).not.toBeNull();
  });
});

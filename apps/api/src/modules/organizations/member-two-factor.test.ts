import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.js';
import { totpRecoveryCodes, trustedDevices, userTotp } from '../../db/schema/users.js';
import { attachToEnvironment, DEFAULT_TEST_PASSWORD, linkUser } from '../../seed/factories.js';
import { openOrganizations, organizationHelpers, type OrganizationFixtures, UNKNOWN_UUID } from '../../../test/fixtures/organizations.js';
import type { TestContext } from '../../../test/test-app.js';
import {
  TWO_FACTOR_NOT_ENABLED_MESSAGE,
  TWO_FACTOR_RESET_FORBIDDEN_MESSAGE,
  TWO_FACTOR_RESET_SELF_MESSAGE,
  TWO_FACTOR_RESET_STAFF_MESSAGE,
} from './member-two-factor.js';

// A member who lost its authenticator app and its recovery codes: the broker (the environment's
// superadmin) or ROOT turns its two-factor sign-in off (decision 035). Members of Messagerie Ouest
// (orgW, environment A of super-a) are fresh users with a second factor written straight in.
let t: TestContext;
let f: OrganizationFixtures;
let tokens: Record<string, string>;
const { call, freshUser } = organizationHelpers(() => t);

beforeAll(async () => {
  ({ t, f, tokens } = await openOrganizations(['root', 'super-a', 'super-b', 'admin-a', 'admin-w', 'user-w']));
});
afterAll(() => t.close());

/** A fresh member of orgW, signed in, then given a second factor, ten recovery codes and a remembered browser. */
async function memberWithTwoFactor(roles: ('USER' | 'SUPERADMIN')[] = ['USER'], setup?: (uuid: string) => Promise<void>) {
  const user = await freshUser(roles, setup);
  const link = await t.seed((tx) => linkUser(tx, f.orgW.uuid, user.uuid));
  const token = await user.login();
  await t.seed(async (tx) => {
    await tx.insert(userTotp).values({ userUuid: user.uuid, secret: 'v1.chiffre', enabledAt: new Date() });
    await tx.insert(totpRecoveryCodes).values(Array.from({ length: 10 }, (_, i) => ({ userUuid: user.uuid, codeHash: `code-${user.uuid}-${i}` })));
    await tx.insert(trustedDevices).values({ userUuid: user.uuid, tokenHash: `device-${user.uuid}`, expiresAt: new Date(Date.now() + 86_400_000) });
  });
  return { ...user, link: link.uuid, token };
}

const reset = (token: string | null, linkUuid: string) => call(token, { method: 'DELETE', url: `/api/organization-user/${linkUuid}/two-factor` });
const secondFactorOf = (userUuid: string) =>
  t.seed(async (tx) => ({
    key: (await tx.select({ n: count() }).from(userTotp).where(eq(userTotp.userUuid, userUuid)))[0]!.n,
    codes: (await tx.select({ n: count() }).from(totpRecoveryCodes).where(eq(totpRecoveryCodes.userUuid, userUuid)))[0]!.n,
    devices: (await tx.select({ n: count() }).from(trustedDevices).where(eq(trustedDevices.userUuid, userUuid)))[0]!.n,
  }));
const mailsTo = (email: string) => t.seed((tx) => tx.select({ subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.recipient, email)));
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

describe('DELETE /api/organization-user/{id}/two-factor', () => {
  it('lets the environment’s superadmin turn a member’s second factor off: key, codes and browsers go, sessions end, the member is told', async () => {
    const member = await memberWithTwoFactor();
    const listed = await call(tokens['super-a']!, { method: 'GET', url: `/api/organization-user?organization=${f.orgW.uuid}&limit=100` });
    expect(listed.json().data.find((l: { uuid: string }) => l.uuid === member.link).user.twoFactor).toBe(true);

    const response = await reset(tokens['super-a']!, member.link);
    expect(response.statusCode).toBe(204);
    expect(await secondFactorOf(member.uuid)).toEqual({ key: 0, codes: 0, devices: 0 });
    expect((await me(member.token)).statusCode).toBe(401);
    // The password alone opens a session now.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: member.email, password: DEFAULT_TEST_PASSWORD } });
    expect(login.statusCode === 200 ? login.json().tokens : undefined).toBeDefined();
    const [mail] = await mailsTo(member.email);
    // Under the broker's name: the environment of the organization.
    expect(mail!.subject).toBe('La double authentification de votre compte Cabinet Horizon a été désactivée');
    expect(mail!.text).toContain('à la demande de l’organisation Messagerie Ouest');
    const after = await call(tokens['super-a']!, { method: 'GET', url: `/api/organization-user?organization=${f.orgW.uuid}&limit=100` });
    expect(after.json().data.find((l: { uuid: string }) => l.uuid === member.link).user.twoFactor).toBe(false);
    // Nothing left to turn off.
    expect((await reset(tokens['super-a']!, member.link)).json()).toMatchObject({ statusCode: 409, message: TWO_FACTOR_NOT_ENABLED_MESSAGE });
  });

  it('tells whether members sign in with a code only to those who may reset it', async () => {
    await memberWithTwoFactor();
    for (const who of ['admin-w', 'user-w']) {
      const listed = await call(tokens[who]!, { method: 'GET', url: `/api/organization-user?organization=${f.orgW.uuid}&limit=100` });
      expect(listed.statusCode).toBe(200);
      expect(new Set(listed.json().data.map((l: { user: { twoFactor: unknown } }) => l.user.twoFactor))).toEqual(new Set([null]));
    }
    const root = await call(tokens.root!, { method: 'GET', url: `/api/organization-user?organization=${f.orgW.uuid}&limit=100` });
    expect(root.json().data.some((l: { user: { twoFactor: unknown } }) => l.user.twoFactor === true)).toBe(true);
    // One's own links (no organization asked): never told.
    const own = await call(tokens['super-a']!, { method: 'GET', url: '/api/organization-user' });
    expect(own.json().data.every((l: { user: { twoFactor: unknown } }) => l.user.twoFactor === null)).toBe(true);
  });

  it('refuses the organization’s administrator and members (403), anyone else (404), changing nothing', async () => {
    const member = await memberWithTwoFactor();
    for (const who of ['admin-w', 'user-w']) {
      expect((await reset(tokens[who]!, member.link)).json()).toMatchObject({ statusCode: 403, message: TWO_FACTOR_RESET_FORBIDDEN_MESSAGE });
    }
    for (const who of ['super-b', 'admin-a']) expect((await reset(tokens[who]!, member.link)).statusCode).toBe(404);
    expect((await reset(tokens['super-a']!, UNKNOWN_UUID)).statusCode).toBe(404);
    expect((await reset(tokens['super-a']!, 'pas-un-uuid')).statusCode).toBe(400);
    expect((await reset(null, member.link)).statusCode).toBe(401);
    expect(await secondFactorOf(member.uuid)).toEqual({ key: 1, codes: 10, devices: 1 });
    expect((await me(member.token)).statusCode).toBe(200);
    expect(await mailsTo(member.email)).toEqual([]);
  });

  it('leaves a superadmin’s second factor to ROOT, and one’s own to the account page', async () => {
    const staff = await memberWithTwoFactor(['SUPERADMIN']);
    expect((await reset(tokens['super-a']!, staff.link)).json()).toMatchObject({ statusCode: 403, message: TWO_FACTOR_RESET_STAFF_MESSAGE });
    expect(await secondFactorOf(staff.uuid)).toEqual({ key: 1, codes: 10, devices: 1 });
    expect((await reset(tokens.root!, staff.link)).statusCode).toBe(204);
    expect(await secondFactorOf(staff.uuid)).toEqual({ key: 0, codes: 0, devices: 0 });

    // A superadmin of environment A, member of its client orgW, signed in before its second factor.
    const self = await memberWithTwoFactor(['SUPERADMIN'], async (uuid) => void (await t.seed((tx) => attachToEnvironment(tx, f.envA.uuid, uuid))));
    expect((await reset(self.token, self.link)).json()).toMatchObject({ statusCode: 403, message: TWO_FACTOR_RESET_SELF_MESSAGE });
    expect(await secondFactorOf(self.uuid)).toEqual({ key: 1, codes: 10, devices: 1 });
  });
});

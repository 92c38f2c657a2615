import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users.js';
import { attachToEnvironment, createEnvironment, createOrganization, createUser, linkUser, type UserInput } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

let t: TestContext;
let f: Awaited<ReturnType<typeof fixtures>>;
const tokens: Record<string, string> = {};

async function fixtures() {
  return t.seed(async (tx) => {
    const envA = await createEnvironment(tx, { title: 'Cabinet A' });
    const envB = await createEnvironment(tx, { title: 'Cabinet B' });
    const orgA1 = await createOrganization(tx, { title: 'Alpha Un', environmentUuid: envA.uuid });
    const orgA2 = await createOrganization(tx, { title: 'Alpha Deux', environmentUuid: envA.uuid });
    const orgB1 = await createOrganization(tx, { title: 'Bêta Un', environmentUuid: envB.uuid });
    const user = await createUser(tx, { email: 'user@exemple.fr', firstName: 'Claire', lastName: 'Petit' });
    const userA1 = await linkUser(tx, orgA1.uuid, user.uuid);
    const userA2 = await linkUser(tx, orgA2.uuid, user.uuid);
    const colleague = await createUser(tx, { email: 'collegue@exemple.fr' });
    const colleagueA1 = await linkUser(tx, orgA1.uuid, colleague.uuid);
    const outsider = await createUser(tx, { email: 'dehors@exemple.fr' });
    const outsiderB1 = await linkUser(tx, orgB1.uuid, outsider.uuid);
    const superA = await createUser(tx, { email: 'super-a@exemple.fr', roles: ['SUPERADMIN'] });
    await attachToEnvironment(tx, envA.uuid, superA.uuid);
    const root = await createUser(tx, { email: 'root@exemple.fr', roles: ['ROOT'] });
    return { orgA1, orgA2, orgB1, user, userA1, userA2, colleague, colleagueA1, outsiderB1, superA, root };
  });
}

beforeAll(async () => {
  t = await createTestApp();
  f = await fixtures();
  for (const email of ['user@exemple.fr', 'collegue@exemple.fr', 'super-a@exemple.fr', 'root@exemple.fr']) {
    tokens[email] = await t.login(email);
  }
});
afterAll(() => t.close());

const patch = (email: string, uuid: string, payload: unknown) =>
  t.as(tokens[email]!, { method: 'PATCH', url: `/api/user/${uuid}`, payload: payload as object });
const storedUser = async (uuid: string) => (await t.seed((tx) => tx.select().from(users).where(eq(users.uuid, uuid))))[0]!;

let ownUsers = 0;
/**
 * A user of its own for a test that changes it, member of Alpha Un and Alpha Deux like the shared
 * one (whose rows the other tests compare before and after); logged in, so it sits in Alpha Deux.
 */
async function ownUser(input: UserInput = {}) {
  const email = `propre-${++ownUsers}@exemple.fr`;
  const own = await t.seed(async (tx) => {
    const user = await createUser(tx, { firstName: 'Claire', lastName: 'Petit', ...input, email });
    return { ...user, linkA1: await linkUser(tx, f.orgA1.uuid, user.uuid), linkA2: await linkUser(tx, f.orgA2.uuid, user.uuid) };
  });
  tokens[email] = await t.login(email);
  return own;
}

describe('PATCH /api/user/{uuid}', () => {
  it('edits its own names, phone (stored E.164) and description', async () => {
    const own = await ownUser();
    const response = await patch(own.email, own.uuid, {
      firstName: ' Clarisse ',
      lastName: 'Petit-Jean',
      phone: '06 12 34 56 78',
      description: 'Gestionnaire de parc',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstName: 'Clarisse', lastName: 'Petit-Jean', phone: '+33612345678', description: 'Gestionnaire de parc' });
    expect(await storedUser(own.uuid)).toMatchObject({ firstName: 'Clarisse', phone: '+33612345678' });
  });

  it('clears the phone and description with empty strings', async () => {
    const own = await ownUser({ phone: '+33612345678', description: 'Gestionnaire de parc' });
    const response = await patch(own.email, own.uuid, { phone: '', description: '' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ phone: null, description: null });
    expect(await storedUser(own.uuid)).toMatchObject({ phone: null, description: null });
  });

  it.each([
    [{ phone: '12' }, 'phone', 'Numéro de téléphone invalide'],
    [{ firstName: '' }, 'firstName', 'Le prénom est obligatoire'],
    [{ lastName: 'x'.repeat(101) }, 'lastName', '100 caractères'],
    [{ currentOrganizationUser: 'pas-un-uuid' }, 'currentOrganizationUser', 'invalide'],
  ])('refuses %j with a French message and changes nothing', async (payload, path, message) => {
    const before = await storedUser(f.user.uuid);
    const response = await patch('user@exemple.fr', f.user.uuid, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await storedUser(f.user.uuid)).toEqual(before);
  });

  it.each([
    [{ roles: ['ROOT'] }, 'roles'],
    [{ email: 'pirate@exemple.fr' }, 'email'],
    [{ passwordHash: 'x' }, 'passwordHash'],
    [{ password: 'Nouveau1234!' }, 'password'],
    [{ firstName: 'Ok', roles: ['ADMIN'] }, 'roles'],
  ])('refuses mass assignment of %j', async (payload, key) => {
    const before = await storedUser(f.user.uuid);
    const response = await patch('user@exemple.fr', f.user.uuid, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(key);
    expect(await storedUser(f.user.uuid)).toEqual(before);
  });

  it("answers 404 for another user's uuid, even a colleague's, and changes nothing", async () => {
    const before = await storedUser(f.colleague.uuid);
    const response = await patch('user@exemple.fr', f.colleague.uuid, { firstName: 'Pirate' });
    expect(response.statusCode).toBe(404);
    expect(await storedUser(f.colleague.uuid)).toEqual(before);
  });

  it('switches organization through its own link', async () => {
    // Logged in, it sits in Alpha Deux (the first by title): the switch goes to Alpha Un.
    const own = await ownUser();
    expect((await storedUser(own.uuid)).currentOrganizationUserUuid).toBe(own.linkA2.uuid);
    const response = await patch(own.email, own.uuid, { currentOrganizationUser: { uuid: own.linkA1.uuid } });
    expect(response.statusCode).toBe(200);
    expect(response.json().currentOrganizationUser).toMatchObject({ uuid: own.linkA1.uuid, organization: { uuid: f.orgA1.uuid, title: 'Alpha Un' } });
    const me = await t.as(tokens[own.email]!, { method: 'GET', url: '/api/auth/me' });
    expect(me.json().currentOrganizationUser.uuid).toBe(own.linkA1.uuid);
  });

  it("refuses a plain user switching through someone else's link (404, unchanged)", async () => {
    const before = await storedUser(f.user.uuid);
    for (const link of [f.colleagueA1, f.outsiderB1, { uuid: '00000000-0000-4000-8000-000000000000' }]) {
      const response = await patch('user@exemple.fr', f.user.uuid, { currentOrganizationUser: link.uuid });
      expect(response.statusCode).toBe(404);
    }
    expect(await storedUser(f.user.uuid)).toEqual(before);
  });

  it("lets a superadmin switch into an organization of its environment, not of another one", async () => {
    const inside = await patch('super-a@exemple.fr', f.superA.uuid, { currentOrganizationUser: f.colleagueA1.uuid });
    expect(inside.statusCode).toBe(200);
    expect(inside.json().currentOrganizationUser.organization.uuid).toBe(f.orgA1.uuid);
    const outside = await patch('super-a@exemple.fr', f.superA.uuid, { currentOrganizationUser: f.outsiderB1.uuid });
    expect(outside.statusCode).toBe(404);
    expect((await storedUser(f.superA.uuid)).currentOrganizationUserUuid).toBe(f.colleagueA1.uuid);
  });

  it('lets ROOT switch anywhere', async () => {
    const response = await patch('root@exemple.fr', f.root.uuid, { currentOrganizationUser: f.outsiderB1.uuid });
    expect(response.statusCode).toBe(200);
    expect(response.json().currentOrganizationUser.organization.title).toBe('Bêta Un');
  });

  it('requires a token', async () => {
    const response = await t.app.inject({ method: 'PATCH', url: `/api/user/${f.user.uuid}`, payload: { firstName: 'X' } });
    expect(response.statusCode).toBe(401);
  });

  it('rejects a malformed uuid with a 400', async () => {
    const response = await patch('user@exemple.fr', 'abc', { firstName: 'X' });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path: 'uuid', message: 'Identifiant invalide' });
  });
});

describe('login picks a current organization', () => {
  it('a user without a current organization lands in its first one (by title)', async () => {
    const fresh = await t.seed(async (tx) => {
      const u = await createUser(tx, { email: 'nouveau@exemple.fr' });
      await linkUser(tx, f.orgA1.uuid, u.uuid);
      await linkUser(tx, f.orgA2.uuid, u.uuid);
      return u;
    });
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nouveau@exemple.fr', password: 'Motdepasse-tests-1' } });
    expect(response.json().user.currentOrganizationUser.organization.title).toBe('Alpha Deux');
    expect((await storedUser(fresh.uuid)).currentOrganizationUserUuid).not.toBeNull();
  });
});

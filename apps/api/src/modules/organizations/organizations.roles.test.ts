import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationUsers } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';
import { withSystem } from '../../db/scope.js';
import { createOrganization, linkUser } from '../../seed/factories.js';
import { expectInvalid, openOrganizations, organizationHelpers, type OrganizationFixtures, UNKNOWN_UUID } from '../../../test/fixtures/organizations.js';
import type { TestContext } from '../../../test/test-app.js';
import { LAST_ADMIN_DEMOTE_MESSAGE, LAST_ADMIN_REMOVE_MESSAGE, organizationsWhereLastAdmin } from './organizations.service.js';

// Decision 034: ADMIN is a member's role in one organization. Every test writes in organizations
// of its own (or fresh links), so the shared fixtures stay as they are.
let t: TestContext;
let f: OrganizationFixtures;
let tokens: Record<string, string>;
const { call, freshUser } = organizationHelpers(() => t);

beforeAll(async () => {
  ({ t, f, tokens } = await openOrganizations(['root', 'super-a', 'super-b', 'admin-a', 'admin-b', 'user-a', 'admin-w', 'user-w']));
});
afterAll(() => t.close());

const patch = (token: string | null, id: string, payload: unknown) =>
  call(token, { method: 'PATCH', url: `/api/organization-user/${id}`, payload: payload as InjectOptions['payload'] });
const del = (token: string | null, id: string) => call(token, { method: 'DELETE', url: `/api/organization-user/${id}` });
const roleOf = (linkUuid: string) =>
  t.seed(async (tx) => (await tx.select({ role: organizationUsers.role }).from(organizationUsers).where(eq(organizationUsers.uuid, linkUuid)))[0]?.role);
const me = async (token: string) => (await call(token, { method: 'GET', url: '/api/auth/me' })).json();

/** An organization of its own with the members asked (role by role), each with its token on demand. */
async function team(...roles: ('ADMIN' | 'USER')[]) {
  const org = await t.seed((tx) => createOrganization(tx, { title: `Équipe ${Math.random().toString(36).slice(2, 7)}`, environmentUuid: f.envA.uuid }));
  const members = [];
  for (const role of roles) {
    const user = await freshUser();
    const link = await t.seed((tx) => linkUser(tx, org.uuid, user.uuid, role));
    members.push({ ...user, link: link.uuid, role });
  }
  return { org, members };
}

describe('roles per organization', () => {
  it("gives ADMIN only in the organization whose link says so: the context and /auth/me follow the current organization", async () => {
    const { org: ruled } = await team();
    const { org: joined } = await team();
    const person = await freshUser();
    const adminLink = await t.seed((tx) => linkUser(tx, ruled.uuid, person.uuid, 'ADMIN'));
    const userLink = await t.seed((tx) => linkUser(tx, joined.uuid, person.uuid, 'USER'));
    const token = await person.login();
    const switchTo = (link: string) => call(token, { method: 'PATCH', url: `/api/user/${person.uuid}`, payload: { currentOrganizationUser: link } });

    expect((await switchTo(adminLink.uuid)).json().roles).toEqual(['ADMIN']);
    expect((await me(token)).roles).toEqual(['ADMIN']);
    const invite = (email: string) => call(token, { method: 'POST', url: '/api/organization-invitation', payload: { email, role: 'USER' } });
    expect((await invite('collegue.a@exemple.fr')).statusCode).toBe(201);

    expect((await switchTo(userLink.uuid)).json().roles).toEqual(['USER']);
    expect((await me(token)).roles).toEqual(['USER']);
    const refused = await invite('collegue.b@exemple.fr');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Seul un administrateur peut gérer les membres de l'organisation");
    // users.roles holds no ADMIN any more: it is the link's.
    const [stored] = await t.seed((tx) => tx.select({ roles: users.roles }).from(users).where(eq(users.uuid, person.uuid)));
    expect(stored!.roles).toEqual(['USER']);
  });

  it('keeps SUPERADMIN and ROOT global, with ADMIN beside them where a link says so', async () => {
    expect((await me(tokens.root!)).roles).toEqual(['ROOT']);
    const { org } = await team();
    const superadmin = await freshUser(['SUPERADMIN']);
    const link = await t.seed((tx) => linkUser(tx, org.uuid, superadmin.uuid, 'ADMIN'));
    const token = await superadmin.login();
    const profile = await call(token, { method: 'PATCH', url: `/api/user/${superadmin.uuid}`, payload: { currentOrganizationUser: link.uuid } });
    expect(profile.json().roles).toEqual(['SUPERADMIN', 'ADMIN']);
  });

  it("applies a role change at once, though the member's context was just cached (decision 008)", async () => {
    const { members } = await team('ADMIN', 'USER');
    const [admin, member] = members as [(typeof members)[number], (typeof members)[number]];
    const memberToken = await member.login();
    expect((await me(memberToken)).roles).toEqual(['USER']);
    // Read once more: the context is in the cache now.
    expect((await call(memberToken, { method: 'GET', url: '/api/organization-invitation' })).statusCode).toBe(403);

    const promoted = await patch(await admin.login(), member.link, { role: 'ADMIN' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ uuid: member.link, role: 'ADMIN', user: { uuid: member.uuid } });
    expect((await me(memberToken)).roles).toEqual(['ADMIN']);
    expect((await call(memberToken, { method: 'GET', url: '/api/organization-invitation' })).statusCode).toBe(200);
  });
});

describe('PATCH /api/organization-user/:id', () => {
  it('lets an ADMIN member promote and demote a member; the list shows each role', async () => {
    const { org, members } = await team('ADMIN', 'USER');
    const [admin, member] = members as [(typeof members)[number], (typeof members)[number]];
    const token = await admin.login();
    expect((await patch(token, member.link, { role: 'ADMIN' })).json().role).toBe('ADMIN');
    expect(await roleOf(member.link)).toBe('ADMIN');
    const list = await call(token, { method: 'GET', url: `/api/organization-user?organization=${org.uuid}` });
    expect(list.json().data.map((l: { role: string }) => l.role)).toEqual(['ADMIN', 'ADMIN']);
    expect((await patch(token, member.link, { role: 'USER' })).json().role).toBe('USER');
    expect(await roleOf(member.link)).toBe('USER');
  });

  it('lets an ADMIN demote itself while another ADMIN remains', async () => {
    const { members } = await team('ADMIN', 'ADMIN');
    const [first, second] = members as [(typeof members)[number], (typeof members)[number]];
    const token = await first.login();
    expect((await patch(token, first.link, { role: 'USER' })).statusCode).toBe(200);
    expect(await roleOf(first.link)).toBe('USER');
    // Now a plain member: it may change nothing.
    expect((await patch(token, second.link, { role: 'USER' })).statusCode).toBe(403);
    expect(await roleOf(second.link)).toBe('ADMIN');
  });

  it.each([
    [{ role: 'ROOT' }, 'role', 'Rôle invalide : Administrateur ou Utilisateur'],
    [{ role: 'SUPERADMIN' }, 'role', 'Rôle invalide'],
    [{ role: 'admin' }, 'role', 'Rôle invalide'],
    [{}, 'role', 'Rôle invalide'],
    [{ role: 'ADMIN', roles: ['ROOT'] }, '', 'Champ non modifiable : roles'],
  ])('refuses %j in French and writes nothing', async (payload, path, message) => {
    const { members } = await team('ADMIN', 'USER');
    const [admin, member] = members as [(typeof members)[number], (typeof members)[number]];
    expectInvalid(await patch(await admin.login(), member.link, payload), path, message);
    expect(await roleOf(member.link)).toBe('USER');
  });

  it('requires a token and refuses a plain member (403), writing nothing', async () => {
    const { members } = await team('ADMIN', 'USER', 'USER');
    const [, member, other] = members as [(typeof members)[number], (typeof members)[number], (typeof members)[number]];
    expect((await patch(null, other.link, { role: 'ADMIN' })).statusCode).toBe(401);
    const refused = await patch(await member.login(), other.link, { role: 'ADMIN' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Seul un administrateur peut gérer les membres de l'organisation");
    expect(await roleOf(other.link)).toBe('USER');
  });

  it.each(['admin-a', 'admin-b', 'super-b', 'user-w'] as const)("answers %s changing another organization's member exactly as an unknown id (404), writing nothing", async (who) => {
    const { members } = await team('ADMIN', 'USER');
    const member = members[1]!;
    const foreign = await patch(tokens[who]!, member.link, { role: 'ADMIN' });
    const unknown = await patch(tokens[who]!, UNKNOWN_UUID, { role: 'ADMIN' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect(foreign.json().message).toBe("Lien d'organisation introuvable");
    expect(await roleOf(member.link)).toBe('USER');
  });

  it("lets the environment's superadmin and ROOT change roles", async () => {
    const { members } = await team('ADMIN', 'USER');
    const member = members[1]!;
    expect((await patch(tokens['super-a']!, member.link, { role: 'ADMIN' })).statusCode).toBe(200);
    expect((await patch(tokens.root!, member.link, { role: 'USER' })).statusCode).toBe(200);
    expect(await roleOf(member.link)).toBe('USER');
  });
});

describe('the last ADMIN', () => {
  it('cannot demote itself nor be demoted: 409 in French, nothing written', async () => {
    const { members } = await team('ADMIN', 'USER');
    const admin = members[0]!;
    for (const token of [await admin.login(), tokens['super-a']!, tokens.root!]) {
      const refused = await patch(token, admin.link, { role: 'USER' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ statusCode: 409, error: 'Conflict', message: LAST_ADMIN_DEMOTE_MESSAGE });
      expect(await roleOf(admin.link)).toBe('ADMIN');
    }
  });

  it('cannot be removed, by itself, its superadmin or ROOT: 409 in French, nothing deleted', async () => {
    const { members } = await team('ADMIN', 'USER');
    const admin = members[0]!;
    for (const token of [await admin.login(), tokens['super-a']!, tokens.root!]) {
      const refused = await del(token, admin.link);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ statusCode: 409, error: 'Conflict', message: LAST_ADMIN_REMOVE_MESSAGE });
      expect(await roleOf(admin.link)).toBe('ADMIN');
    }
  });

  it('may leave once another member is ADMIN, and a plain member may always be removed', async () => {
    const { members } = await team('ADMIN', 'USER', 'USER');
    const [admin, heir, plain] = members as [(typeof members)[number], (typeof members)[number], (typeof members)[number]];
    const token = await admin.login();
    expect((await del(token, plain.link)).statusCode).toBe(204);
    expect((await patch(token, heir.link, { role: 'ADMIN' })).statusCode).toBe(200);
    expect((await del(token, admin.link)).statusCode).toBe(204);
    expect(await roleOf(admin.link)).toBeUndefined();
    // The heir is now the last one.
    expect((await del(await heir.login(), heir.link)).statusCode).toBe(409);
  });

  it('organizationsWhereLastAdmin names the organizations a user is the only ADMIN of (account deletion)', async () => {
    const { org: alone } = await team('USER');
    const { org: shared, members } = await team('ADMIN');
    const { org: asUser } = await team('ADMIN');
    const person = await freshUser();
    await t.seed(async (tx) => {
      await linkUser(tx, alone.uuid, person.uuid, 'ADMIN');
      await linkUser(tx, shared.uuid, person.uuid, 'ADMIN');
      await linkUser(tx, asUser.uuid, person.uuid, 'USER');
    });
    const all = await withSystem(t.database.db, (tx) => organizationsWhereLastAdmin(tx, person.uuid));
    expect(all.map((o) => o.uuid)).toEqual([alone.uuid]);
    expect(await withSystem(t.database.db, (tx) => organizationsWhereLastAdmin(tx, person.uuid, shared.uuid))).toEqual([]);
    expect(await withSystem(t.database.db, (tx) => organizationsWhereLastAdmin(tx, members[0]!.uuid))).toEqual([]);
    expect(await withSystem(t.database.db, (tx) => organizationsWhereLastAdmin(tx, f.userA.uuid))).toEqual([]);
  });
});

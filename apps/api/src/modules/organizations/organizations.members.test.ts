import type { InjectOptions } from 'fastify';
import { attachToEnvironment, linkUser } from '../../seed/factories.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectInvalid, openOrganizations, organizationHelpers, type OrganizationFixtures, titles, UNKNOWN_UUID } from '../../../test/fixtures/organizations.js';
import type { TestContext } from '../../../test/test-app.js';

// Adding and removing members: the links written are those of fresh users, in Messagerie Ouest (orgW) mostly.
let t: TestContext;
let f: OrganizationFixtures;
let tokens: Record<string, string>;
const { call, countLinks, linkExists, freshUser } = organizationHelpers(() => t);

beforeAll(async () => {
  ({ t, f, tokens } = await openOrganizations(['root', 'super-a', 'super-b', 'admin-a', 'admin-b', 'user-b', 'admin-w', 'user-w']));
});
afterAll(() => t.close());

describe('POST /api/organization-user', () => {
  const post = (token: string | null, payload: unknown) => call(token, { method: 'POST', url: '/api/organization-user', payload: payload as InjectOptions['payload'] });

  it('requires a token, and writes nothing', async () => {
    const target = await freshUser();
    const before = await countLinks();
    const response = await post(null, { user: target.uuid, organization: f.orgW.uuid });
    expect(response.statusCode).toBe(401);
    expect(await countLinks()).toBe(before);
  });

  it("refuses an ADMIN member with 403 (an administrator invites), writes nothing and shows nothing of the account", async () => {
    const target = await freshUser();
    const before = await countLinks();
    for (const user of [target.uuid, UNKNOWN_UUID]) {
      const response = await post(tokens['admin-w']!, { user, organization: f.orgW.uuid });
      // The same answer for an account and for an unknown id: an administrator cannot probe ids.
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: "Un administrateur ajoute un membre en l'invitant : seul le superadmin de l'environnement rattache un compte existant",
      });
      expect(response.body).not.toContain('@');
    }
    expect(await countLinks()).toBe(before);
    const seen = await call(await target.login(), { method: 'GET', url: '/api/organization' });
    expect(titles(seen.json())).toEqual([]);
  });

  it("lets the environment's superadmin link a user, who then sees the organization", async () => {
    const target = await freshUser();
    const response = await post(tokens['super-a']!, { user: target.uuid, organization: f.orgW.uuid });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      organization: { uuid: f.orgW.uuid, title: 'Messagerie Ouest', environment: { uuid: f.envA.uuid } },
      user: { uuid: target.uuid, firstName: 'Nouveau', lastName: 'Venu', avatar: null },
    });
    expect(await linkExists(body.uuid)).toBe(true);

    const seen = await call(await target.login(), { method: 'GET', url: '/api/organization' });
    expect(titles(seen.json())).toEqual(['Messagerie Ouest']);
  });

  it('accepts {uuid} objects as well as uuid strings', async () => {
    const target = await freshUser();
    const response = await post(tokens['super-a']!, { user: { uuid: target.uuid }, organization: { uuid: f.orgW.uuid } });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.uuid).toBe(target.uuid);
  });

  it('refuses a USER member with 403 and writes nothing', async () => {
    const target = await freshUser();
    const before = await countLinks();
    const response = await post(tokens['user-w']!, { user: target.uuid, organization: f.orgW.uuid });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden', message: expect.stringContaining('administrateur') });
    expect(await countLinks()).toBe(before);
  });

  it.each([
    ['admin-b', 'orgW'],
    ['admin-a', 'orgW'],
    ['user-b', 'orgW'],
    ['super-b', 'orgW'],
    ['super-a', 'orgB1'],
    ['admin-w', 'orgN'],
  ] as const)('answers 404 to %s adding to %s (not its own), and writes nothing', async (who, org) => {
    const target = await freshUser();
    const before = await countLinks();
    const response = await post(tokens[who]!, { user: target.uuid, organization: f[org].uuid });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Organisation introuvable' });
    expect(await countLinks()).toBe(before);
  });

  it("lets the environment's superadmin link another user, and itself", async () => {
    const superadmin = await freshUser(['SUPERADMIN'], (uuid) => t.seed((tx) => attachToEnvironment(tx, f.envA.uuid, uuid)).then(() => undefined));
    const token = await superadmin.login();
    const target = await freshUser();
    const other = await post(token, { user: target.uuid, organization: f.orgW.uuid });
    expect(other.statusCode).toBe(201);

    const own = await post(token, { user: superadmin.uuid, organization: f.orgW.uuid });
    expect(own.statusCode).toBe(201);
    const links = await call(token, { method: 'GET', url: '/api/organization-user' });
    expect(links.json().data.map((l: { uuid: string }) => l.uuid)).toEqual([own.json().uuid]);
  });

  it('lets ROOT link anyone anywhere', async () => {
    const target = await freshUser();
    const response = await post(tokens.root!, { user: target.uuid, organization: f.orgN.uuid });
    expect(response.statusCode).toBe(201);
    expect(response.json().organization).toMatchObject({ uuid: f.orgN.uuid, environment: null });
  });

  it('answers 409 for a user already member, and writes nothing', async () => {
    const before = await countLinks();
    const response = await post(tokens['super-a']!, { user: f.userW.uuid, organization: f.orgW.uuid });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ statusCode: 409, message: "Cet utilisateur est déjà membre de l'organisation" });
    expect(await countLinks()).toBe(before);
  });

  it('answers 404 for an unknown user or organization, and writes nothing', async () => {
    const before = await countLinks();
    const user = await post(tokens['super-a']!, { user: UNKNOWN_UUID, organization: f.orgW.uuid });
    expect(user.statusCode).toBe(404);
    expect(user.json().message).toBe('Utilisateur introuvable');
    const organization = await post(tokens.root!, { user: f.userW.uuid, organization: UNKNOWN_UUID });
    expect(organization.statusCode).toBe(404);
    expect(organization.json().message).toBe('Organisation introuvable');
    expect(await countLinks()).toBe(before);
  });

  it("answers a superadmin 404 for another tenant's account, as for an unknown id, and writes nothing (issue 20, tenant matrix)", async () => {
    const elsewhere = await freshUser(['USER'], (uuid) => t.seed((tx) => linkUser(tx, f.orgB1.uuid, uuid)).then(() => undefined));
    const otherBroker = await freshUser(['SUPERADMIN'], (uuid) => t.seed((tx) => attachToEnvironment(tx, f.envB.uuid, uuid)).then(() => undefined));
    const before = await countLinks();
    for (const user of [elsewhere.uuid, otherBroker.uuid]) {
      const response = await post(tokens['super-a']!, { user, organization: f.orgW.uuid });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Utilisateur introuvable' });
    }
    expect(await countLinks()).toBe(before);
    // Once a member of one of its organizations, the account is the superadmin's to attach elsewhere in its environment.
    await t.seed((tx) => linkUser(tx, f.orgA2.uuid, elsewhere.uuid));
    expect((await post(tokens['super-a']!, { user: elsewhere.uuid, organization: f.orgW.uuid })).statusCode).toBe(201);
  });

  it.each([
    [{ organization: 'ORG' }, 'user', 'Utilisateur invalide'],
    [{ user: 'pas-un-uuid', organization: 'ORG' }, 'user', 'Identifiant invalide'],
    [{ user: 'USER', organization: { uuid: 'pas-un-uuid' } }, 'organization.uuid', 'Identifiant invalide'],
    [{ user: 'USER', organization: { id: 'ORG' } }, 'organization', 'Organisation invalide'],
    [{ user: 'USER', organization: 42 }, 'organization', 'Organisation invalide'],
    [{ user: 'USER', organization: 'ORG', role: 'ADMIN' }, '', 'Clé non reconnue'],
  ])('refuses %j with a French message and writes nothing', async (payload, path, message) => {
    const target = await freshUser();
    const body = JSON.parse(JSON.stringify(payload).replaceAll('"USER"', JSON.stringify(target.uuid)).replaceAll('"ORG"', JSON.stringify(f.orgW.uuid)));
    const before = await countLinks();
    expectInvalid(await post(tokens['admin-w']!, body), path, message);
    expect(await countLinks()).toBe(before);
  });

  it('refuses a body that is not JSON or empty, in French', async () => {
    const before = await countLinks();
    const broken = await call(tokens['admin-w']!, {
      method: 'POST',
      url: '/api/organization-user',
      headers: { 'content-type': 'application/json' },
      payload: '{"user":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe('Le corps de la requête n’est pas un JSON valide.');
    const empty = await call(tokens['admin-w']!, { method: 'POST', url: '/api/organization-user', headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Le corps de la requête est vide.');
    expect(await countLinks()).toBe(before);
  });
});

describe('DELETE /api/organization-user/:id', () => {
  /** A fresh member of an organization; its link is what the test deletes. */
  async function freshMember(organizationUuid: string) {
    const user = await freshUser();
    const link = await t.seed((tx) => linkUser(tx, organizationUuid, user.uuid));
    return { user, link };
  }
  const del = (token: string | null, id: string) => call(token, { method: 'DELETE', url: `/api/organization-user/${id}` });

  it('requires a token, and deletes nothing', async () => {
    const { link } = await freshMember(f.orgW.uuid);
    expect((await del(null, link.uuid)).statusCode).toBe(401);
    expect(await linkExists(link.uuid)).toBe(true);
  });

  it('lets an ADMIN member remove a member, who then no longer sees the organization', async () => {
    const { user, link } = await freshMember(f.orgW.uuid);
    const token = await user.login();
    const response = await del(tokens['admin-w']!, link.uuid);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await linkExists(link.uuid)).toBe(false);

    expect((await call(token, { method: 'GET', url: '/api/organization' })).json().total).toBe(0);
    const me = await call(token, { method: 'GET', url: '/api/auth/me' });
    expect(me.json().currentOrganizationUser).toBeNull();
  });

  it("ends a removed member's access to the organization's data at once (403), though its context was just cached", async () => {
    const { user, link } = await freshMember(f.orgW.uuid);
    const token = await user.login();
    // Read first: the member's context is now in the cache (decision 008).
    expect((await call(token, { method: 'GET', url: '/api/driver' })).statusCode).toBe(200);
    expect((await del(tokens['admin-w']!, link.uuid)).statusCode).toBe(204);
    for (const request of [
      { method: 'GET' as const, url: '/api/driver' },
      { method: 'GET' as const, url: '/api/vehicule' },
      { method: 'POST' as const, url: '/api/report', payload: { title: 'Après retrait', description: 'Ne doit pas arriver', type: 'bug' } },
    ]) {
      const response = await call(token, request);
      expect(response.statusCode, request.url).toBe(403);
      expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('refuses a USER member with 403 and deletes nothing', async () => {
    const { link } = await freshMember(f.orgW.uuid);
    const response = await del(tokens['user-w']!, link.uuid);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('administrateur');
    expect(await linkExists(link.uuid)).toBe(true);
  });

  it("lets the environment's superadmin and ROOT remove members", async () => {
    const bySuperadmin = await freshMember(f.orgW.uuid);
    expect((await del(tokens['super-a']!, bySuperadmin.link.uuid)).statusCode).toBe(204);
    expect(await linkExists(bySuperadmin.link.uuid)).toBe(false);

    const byRoot = await freshMember(f.orgB1.uuid);
    expect((await del(tokens.root!, byRoot.link.uuid)).statusCode).toBe(204);
    expect(await linkExists(byRoot.link.uuid)).toBe(false);
  });

  it.each([
    ['admin-b', 'orgW'],
    ['admin-a', 'orgW'],
    ['user-b', 'orgW'],
    ['super-b', 'orgW'],
    ['super-a', 'orgB1'],
    ['admin-w', 'orgN'],
  ] as const)("answers %s deleting a link of %s exactly as for an unknown id, and deletes nothing", async (who, org) => {
    const { link } = await freshMember(f[org].uuid);
    const foreign = await del(tokens[who]!, link.uuid);
    const unknown = await del(tokens[who]!, UNKNOWN_UUID);
    expect(foreign.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    // Same answer: a foreign id must not be told apart from one that does not exist.
    expect(foreign.json()).toEqual(unknown.json());
    expect(foreign.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect(await linkExists(link.uuid)).toBe(true);
  });

  it('answers 404 the second time', async () => {
    const { link } = await freshMember(f.orgW.uuid);
    expect((await del(tokens.root!, link.uuid)).statusCode).toBe(204);
    const again = await del(tokens.root!, link.uuid);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe("Lien d'organisation introuvable");
  });

  it('refuses a malformed id, deleting nothing', async () => {
    const before = await countLinks();
    expectInvalid(await del(tokens.root!, 'pas-un-uuid'), 'id', 'Identifiant invalide');
    expect(await countLinks()).toBe(before);
  });
});

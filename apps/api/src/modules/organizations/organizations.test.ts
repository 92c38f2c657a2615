import { OrganizationPageSchema, OrganizationUserSchema } from '@flotte/contract';
import { count, eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationUsers } from '../../db/schema/organizations.js';
import { attachToEnvironment, createEnvironment, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

/**
 * Two environments (brokers) with their client organizations, a third without superadmin, an
 * organization outside any environment, and every role. Tests that write build their own rows.
 */
let t: TestContext;
let f: Awaited<ReturnType<typeof seedFixtures>>;
const tokens: Record<string, string> = {};
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

async function seedFixtures() {
  return t.seed(async (tx) => {
    const envA = await createEnvironment(tx, { title: 'Cabinet Horizon' });
    const envB = await createEnvironment(tx, { title: 'Courtage Bêta' });
    const envC = await createEnvironment(tx, { title: 'Espace Sans Superadmin' });

    const orgA1 = await createOrganization(tx, { title: 'Étoile du Nord', environmentUuid: envA.uuid });
    const orgA2 = await createOrganization(tx, { title: 'Transports Alpha', environmentUuid: envA.uuid });
    const orgB1 = await createOrganization(tx, { title: 'Étoile du Sud', environmentUuid: envB.uuid });
    const orgB2 = await createOrganization(tx, { title: 'Garage Gamma', environmentUuid: envB.uuid });
    const orgC1 = await createOrganization(tx, { title: 'Delta Services', environmentUuid: envC.uuid });
    const orgN = await createOrganization(tx, { title: 'Indépendant Oméga' });
    // Where the writing tests add and remove members, so the member lists read elsewhere stay put.
    const orgW = await createOrganization(tx, { title: 'Messagerie Ouest', environmentUuid: envA.uuid });

    const root = await createUser(tx, { email: 'root@exemple.fr', roles: ['ROOT'], lastName: 'Racine' });
    const superA = await createUser(tx, { email: 'super-a@exemple.fr', roles: ['SUPERADMIN'], lastName: 'Horizon' });
    const superB = await createUser(tx, { email: 'super-b@exemple.fr', roles: ['SUPERADMIN'], lastName: 'Beta' });
    const adminA = await createUser(tx, { email: 'admin-a@exemple.fr', roles: ['ADMIN'], lastName: 'Arnaud' });
    const userA = await createUser(tx, { email: 'user-a@exemple.fr', roles: ['USER'], lastName: 'Zola' });
    const adminB = await createUser(tx, { email: 'admin-b@exemple.fr', roles: ['ADMIN'], lastName: 'Bonnet' });
    const userB = await createUser(tx, { email: 'user-b@exemple.fr', roles: ['USER'], lastName: 'Blanc' });
    const userC = await createUser(tx, { email: 'user-c@exemple.fr', roles: ['USER'], lastName: 'Colin' });
    const adminW = await createUser(tx, { email: 'admin-w@exemple.fr', roles: ['ADMIN'], lastName: 'Weber' });
    const userW = await createUser(tx, { email: 'user-w@exemple.fr', roles: ['USER'], lastName: 'Wolff' });
    const paginator = await createUser(tx, { email: 'pages@exemple.fr', roles: ['USER'], lastName: 'Page' });

    await attachToEnvironment(tx, envA.uuid, superA.uuid);
    await attachToEnvironment(tx, envB.uuid, superB.uuid);
    // The superadmin of A is also a member of a client of B: it sees that one too, not the rest of B.
    await linkUser(tx, orgB2.uuid, superA.uuid);
    const adminALink = await linkUser(tx, orgA1.uuid, adminA.uuid);
    const userALink = await linkUser(tx, orgA1.uuid, userA.uuid);
    await linkUser(tx, orgB1.uuid, adminB.uuid);
    await linkUser(tx, orgB1.uuid, userB.uuid);
    await linkUser(tx, orgC1.uuid, userC.uuid);
    await linkUser(tx, orgW.uuid, adminW.uuid);
    await linkUser(tx, orgW.uuid, userW.uuid);

    const paged: string[] = [];
    for (let i = 1; i <= 12; i++) {
      const org = await createOrganization(tx, { title: `Page ${String(i).padStart(2, '0')}` });
      await linkUser(tx, org.uuid, paginator.uuid);
      paged.push(org.uuid);
    }
    return {
      envA, envB, envC, orgA1, orgA2, orgB1, orgB2, orgC1, orgN, orgW, userW,
      root, superA, superB, adminA, userA, adminB, userB, userC, paginator, adminALink, userALink, paged,
    };
  });
}

beforeAll(async () => {
  t = await createTestApp();
  f = await seedFixtures();
  for (const name of ['root', 'super-a', 'super-b', 'admin-a', 'user-a', 'admin-b', 'user-b', 'user-c', 'admin-w', 'user-w', 'pages']) {
    tokens[name] = await t.login(`${name}@exemple.fr`);
  }
});
afterAll(() => t.close());

/** Every call: never a 5xx, never a password (hash) in the body. */
async function call(token: string | null, options: InjectOptions) {
  const response = token === null ? await t.app.inject(options) : await t.as(token, options);
  expect(response.statusCode, response.body).toBeLessThan(500);
  expect(response.body).not.toMatch(/password/i);
  return response;
}

function expectInvalid(response: LightMyRequestResponse, path: string, message: string) {
  expect(response.statusCode).toBe(400);
  const body = response.json();
  expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/^Données invalides/) });
  expect(body.details).toContainEqual({ path, message: expect.stringContaining(message) });
}

const titles = (body: { data: { title: string }[] }) => body.data.map((o) => o.title);
const countLinks = () => t.seed(async (tx) => (await tx.select({ n: count() }).from(organizationUsers))[0]!.n);
const linkExists = (uuid: string) =>
  t.seed(async (tx) => (await tx.select().from(organizationUsers).where(eq(organizationUsers.uuid, uuid))).length === 1);

/** A fresh user (and its token when asked), so writing tests never share rows. */
async function freshUser(roles: ('ROOT' | 'SUPERADMIN' | 'ADMIN' | 'USER')[] = ['USER'], setup?: (uuid: string) => Promise<void>) {
  const email = `frais-${Math.random().toString(36).slice(2, 10)}@exemple.fr`;
  const user = await t.seed((tx) => createUser(tx, { email, roles, firstName: 'Nouveau', lastName: 'Venu' }));
  if (setup) await setup(user.uuid);
  return { ...user, login: () => t.login(email) };
}

describe('GET /api/organization', () => {
  it('requires a token', async () => {
    const response = await call(null, { method: 'GET', url: '/api/organization' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, message: 'Authentification requise' });
  });

  it('shows a plain user only the organizations it belongs to, in the contract shape', async () => {
    const response = await call(tokens['user-a']!, { method: 'GET', url: '/api/organization' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [
        {
          uuid: f.orgA1.uuid,
          title: 'Étoile du Nord',
          avatar: null,
          environment: { uuid: f.envA.uuid, title: 'Cabinet Horizon' },
          subscription: null,
        },
      ],
      page: 1,
      nbOfPages: 1,
      total: 1,
    });
    expect(() => OrganizationPageSchema.parse(response.json())).not.toThrow();
  });

  it('shows an admin only its own organizations too', async () => {
    const response = await call(tokens['admin-b']!, { method: 'GET', url: '/api/organization' });
    expect(titles(response.json())).toEqual(['Étoile du Sud']);
  });

  it("shows a superadmin its environment's organizations plus its own links, nothing else", async () => {
    const response = await call(tokens['super-a']!, { method: 'GET', url: '/api/organization' });
    expect(response.statusCode).toBe(200);
    expect(titles(response.json())).toEqual(['Étoile du Nord', 'Garage Gamma', 'Messagerie Ouest', 'Transports Alpha']);
    expect(response.json().total).toBe(4);

    const other = await call(tokens['super-b']!, { method: 'GET', url: '/api/organization' });
    expect(titles(other.json())).toEqual(['Étoile du Sud', 'Garage Gamma']);
  });

  it('shows ROOT every organization', async () => {
    const response = await call(tokens.root!, { method: 'GET', url: '/api/organization?limit=1000' });
    expect(response.statusCode).toBe(200);
    const uuids = response.json().data.map((o: { uuid: string }) => o.uuid);
    for (const org of [f.orgA1, f.orgA2, f.orgB1, f.orgB2, f.orgC1, f.orgN, f.orgW]) expect(uuids).toContain(org.uuid);
    expect(response.json().total).toBe(uuids.length);
  });

  it.each([['etoile'], ['ÉTOILE'], ['  Étoile  '], ['toile du']])('searches %j ignoring accents and case', async (search) => {
    const asRoot = await call(tokens.root!, { method: 'GET', url: '/api/organization', query: { search } });
    expect(titles(asRoot.json())).toEqual(['Étoile du Nord', 'Étoile du Sud']);
    // The search never widens what the caller may see.
    const asUser = await call(tokens['user-b']!, { method: 'GET', url: '/api/organization', query: { search } });
    expect(titles(asUser.json())).toEqual(['Étoile du Sud']);
  });

  it('finds "omega" in "Indépendant Oméga" and treats % and _ literally', async () => {
    const omega = await call(tokens.root!, { method: 'GET', url: '/api/organization', query: { search: 'omega' } });
    expect(titles(omega.json())).toEqual(['Indépendant Oméga']);
    for (const search of ['%', '_', '\\']) {
      const response = await call(tokens.root!, { method: 'GET', url: '/api/organization', query: { search } });
      expect(response.json()).toEqual({ data: [], page: 1, nbOfPages: 1, total: 0 });
    }
  });

  it('paginates with the {data, page, nbOfPages, total} envelope, sorted by title', async () => {
    const first = await call(tokens.pages!, { method: 'GET', url: '/api/organization?limit=5' });
    expect(first.json()).toMatchObject({ page: 1, nbOfPages: 3, total: 12 });
    expect(titles(first.json())).toEqual(['Page 01', 'Page 02', 'Page 03', 'Page 04', 'Page 05']);

    const last = await call(tokens.pages!, { method: 'GET', url: '/api/organization?limit=5&page=3' });
    expect(last.json()).toMatchObject({ page: 3, nbOfPages: 3, total: 12 });
    expect(titles(last.json())).toEqual(['Page 11', 'Page 12']);

    const beyond = await call(tokens.pages!, { method: 'GET', url: '/api/organization?limit=5&page=4' });
    expect(beyond.json()).toEqual({ data: [], page: 4, nbOfPages: 3, total: 12 });

    const byDefault = await call(tokens.pages!, { method: 'GET', url: '/api/organization' });
    expect(byDefault.json()).toMatchObject({ page: 1, nbOfPages: 2, total: 12 });
    expect(byDefault.json().data).toHaveLength(10);

    const filtered = await call(tokens.pages!, { method: 'GET', url: '/api/organization?search=page%201&limit=2' });
    expect(filtered.json()).toMatchObject({ page: 1, nbOfPages: 2, total: 3 });
    expect(titles(filtered.json())).toEqual(['Page 10', 'Page 11']);
  });

  it.each([
    ['limit=1001', 'limit', 'La limite ne peut pas dépasser 1000'],
    ['limit=0', 'limit', 'La limite doit être au moins 1'],
    ['limit=2.5', 'limit', 'La limite doit être un nombre entier'],
    ['page=0', 'page', 'La page commence à 1'],
    ['page=abc', 'page', 'La page doit être un nombre'],
    ['page=-1', 'page', 'La page commence à 1'],
    [`search=${'a'.repeat(201)}`, 'search', 'La recherche est trop longue'],
  ])('refuses ?%s with a French message and its path', async (query, path, message) => {
    const response = await call(tokens['user-a']!, { method: 'GET', url: `/api/organization?${query}` });
    expectInvalid(response, path, message);
  });
});

describe('GET /api/organization/environment', () => {
  it('requires a token', async () => {
    expect((await call(null, { method: 'GET', url: '/api/organization/environment' })).statusCode).toBe(401);
  });

  it("lists only the organizations of the superadmin's environment, not its other links", async () => {
    const a = await call(tokens['super-a']!, { method: 'GET', url: '/api/organization/environment' });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ page: 1, nbOfPages: 1, total: 3 });
    expect(titles(a.json())).toEqual(['Étoile du Nord', 'Messagerie Ouest', 'Transports Alpha']);
    expect(a.json().data.every((o: { environment: { uuid: string } }) => o.environment.uuid === f.envA.uuid)).toBe(true);

    const b = await call(tokens['super-b']!, { method: 'GET', url: '/api/organization/environment' });
    expect(titles(b.json())).toEqual(['Étoile du Sud', 'Garage Gamma']);
  });

  it('searches within the environment, accent-insensitively', async () => {
    const response = await call(tokens['super-a']!, { method: 'GET', url: '/api/organization/environment?search=etoile' });
    expect(titles(response.json())).toEqual(['Étoile du Nord']);
  });

  it.each([['user-a'], ['admin-a'], ['user-c'], ['root']])('gives %s (no environment managed) an empty page', async (who) => {
    const response = await call(tokens[who]!, { method: 'GET', url: '/api/organization/environment' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [], page: 1, nbOfPages: 1, total: 0 });
  });

  it('gives ROOT the organizations of the environments it joined', async () => {
    const root = await freshUser(['ROOT'], (uuid) => t.seed((tx) => attachToEnvironment(tx, f.envB.uuid, uuid)).then(() => undefined));
    const response = await call(await root.login(), { method: 'GET', url: '/api/organization/environment' });
    expect(titles(response.json())).toEqual(['Étoile du Sud', 'Garage Gamma']);
  });

  it('refuses a bad query', async () => {
    expectInvalid(await call(tokens['super-a']!, { method: 'GET', url: '/api/organization/environment?limit=5000' }), 'limit', 'La limite ne peut pas dépasser 1000');
  });
});

describe('GET /api/organization-user', () => {
  it('requires a token', async () => {
    expect((await call(null, { method: 'GET', url: '/api/organization-user' })).statusCode).toBe(401);
  });

  it("lists the caller's own links by default", async () => {
    const response = await call(tokens['user-a']!, { method: 'GET', url: '/api/organization-user' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ page: 1, nbOfPages: 1, total: 1 });
    expect(body.data[0]).toEqual({
      uuid: f.userALink.uuid,
      organization: {
        uuid: f.orgA1.uuid,
        title: 'Étoile du Nord',
        avatar: null,
        environment: { uuid: f.envA.uuid, title: 'Cabinet Horizon' },
        subscription: null,
      },
      user: { uuid: f.userA.uuid, firstName: 'Camille', lastName: 'Zola', email: 'user-a@exemple.fr', avatar: null },
    });
    expect(() => OrganizationUserSchema.parse(body.data[0])).not.toThrow();
  });

  it('a superadmin without links of its own gets an empty page by default', async () => {
    const response = await call(tokens['super-b']!, { method: 'GET', url: '/api/organization-user' });
    expect(response.json()).toEqual({ data: [], page: 1, nbOfPages: 1, total: 0 });
  });

  it.each([['user-a'], ['admin-a'], ['super-a'], ['root']])('lists the members of an organization for %s', async (who) => {
    const response = await call(tokens[who]!, { method: 'GET', url: `/api/organization-user?organization=${f.orgA1.uuid}` });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.total).toBe(2);
    expect(body.data.map((l: { user: { lastName: string } }) => l.user.lastName)).toEqual(['Arnaud', 'Zola']);
    expect(body.data.every((l: { organization: { uuid: string } }) => l.organization.uuid === f.orgA1.uuid)).toBe(true);
  });

  it('searches the members of an organization', async () => {
    const response = await call(tokens['admin-a']!, { method: 'GET', url: `/api/organization-user?organization=${f.orgA1.uuid}&search=zola` });
    expect(response.json().data.map((l: { uuid: string }) => l.uuid)).toEqual([f.userALink.uuid]);
  });

  it.each([
    ['user-b', 'orgA1'],
    ['admin-b', 'orgA1'],
    ['super-b', 'orgA1'],
    ['super-a', 'orgB1'],
    ['user-c', 'orgN'],
  ] as const)("answers 404 to %s asking for the members of another's %s", async (who, org) => {
    const response = await call(tokens[who]!, { method: 'GET', url: `/api/organization-user?organization=${f[org].uuid}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Organisation introuvable' });
  });

  it('answers 404 for an unknown organization, even to ROOT', async () => {
    const response = await call(tokens.root!, { method: 'GET', url: `/api/organization-user?organization=${UNKNOWN_UUID}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Organisation introuvable');
  });

  it('refuses a malformed organization id', async () => {
    const response = await call(tokens['user-a']!, { method: 'GET', url: '/api/organization-user?organization=pas-un-uuid' });
    expectInvalid(response, 'organization', 'Identifiant invalide');
  });
});

describe('POST /api/organization-user', () => {
  const post = (token: string | null, payload: unknown) => call(token, { method: 'POST', url: '/api/organization-user', payload: payload as InjectOptions['payload'] });

  it('requires a token, and writes nothing', async () => {
    const target = await freshUser();
    const before = await countLinks();
    const response = await post(null, { user: target.uuid, organization: f.orgW.uuid });
    expect(response.statusCode).toBe(401);
    expect(await countLinks()).toBe(before);
  });

  it('lets an ADMIN member add a user; the user then sees the organization', async () => {
    const target = await freshUser();
    const response = await post(tokens['admin-w']!, { user: target.uuid, organization: f.orgW.uuid });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(() => OrganizationUserSchema.parse(body)).not.toThrow();
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
    const response = await post(tokens['admin-w']!, { user: { uuid: target.uuid }, organization: { uuid: f.orgW.uuid } });
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
    const response = await post(tokens['admin-w']!, { user: f.userW.uuid, organization: f.orgW.uuid });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ statusCode: 409, message: "Cet utilisateur est déjà membre de l'organisation" });
    expect(await countLinks()).toBe(before);
  });

  it('answers 404 for an unknown user or organization, and writes nothing', async () => {
    const before = await countLinks();
    const user = await post(tokens['admin-w']!, { user: UNKNOWN_UUID, organization: f.orgW.uuid });
    expect(user.statusCode).toBe(404);
    expect(user.json().message).toBe('Utilisateur introuvable');
    const organization = await post(tokens.root!, { user: f.userW.uuid, organization: UNKNOWN_UUID });
    expect(organization.statusCode).toBe(404);
    expect(organization.json().message).toBe('Organisation introuvable');
    expect(await countLinks()).toBe(before);
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachToEnvironment } from '../../seed/factories.js';
import { expectInvalid, openOrganizations, organizationHelpers, type OrganizationFixtures, titles, UNKNOWN_UUID } from '../../../test/fixtures/organizations.js';
import type { TestContext } from '../../../test/test-app.js';

// Reads: the organizations each role sees, those of a superadmin's environment, and the members of an organization.
let t: TestContext;
let f: OrganizationFixtures;
let tokens: Record<string, string>;
const { call, freshUser } = organizationHelpers(() => t);

beforeAll(async () => {
  ({ t, f, tokens } = await openOrganizations(['root', 'super-a', 'super-b', 'admin-a', 'user-a', 'admin-b', 'user-b', 'user-c', 'pages']));
});
afterAll(() => t.close());

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
      user: { uuid: f.userA.uuid, firstName: 'Camille', lastName: 'Zola', email: 'user-a@exemple.fr', avatar: null, twoFactor: null },
      role: 'USER',
    });
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

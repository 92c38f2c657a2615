import type { Environment, EnvironmentPage } from '@flotte/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, linkUser } from '../../seed/factories.js';
import { AVATAR, environmentHelpers, type EnvironmentFixtures, expectInvalid, expectNotFound, openEnvironments, UNKNOWN_UUID, type Who } from '../../../test/fixtures/environments.js';
import type { TestContext } from '../../../test/test-app.js';

// Reads: the environments each role may list and open, and the superadmin's contact card its clients see.
// Nothing here changes the seeded rows; the one test that needs a ROOT to join builds its own environment.
let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
const { call, freshUser, freshEnvironment, expectTokenRequired } = environmentHelpers(
  () => t,
  () => tokens,
);

beforeAll(async () => {
  ({ t, f, tokens } = await openEnvironments());
});
afterAll(() => t.close());

describe('authentication', () => {
  it.each([
    ['GET', '/api/environment'],
    ['GET', '/api/environment/current'],
    ['GET', `/api/environment/${UNKNOWN_UUID}`],
    ['GET', `/api/environment-user/${UNKNOWN_UUID}/superadmin`],
  ] as const)('%s %s requires a token', expectTokenRequired);
});

describe('GET /api/environment', () => {
  it('lists every environment for ROOT, with its organizations count', async () => {
    const response = await call('root', { method: 'GET', url: '/api/environment?limit=1000' });
    expect(response.statusCode).toBe(200);
    const body = response.json<EnvironmentPage>();
    expect(body.data).toEqual(
      expect.arrayContaining([
        { uuid: f.envA.uuid, title: 'Cabinet Horizon', refererEmail: 'contact@horizon.fr', organizationsCount: 2 },
        { uuid: f.envB.uuid, title: 'Courtage Bêta', refererEmail: null, organizationsCount: 2 },
        { uuid: f.envC.uuid, title: 'Espace Sans Superadmin', refererEmail: null, organizationsCount: 1 },
      ]),
    );
    expect(body.total).toBe(body.data.length);
  });

  it('lists only its own environment for a superadmin', async () => {
    const response = await call('super-a', { method: 'GET', url: '/api/environment' });
    expect(response.json()).toEqual({
      data: [{ uuid: f.envA.uuid, title: 'Cabinet Horizon', refererEmail: 'contact@horizon.fr', organizationsCount: 2 }],
      page: 1,
      nbOfPages: 1,
      total: 1,
    });
  });

  it.each([['admin-a'], ['user-a'], ['user-c'], ['loner']] as const)('gives %s an empty page', async (who) => {
    const response = await call(who, { method: 'GET', url: '/api/environment' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [], page: 1, nbOfPages: 1, total: 0 });
  });

  it('searches ignoring accents and case, within what the caller may see', async () => {
    for (const search of ['beta', 'BÊTA', ' bêta ']) {
      const response = await call('root', { method: 'GET', url: '/api/environment', query: { search } });
      expect(response.json().data.map((e: { uuid: string }) => e.uuid)).toEqual([f.envB.uuid]);
    }
    const superA = await call('super-a', { method: 'GET', url: '/api/environment?search=beta' });
    expect(superA.json()).toEqual({ data: [], page: 1, nbOfPages: 1, total: 0 });
  });

  it('paginates', async () => {
    const response = await call('root', { method: 'GET', url: '/api/environment?search=e&limit=1&page=2' });
    // The three seeded environments all have an e.
    expect(response.json()).toMatchObject({ page: 2, total: 3 });
    expect(response.json().data).toHaveLength(1);
    expect(response.json().nbOfPages).toBe(response.json().total);
  });

  it.each([
    ['limit=1001', 'limit', 'La limite ne peut pas dépasser 1000'],
    ['page=0', 'page', 'La page commence à 1'],
    ['page=abc', 'page', 'La page doit être un nombre'],
  ])('refuses ?%s in French', async (query, path, message) => {
    expectInvalid(await call('root', { method: 'GET', url: `/api/environment?${query}` }), path, message);
  });
});

describe('GET /api/environment/current', () => {
  it("shows a client its environment with only its own organization and no broker's staff", async () => {
    const response = await call('user-a', { method: 'GET', url: '/api/environment/current' });
    expect(response.statusCode).toBe(200);
    const body = response.json<Environment>();
    expect(body).toMatchObject({
      uuid: f.envA.uuid,
      title: 'Cabinet Horizon',
      refererEmail: 'contact@horizon.fr',
      bookingUrl: 'https://rdv.horizon.fr',
      freeOrganizations: 2,
      environmentUsers: [],
      stripeProductId: null,
    });
    expect(body.organizations.map((o) => o.uuid)).toEqual([f.orgA1.uuid]);
    // The operator's prices for the broker (its tiers) are not the client's to read (decision 043).
    expect(body.tiers).toEqual([]);
    // The other client of the same broker stays invisible.
    expect(response.body).not.toContain('Transports Alpha');
    expect(response.body).not.toContain('super-a@exemple.fr');
  });

  it('shows an admin and another client of the same broker only their own organization', async () => {
    const admin = await call('admin-a', { method: 'GET', url: '/api/environment/current' });
    expect(admin.json().organizations.map((o: { uuid: string }) => o.uuid)).toEqual([f.orgA1.uuid]);
    expect(admin.json().environmentUsers).toEqual([]);
    const other = await call('user-a2', { method: 'GET', url: '/api/environment/current' });
    expect(other.json().organizations.map((o: { uuid: string }) => o.uuid)).toEqual([f.orgA2.uuid]);
    expect(other.body).not.toContain('Étoile du Nord');
  });

  it('follows the current organization of a client of two brokers', async () => {
    const response = await call('multi', { method: 'GET', url: '/api/environment/current' });
    expect(response.json().uuid).toBe(f.envB.uuid);
    expect(response.json().organizations.map((o: { uuid: string }) => o.uuid)).toEqual([f.orgB2.uuid]);
  });

  it('shows its superadmin the full environment', async () => {
    const response = await call('super-a', { method: 'GET', url: '/api/environment/current' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ uuid: f.envA.uuid, stripeProductId: 'prod_horizon', freeOrganizations: 2 });
    expect(body.organizations.map((o: { title: string }) => o.title)).toEqual(['Étoile du Nord', 'Transports Alpha']);
    expect(body.environmentUsers).toEqual([
      { uuid: f.superALink.uuid, user: { uuid: f.superA.uuid, firstName: 'Hélène', lastName: 'Horizon', email: 'super-a@exemple.fr' } },
    ]);
    expect(body.tiers.map((tier: { title: string }) => tier.title)).toEqual(['Palier 1', 'Palier 2', 'Palier 3']);
    expect(body.tiers[0]).toEqual({
      uuid: expect.any(String),
      title: 'Palier 1',
      startAt: '2024-01-01T00:00:00.000Z',
      startDate: '2024-01-01',
      endAt: null,
      priceCents: 0,
      includedOrganizations: 0,
      freeOrganizations: 0,
    });
  });

  it.each([['loner'], ['user-n'], ['root']] as const)('answers 404 in French to %s, attached to no environment', async (who) => {
    expectNotFound(await call(who, { method: 'GET', url: '/api/environment/current' }), "Vous n'êtes rattaché à aucun environnement");
  });
});

describe('GET /api/environment/:uuid', () => {
  it.each([['super-a'], ['root']] as const)('gives %s the full environment', async (who) => {
    const response = await call(who, { method: 'GET', url: `/api/environment/${f.envA.uuid}` });
    expect(response.statusCode).toBe(200);
    const body = response.json<Environment>();
    expect(body).toMatchObject({ uuid: f.envA.uuid, title: 'Cabinet Horizon', stripeProductId: 'prod_horizon' });
    expect(body.organizations.map((o) => o.uuid)).toEqual([f.orgA1.uuid, f.orgA2.uuid]);
    expect(body.environmentUsers.map((e) => e.user.uuid)).toEqual([f.superA.uuid]);
    expect(body.tiers.map((tier) => tier.title)).toEqual(['Palier 1', 'Palier 2', 'Palier 3']);
  });

  it('gives ROOT an environment without superadmin', async () => {
    const response = await call('root', { method: 'GET', url: `/api/environment/${f.envC.uuid}` });
    expect(response.json()).toMatchObject({ uuid: f.envC.uuid, environmentUsers: [], tiers: [] });
    expect(response.json().organizations.map((o: { uuid: string }) => o.uuid)).toEqual([f.orgC1.uuid]);
  });

  it.each([['user-a'], ['admin-a'], ['super-b'], ['user-b']] as const)('answers 404 to %s', async (who) => {
    expectNotFound(await call(who, { method: 'GET', url: `/api/environment/${f.envA.uuid}` }));
  });

  it('answers 404 for an unknown environment, 400 for a malformed id', async () => {
    expectNotFound(await call('root', { method: 'GET', url: `/api/environment/${UNKNOWN_UUID}` }));
    expectInvalid(await call('root', { method: 'GET', url: '/api/environment/pas-un-uuid' }), 'uuid', 'Identifiant invalide');
  });
});

describe('GET /api/environment-user/:environmentUuid/superadmin', () => {
  const superadminOf = (who: Who | string, uuid: string) => call(who, { method: 'GET', url: `/api/environment-user/${uuid}/superadmin` });
  const HELENE = {
    avatar: { url: AVATAR },
    firstName: 'Hélène',
    lastName: 'Horizon',
    description: 'Votre courtière dédiée',
    phone: '+33612345678',
  };

  it.each([['user-a'], ['admin-a'], ['user-a2'], ['super-a'], ['root']] as const)(
    'gives %s the contact card of the superadmin, and nothing more',
    async (who) => {
      const response = await superadminOf(who, f.envA.uuid);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(HELENE);
    },
  );

  it('gives a client of two brokers the superadmin of either', async () => {
    expect((await superadminOf('multi', f.envB.uuid)).json()).toEqual({
      avatar: null,
      firstName: 'Bruno',
      lastName: 'Beta',
      description: null,
      phone: null,
    });
    const other = await superadminOf('multi', f.envA.uuid);
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(HELENE);
  });

  it('answers null when the environment has no superadmin, even once ROOT joined it', async () => {
    const response = await superadminOf('user-c', f.envC.uuid);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toBe('null');

    // A ROOT that joined is attached but is no superadmin (its own environment, to leave envC as is).
    const environment = await freshEnvironment();
    const member = await freshUser(['USER']);
    await t.seed(async (tx) => linkUser(tx, (await createOrganization(tx, { environmentUuid: environment.uuid })).uuid, member.uuid));
    const root = await freshUser(['ROOT']);
    expect((await call(root.token, { method: 'POST', url: `/api/environment-user/${environment.uuid}/join` })).statusCode).toBe(200);
    expect((await superadminOf(root.token, environment.uuid)).body).toBe('null');
    expect((await superadminOf(member.token, environment.uuid)).body).toBe('null');
  });

  it.each([['user-b'], ['super-b'], ['user-c'], ['user-n'], ['loner']] as const)('answers 404 to %s, outside the environment', async (who) => {
    expectNotFound(await superadminOf(who, f.envA.uuid));
  });

  it('answers 404 for an unknown environment, 400 for a malformed id', async () => {
    expectNotFound(await superadminOf('root', UNKNOWN_UUID));
    expectNotFound(await superadminOf('user-a', UNKNOWN_UUID));
    expectInvalid(await superadminOf('user-a', 'pas-un-uuid'), 'environmentUuid', 'Identifiant invalide');
  });
});

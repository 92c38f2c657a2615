import { EnvironmentPageSchema, EnvironmentSchema } from '@flotte/contract';
import { count, eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environments, environmentUsers } from '../../db/schema/environments.js';
import { attachToEnvironment, createEnvironment, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

/**
 * Two brokers' environments with their client organizations, a third without superadmin, an
 * organization outside any environment, and every role. Tests that write build their own rows.
 */
let t: TestContext;
let f: Awaited<ReturnType<typeof seedFixtures>>;
const tokens: Record<string, string> = {};
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const AVATAR = 'https://cdn.exemple.fr/avatars/helene.png';

async function seedFixtures() {
  return t.seed(async (tx) => {
    // Tiers inserted out of order: the API sorts them by startAt.
    const envA = await createEnvironment(tx, {
      title: 'Cabinet Horizon',
      refererEmail: 'contact@horizon.fr',
      bookingUrl: 'https://rdv.horizon.fr',
      tiers: [
        { title: 'Palier 2', startAt: new Date('2025-06-01T00:00:00Z') },
        { title: 'Palier 3', startAt: new Date('2026-01-01T00:00:00Z') },
        { title: 'Palier 1', startAt: new Date('2024-01-01T00:00:00Z') },
      ],
    });
    await tx.update(environments).set({ stripeProductId: 'prod_horizon', freeOrganizations: 2 }).where(eq(environments.uuid, envA.uuid));
    const envB = await createEnvironment(tx, { title: 'Courtage Bêta' });
    const envC = await createEnvironment(tx, { title: 'Espace Sans Superadmin' });

    const orgA1 = await createOrganization(tx, { title: 'Étoile du Nord', environmentUuid: envA.uuid });
    const orgA2 = await createOrganization(tx, { title: 'Transports Alpha', environmentUuid: envA.uuid });
    const orgB1 = await createOrganization(tx, { title: 'Logistique Bêta', environmentUuid: envB.uuid });
    const orgB2 = await createOrganization(tx, { title: 'Garage Gamma', environmentUuid: envB.uuid });
    const orgC1 = await createOrganization(tx, { title: 'Delta Services', environmentUuid: envC.uuid });
    const orgN = await createOrganization(tx, { title: 'Indépendant Oméga' });

    const root = await createUser(tx, { email: 'root@exemple.fr', roles: ['ROOT'] });
    const superA = await createUser(tx, {
      email: 'super-a@exemple.fr',
      roles: ['SUPERADMIN'],
      firstName: 'Hélène',
      lastName: 'Horizon',
      description: 'Votre courtière dédiée',
      phone: '+33612345678',
      avatarUrl: AVATAR,
    });
    const superB = await createUser(tx, { email: 'super-b@exemple.fr', roles: ['SUPERADMIN'], firstName: 'Bruno', lastName: 'Beta' });
    const adminA = await createUser(tx, { email: 'admin-a@exemple.fr', roles: ['ADMIN'] });
    const userA = await createUser(tx, { email: 'user-a@exemple.fr' });
    const userA2 = await createUser(tx, { email: 'user-a2@exemple.fr' });
    const userB = await createUser(tx, { email: 'user-b@exemple.fr' });
    const userC = await createUser(tx, { email: 'user-c@exemple.fr' });
    const userN = await createUser(tx, { email: 'user-n@exemple.fr' });
    await createUser(tx, { email: 'loner@exemple.fr' });
    const multi = await createUser(tx, { email: 'multi@exemple.fr' });

    const superALink = await attachToEnvironment(tx, envA.uuid, superA.uuid);
    await attachToEnvironment(tx, envB.uuid, superB.uuid);
    await linkUser(tx, orgA1.uuid, adminA.uuid);
    await linkUser(tx, orgA1.uuid, userA.uuid);
    await linkUser(tx, orgA2.uuid, userA2.uuid);
    await linkUser(tx, orgB1.uuid, userB.uuid);
    await linkUser(tx, orgC1.uuid, userC.uuid);
    await linkUser(tx, orgN.uuid, userN.uuid);
    // A client of both brokers; it lands in "Garage Gamma" (environment B), the first by title.
    await linkUser(tx, orgA2.uuid, multi.uuid);
    await linkUser(tx, orgB2.uuid, multi.uuid);
    return { envA, envB, envC, orgA1, orgA2, orgB1, orgB2, orgC1, orgN, root, superA, superB, superALink };
  });
}

const LOGINS = ['root', 'super-a', 'super-b', 'admin-a', 'user-a', 'user-a2', 'user-b', 'user-c', 'user-n', 'loner', 'multi'] as const;
type Who = (typeof LOGINS)[number];

beforeAll(async () => {
  t = await createTestApp();
  f = await seedFixtures();
  for (const name of LOGINS) tokens[name] = await t.login(`${name}@exemple.fr`);
});
afterAll(() => t.close());

/** Every call: never a 5xx, never a password (hash) in the body. */
async function call(who: Who | string | null, options: InjectOptions) {
  const token = who === null ? null : (tokens[who] ?? who);
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

function expectNotFound(response: LightMyRequestResponse, message = 'Environnement introuvable') {
  expect(response.statusCode).toBe(404);
  expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message });
}

const countEnvironments = () => t.seed(async (tx) => (await tx.select({ n: count() }).from(environments))[0]!.n);
const readEnvironment = (uuid: string) => t.seed(async (tx) => (await tx.select().from(environments).where(eq(environments.uuid, uuid)))[0]);
const attachments = (userUuid: string) =>
  t.seed(async (tx) => tx.select().from(environmentUsers).where(eq(environmentUsers.userUuid, userUuid)));

/** A fresh user and its token, so writing tests never share rows. */
async function freshUser(roles: ('ROOT' | 'SUPERADMIN' | 'ADMIN' | 'USER')[], attachTo?: string) {
  const email = `frais-${Math.random().toString(36).slice(2, 10)}@exemple.fr`;
  const user = await t.seed(async (tx) => {
    const created = await createUser(tx, { email, roles, firstName: 'Nouveau', lastName: 'Venu' });
    if (attachTo) await attachToEnvironment(tx, attachTo, created.uuid);
    return created;
  });
  return { ...user, token: await t.login(email) };
}
const freshEnvironment = (title = `Espace ${Math.random().toString(36).slice(2, 8)}`) =>
  t.seed((tx) => createEnvironment(tx, { title, refererEmail: 'avant@exemple.fr', bookingUrl: 'https://avant.exemple.fr' }));

describe('authentication', () => {
  it.each([
    ['GET', '/api/environment'],
    ['GET', '/api/environment/current'],
    ['GET', `/api/environment/${UNKNOWN_UUID}`],
    ['POST', '/api/environment'],
    ['PATCH', `/api/environment/${UNKNOWN_UUID}`],
    ['POST', `/api/environment-user/${UNKNOWN_UUID}/join`],
    ['POST', `/api/environment-user/${UNKNOWN_UUID}/quit`],
    ['GET', `/api/environment-user/${UNKNOWN_UUID}/superadmin`],
  ] as const)('%s %s requires a token', async (method, url) => {
    const before = await countEnvironments();
    const response = await call(null, { method, url, payload: method === 'GET' ? undefined : { title: 'Intrus' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, message: 'Authentification requise' });
    expect(await countEnvironments()).toBe(before);
  });
});

describe('GET /api/environment', () => {
  it('lists every environment for ROOT, with its organizations count', async () => {
    const response = await call('root', { method: 'GET', url: '/api/environment?limit=1000' });
    expect(response.statusCode).toBe(200);
    const body = EnvironmentPageSchema.parse(response.json());
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
    expect(response.json()).toMatchObject({ page: 2, total: expect.any(Number) });
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
    const body = EnvironmentSchema.parse(response.json());
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
    expect(body.tiers.map((tier) => [tier.title, tier.startAt])).toEqual([
      ['Palier 1', '2024-01-01T00:00:00.000Z'],
      ['Palier 2', '2025-06-01T00:00:00.000Z'],
      ['Palier 3', '2026-01-01T00:00:00.000Z'],
    ]);
    expect(body.tiers[0]).toEqual({ uuid: expect.any(String), title: 'Palier 1', startAt: '2024-01-01T00:00:00.000Z', endAt: null });
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
  });

  it.each([['loner'], ['user-n'], ['root']] as const)('answers 404 in French to %s, attached to no environment', async (who) => {
    expectNotFound(await call(who, { method: 'GET', url: '/api/environment/current' }), "Vous n'êtes rattaché à aucun environnement");
  });
});

describe('GET /api/environment/:uuid', () => {
  it.each([['super-a'], ['root']] as const)('gives %s the full environment', async (who) => {
    const response = await call(who, { method: 'GET', url: `/api/environment/${f.envA.uuid}` });
    expect(response.statusCode).toBe(200);
    const body = EnvironmentSchema.parse(response.json());
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

describe('POST /api/environment', () => {
  const post = (who: Who | string, payload: unknown) =>
    call(who, { method: 'POST', url: '/api/environment', payload: payload as InjectOptions['payload'] });

  it('lets ROOT create an environment, which is then persisted', async () => {
    const response = await post('root', {
      title: '  Cabinet Zéphyr  ',
      refererEmail: 'Referent@Nouveau.FR',
      bookingUrl: 'https://rdv.nouveau.fr/agenda',
      freeOrganizations: 3,
      stripeProductId: 'prod_nouveau',
    });
    expect(response.statusCode).toBe(201);
    const created = EnvironmentSchema.parse(response.json());
    expect(created).toEqual({
      uuid: expect.any(String),
      title: 'Cabinet Zéphyr',
      refererEmail: 'referent@nouveau.fr',
      bookingUrl: 'https://rdv.nouveau.fr/agenda',
      tiers: [],
      environmentUsers: [],
      organizations: [],
      freeOrganizations: 3,
      stripeProductId: 'prod_nouveau',
    });
    const again = await call('root', { method: 'GET', url: `/api/environment/${created.uuid}` });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(created);
    const listed = await call('root', { method: 'GET', url: '/api/environment?search=zephyr' });
    expect(listed.json().data).toEqual([{ uuid: created.uuid, title: 'Cabinet Zéphyr', refererEmail: 'referent@nouveau.fr', organizationsCount: 0 }]);
  });

  it('needs only a title; empty optional fields read as null', async () => {
    const response = await post('root', { title: 'Espace minimal', bookingUrl: '', stripeProductId: '' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ title: 'Espace minimal', refererEmail: null, bookingUrl: null, stripeProductId: null, freeOrganizations: 0 });
  });

  it.each([['super-a'], ['admin-a'], ['user-a']] as const)('refuses %s with 403 and writes nothing', async (who) => {
    const before = await countEnvironments();
    const response = await post(who, { title: 'Espace pirate' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'Seul un administrateur de la plateforme peut créer un espace',
    });
    expect(await countEnvironments()).toBe(before);
  });

  it.each([
    [{}, 'title', "Le nom de l'espace est obligatoire"],
    [{ title: '' }, 'title', "Le nom de l'espace est obligatoire"],
    [{ title: '   ' }, 'title', "Le nom de l'espace est obligatoire"],
    [{ title: 'x'.repeat(121) }, 'title', '120 caractères maximum'],
    [{ title: 'Espace', refererEmail: 'pas-un-email' }, 'refererEmail', 'Adresse e-mail invalide'],
    [{ title: 'Espace', bookingUrl: 'ftp://rdv.exemple.fr' }, 'bookingUrl', 'Lien de prise de rendez-vous invalide'],
    [{ title: 'Espace', bookingUrl: 'javascript:alert(1)' }, 'bookingUrl', 'Lien de prise de rendez-vous invalide'],
    [{ title: 'Espace', freeOrganizations: -1 }, 'freeOrganizations', 'Le nombre doit être positif'],
    [{ title: 'Espace', uuid: UNKNOWN_UUID }, '', 'Clé non reconnue'],
  ])('refuses %j with a French message and writes nothing', async (payload, path, message) => {
    const before = await countEnvironments();
    expectInvalid(await post('root', payload), path, message);
    expect(await countEnvironments()).toBe(before);
  });
});

describe('PATCH /api/environment/:uuid', () => {
  const patch = (who: Who | string, uuid: string, payload: unknown) =>
    call(who, { method: 'PATCH', url: `/api/environment/${uuid}`, payload: payload as InjectOptions['payload'] });

  it('lets the managing superadmin edit its environment', async () => {
    const environment = await freshEnvironment();
    const superadmin = await freshUser(['SUPERADMIN'], environment.uuid);
    const response = await patch(superadmin.token, environment.uuid, { title: 'Nouveau nom', bookingUrl: '' });
    expect(response.statusCode).toBe(200);
    expect(EnvironmentSchema.parse(response.json())).toMatchObject({
      uuid: environment.uuid,
      title: 'Nouveau nom',
      bookingUrl: null,
      refererEmail: 'avant@exemple.fr',
    });
    expect(await readEnvironment(environment.uuid)).toMatchObject({ title: 'Nouveau nom', bookingUrl: null, refererEmail: 'avant@exemple.fr' });
  });

  it('lets ROOT edit any environment; an empty body changes nothing', async () => {
    const environment = await freshEnvironment();
    const response = await patch('root', environment.uuid, { refererEmail: 'APRES@exemple.fr' });
    expect(response.statusCode).toBe(200);
    expect((await readEnvironment(environment.uuid))!.refererEmail).toBe('apres@exemple.fr');
    const before = await readEnvironment(environment.uuid);
    expect((await patch('root', environment.uuid, {})).statusCode).toBe(200);
    expect(await readEnvironment(environment.uuid)).toEqual(before);
  });

  it.each([['super-b'], ['super-a'], ['admin-a'], ['user-a']] as const)('answers 404 to %s and changes nothing', async (who) => {
    const environment = await freshEnvironment();
    const before = await readEnvironment(environment.uuid);
    expectNotFound(await patch(who, environment.uuid, { title: 'Piraté' }));
    expect(await readEnvironment(environment.uuid)).toEqual(before);
  });

  it('lets only ROOT change the commercial terms (free organizations, product)', async () => {
    const environment = await freshEnvironment();
    const superadmin = await freshUser(['SUPERADMIN'], environment.uuid);
    const before = await readEnvironment(environment.uuid);
    for (const payload of [{ freeOrganizations: 50 }, { stripeProductId: 'prod_gratuit' }, { title: 'Ok', freeOrganizations: 3 }]) {
      const response = await patch(superadmin.token, environment.uuid, payload);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/conditions commerciales/);
    }
    expect(await readEnvironment(environment.uuid)).toEqual(before);
    const byRoot = await patch('root', environment.uuid, { freeOrganizations: 3, stripeProductId: 'prod_flotte' });
    expect(byRoot.statusCode).toBe(200);
    expect(await readEnvironment(environment.uuid)).toMatchObject({ freeOrganizations: 3, stripeProductId: 'prod_flotte' });
  });

  it("answers 404 to a superadmin patching another broker's environment", async () => {
    const before = await readEnvironment(f.envA.uuid);
    expectNotFound(await patch('super-b', f.envA.uuid, { title: 'Piraté' }));
    expect(await readEnvironment(f.envA.uuid)).toEqual(before);
  });

  it('answers 404 for an unknown environment, 400 for a malformed id', async () => {
    expectNotFound(await patch('root', UNKNOWN_UUID, { title: 'Fantôme' }));
    expectInvalid(await patch('root', 'pas-un-uuid', { title: 'Fantôme' }), 'uuid', 'Identifiant invalide');
  });

  it.each([
    [{ title: '' }, 'title', "Le nom de l'espace est obligatoire"],
    [{ title: null }, 'title', "Le nom de l'espace est obligatoire"],
    [{ refererEmail: 'pas-un-email' }, 'refererEmail', 'Adresse e-mail invalide'],
    [{ bookingUrl: 'ftp://rdv.exemple.fr' }, 'bookingUrl', 'Lien de prise de rendez-vous invalide'],
    [{ freeOrganizations: -5 }, 'freeOrganizations', 'Le nombre doit être positif'],
    [{ uuid: UNKNOWN_UUID }, '', 'Clé non reconnue'],
  ])('refuses %j with a French message and changes nothing', async (payload, path, message) => {
    const environment = await freshEnvironment();
    const superadmin = await freshUser(['SUPERADMIN'], environment.uuid);
    const before = await readEnvironment(environment.uuid);
    expectInvalid(await patch(superadmin.token, environment.uuid, payload), path, message);
    expect(await readEnvironment(environment.uuid)).toEqual(before);
  });
});

describe('POST /api/environment-user/:uuid/join and /quit', () => {
  const join = (who: Who | string, uuid: string) => call(who, { method: 'POST', url: `/api/environment-user/${uuid}/join` });
  const quit = (who: Who | string, uuid: string) => call(who, { method: 'POST', url: `/api/environment-user/${uuid}/quit` });

  it('lets ROOT join an environment, work in it, then quit it', async () => {
    const root = await freshUser(['ROOT']);
    const joined = await join(root.token, f.envB.uuid);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({ uuid: expect.any(String), environment: { uuid: f.envB.uuid, title: 'Courtage Bêta' } });

    const me = await call(root.token, { method: 'GET', url: '/api/auth/me' });
    expect(me.json().currentEnvironmentUser).toEqual({ uuid: joined.json().uuid, environment: { uuid: f.envB.uuid, title: 'Courtage Bêta' } });
    const current = await call(root.token, { method: 'GET', url: '/api/environment/current' });
    expect(current.json()).toMatchObject({ uuid: f.envB.uuid });
    expect(current.json().organizations.map((o: { title: string }) => o.title)).toEqual(['Garage Gamma', 'Logistique Bêta']);

    // Joining again keeps the same membership.
    expect((await join(root.token, f.envB.uuid)).json().uuid).toBe(joined.json().uuid);
    expect(await attachments(root.uuid)).toHaveLength(1);

    const left = await quit(root.token, f.envB.uuid);
    expect(left.statusCode).toBe(204);
    expect(left.body).toBe('');
    expect(await attachments(root.uuid)).toEqual([]);
    expect((await call(root.token, { method: 'GET', url: '/api/auth/me' })).json().currentEnvironmentUser).toBeNull();
    expectNotFound(await quit(root.token, f.envB.uuid));
  });

  it.each([['super-a'], ['super-b'], ['admin-a'], ['user-a']] as const)('answers 404 to %s joining, and writes nothing', async (who) => {
    const countAttachments = () => t.seed(async (tx) => (await tx.select({ n: count() }).from(environmentUsers))[0]!.n);
    const before = await countAttachments();
    expectNotFound(await join(who, f.envC.uuid));
    expect(await countAttachments()).toBe(before);
  });

  it('answers 404 for an unknown environment, 400 for a malformed id', async () => {
    const root = await freshUser(['ROOT']);
    expectNotFound(await join(root.token, UNKNOWN_UUID));
    expect(await attachments(root.uuid)).toEqual([]);
    expectInvalid(await join(root.token, 'pas-un-uuid'), 'uuid', 'Identifiant invalide');
    expectInvalid(await quit(root.token, 'pas-un-uuid'), 'uuid', 'Identifiant invalide');
  });

  it('lets a superadmin quit its environment, which it then no longer manages', async () => {
    const environment = await freshEnvironment();
    const superadmin = await freshUser(['SUPERADMIN'], environment.uuid);
    expect((await call(superadmin.token, { method: 'GET', url: `/api/environment/${environment.uuid}` })).statusCode).toBe(200);
    expect((await quit(superadmin.token, environment.uuid)).statusCode).toBe(204);
    expectNotFound(await call(superadmin.token, { method: 'GET', url: `/api/environment/${environment.uuid}` }));
    expect((await call(superadmin.token, { method: 'GET', url: '/api/environment' })).json().total).toBe(0);
  });

  it('answers 404 to a user quitting an environment it is not attached to', async () => {
    expectNotFound(await quit('user-a', f.envA.uuid));
    expectNotFound(await quit('super-b', f.envA.uuid));
    expect(await attachments(f.superA.uuid)).toHaveLength(1);
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

import type { Environment } from '@flotte/contract';
import { count } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentUsers } from '../../db/schema/environments.js';
import { userTotp } from '../../db/schema/users.js';
import { environmentHelpers, type EnvironmentFixtures, expectInvalid, expectNotFound, openEnvironments, UNKNOWN_UUID, type Who } from '../../../test/fixtures/environments.js';
import type { TestContext } from '../../../test/test-app.js';

// Creating and editing environments, joining and quitting them; every test that writes builds its own environment and users.
let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
const { call, countEnvironments, readEnvironment, attachments, freshUser, freshEnvironment, expectTokenRequired } = environmentHelpers(
  () => t,
  () => tokens,
);

beforeAll(async () => {
  ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'super-b', 'admin-a', 'user-a']));
});
afterAll(() => t.close());

describe('authentication', () => {
  it.each([
    ['POST', '/api/environment'],
    ['PATCH', `/api/environment/${UNKNOWN_UUID}`],
    ['POST', `/api/environment-user/${UNKNOWN_UUID}/join`],
    ['POST', `/api/environment-user/${UNKNOWN_UUID}/quit`],
  ] as const)('%s %s requires a token', expectTokenRequired);
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
    const created = response.json<Environment>();
    expect(created).toEqual({
      uuid: expect.any(String),
      title: 'Cabinet Zéphyr',
      logo: null,
      refererEmail: 'referent@nouveau.fr',
      bookingUrl: 'https://rdv.nouveau.fr/agenda',
      tiers: [],
      environmentUsers: [],
      organizations: [],
      freeOrganizations: 3,
      stripeProductId: 'prod_nouveau',
      requireSuperadminTotp: false,
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
    expect(response.json()).toMatchObject({
      uuid: environment.uuid,
      title: 'Nouveau nom',
      bookingUrl: null,
      refererEmail: 'avant@exemple.fr',
    });
    expect(await readEnvironment(environment.uuid)).toMatchObject({ title: 'Nouveau nom', bookingUrl: null, refererEmail: 'avant@exemple.fr' });
  });

  it('lets the managing superadmin and ROOT require two-factor sign-in of its superadmins', async () => {
    const environment = await freshEnvironment();
    const superadmin = await freshUser(['SUPERADMIN'], environment.uuid);
    // Only a superadmin already signing in with a code may require it (decision 040).
    await t.seed((tx) => tx.insert(userTotp).values({ userUuid: superadmin.uuid, secret: 'v1.essai', enabledAt: new Date() }));
    expect((await call(superadmin.token, { method: 'GET', url: `/api/environment/${environment.uuid}` })).json().requireSuperadminTotp).toBe(false);
    const response = await patch(superadmin.token, environment.uuid, { requireSuperadminTotp: true });
    expect(response.statusCode).toBe(200);
    expect(response.json().requireSuperadminTotp).toBe(true);
    expect((await readEnvironment(environment.uuid))!.requireSuperadminTotp).toBe(true);
    expect((await patch('root', environment.uuid, { requireSuperadminTotp: false })).json().requireSuperadminTotp).toBe(false);
    expect((await readEnvironment(environment.uuid))!.requireSuperadminTotp).toBe(false);
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
    [{ requireSuperadminTotp: 'oui' }, 'requireSuperadminTotp', 'Double authentification des superadministrateurs : vrai ou faux attendu'],
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

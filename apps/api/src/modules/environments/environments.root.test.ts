import type { RootSpacePage, Tier, TierList } from '@flotte/contract';
import { count, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environments, environmentTiers, environmentUsers } from '../../db/schema/environments.js';
import { mailOutbox } from '../../db/schema/mail.js';
import { storedFiles } from '../../db/schema/stored-files.js';
import { users } from '../../db/schema/users.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { createOrganization } from '../../seed/factories.js';
import { environmentHelpers, type EnvironmentFixtures, expectInvalid, expectNotFound, openEnvironments, UNKNOWN_UUID, type Who } from '../../../test/fixtures/environments.js';
import type { TestContext } from '../../../test/test-app.js';

// The operator's calls of /root/spaces (issue 17, decision 043): the spaces with their usage, a
// space created with its first superadmin, and the dated tiers. Only ROOT; the others get 404.
let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
const { call, freshEnvironment, expectTokenRequired } = environmentHelpers(
  () => t,
  () => tokens,
);
const OTHERS = [['super-a'], ['admin-a'], ['user-a']] as const;

beforeAll(async () => {
  ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'admin-a', 'user-a']));
  // Usage of Cabinet Horizon: two vehicles in the fleet, one gone, one archived; 1 500 bytes of files.
  await t.seed(async (tx) => {
    await tx.insert(vehicules).values([
      { organizationUuid: f.orgA1.uuid, immatriculation: 'AA-001-AA' },
      { organizationUuid: f.orgA2.uuid, immatriculation: 'AA-002-AA', exitDate: '2099-01-01' },
      { organizationUuid: f.orgA1.uuid, immatriculation: 'AA-003-AA', exitDate: '2020-01-01' },
      { organizationUuid: f.orgA1.uuid, immatriculation: 'AA-004-AA', archivedAt: new Date() },
      { organizationUuid: f.orgB1.uuid, immatriculation: 'BB-001-BB' },
    ]);
    await tx.insert(storedFiles).values([
      { key: `${f.orgA1.uuid}/un`, organizationUuid: f.orgA1.uuid, sizeBytes: 1000 },
      { key: `${f.orgA2.uuid}/deux`, organizationUuid: f.orgA2.uuid, sizeBytes: 500 },
      { key: `${f.orgN.uuid}/trois`, organizationUuid: f.orgN.uuid, sizeBytes: 9999 },
    ]);
  });
});
afterAll(() => t.close());

const footprint = () =>
  t.seed(async (tx) => {
    const n = async (table: typeof environments | typeof environmentTiers | typeof environmentUsers | typeof users | typeof mailOutbox) =>
      (await tx.select({ n: count() }).from(table))[0]!.n;
    return [await n(environments), await n(environmentTiers), await n(environmentUsers), await n(users), await n(mailOutbox)].join('/');
  });
const mailsTo = (email: string) =>
  t.seed((tx) => tx.select({ subject: mailOutbox.subject, text: mailOutbox.text, template: mailOutbox.template }).from(mailOutbox).where(eq(mailOutbox.recipient, email)));

describe('authentication', () => {
  it.each([
    ['GET', '/api/root/spaces'],
    ['GET', `/api/environment/${UNKNOWN_UUID}/tier`],
    ['POST', `/api/environment/${UNKNOWN_UUID}/tier`],
    ['PATCH', `/api/environment/${UNKNOWN_UUID}/tier/${UNKNOWN_UUID}`],
  ] as const)('%s %s requires a token', expectTokenRequired);
});

describe('GET /api/root/spaces', () => {
  it('gives ROOT every space with its superadmins, tier in force and usage', async () => {
    const response = await call('root', { method: 'GET', url: '/api/root/spaces?limit=100' });
    expect(response.statusCode).toBe(200);
    const page = response.json<RootSpacePage>();
    const horizon = page.data.find((space) => space.uuid === f.envA.uuid)!;
    expect(horizon).toMatchObject({
      title: 'Cabinet Horizon',
      refererEmail: 'contact@horizon.fr',
      bookingUrl: 'https://rdv.horizon.fr',
      organizationsCount: 2,
      freeOrganizations: 2,
      stripeProductId: 'prod_horizon',
      superadmins: [{ uuid: f.superA.uuid, firstName: 'Hélène', lastName: 'Horizon', email: 'super-a@exemple.fr' }],
      tiersCount: 3,
      usage: { vehicules: 2, organizations: 2, storageBytes: 1500 },
    });
    // The latest tier whose start has passed (2026-01-01 is before the tests run).
    expect(horizon.currentTier?.title).toBe('Palier 3');
    const beta = page.data.find((space) => space.uuid === f.envB.uuid)!;
    expect(beta).toMatchObject({ currentTier: null, tiersCount: 0, usage: { vehicules: 1, organizations: 2, storageBytes: 0 } });
    const empty = page.data.find((space) => space.uuid === f.envC.uuid)!;
    expect(empty.superadmins).toEqual([]);
  });

  it('searches by title, accents and case folded', async () => {
    const response = await call('root', { method: 'GET', url: '/api/root/spaces?search=BETA' });
    expect(response.json<RootSpacePage>().data.map((space) => space.title)).toEqual(['Courtage Bêta']);
  });

  it('lists a ROOT who joined a space apart from its superadmins', async () => {
    const environment = await freshEnvironment();
    expect((await call('root', { method: 'POST', url: `/api/environment-user/${environment.uuid}/join` })).statusCode).toBe(200);
    const response = await call('root', { method: 'GET', url: `/api/root/spaces?limit=100` });
    expect(response.json<RootSpacePage>().data.find((space) => space.uuid === environment.uuid)?.superadmins).toEqual([]);
    expect((await call('root', { method: 'POST', url: `/api/environment-user/${environment.uuid}/quit` })).statusCode).toBe(204);
  });

  it.each(OTHERS)('answers 404 to %s', async (who) => {
    expectNotFound(await call(who, { method: 'GET', url: '/api/root/spaces' }), 'Espace introuvable');
  });

  it('refuses a bad query in French', async () => {
    expectInvalid(await call('root', { method: 'GET', url: '/api/root/spaces?limit=0' }), 'limit', 'au moins');
  });
});

describe('POST /api/environment with its first superadmin', () => {
  const post = (who: Who, payload: unknown) => call(who, { method: 'POST', url: '/api/environment', payload: payload as InjectOptions['payload'] });

  it('creates the account of a new address, attaches it and e-mails a link to choose its password', async () => {
    const email = `nouvelle-${Math.random().toString(36).slice(2, 8)}@exemple.fr`;
    const response = await post('root', { title: 'Cabinet Levant', superadmin: { email: email.toUpperCase(), firstName: 'Inès', lastName: 'Levant' } });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created.environmentUsers).toEqual([{ uuid: expect.any(String), user: { uuid: expect.any(String), firstName: 'Inès', lastName: 'Levant', email } }]);
    const [account] = await t.seed((tx) => tx.select().from(users).where(eq(users.email, email)));
    expect(account).toMatchObject({ roles: ['SUPERADMIN'], firstName: 'Inès', cguAcceptedVersion: null });
    expect(account!.currentEnvironmentUserUuid).toBe(created.environmentUsers[0].uuid);

    const [message] = await mailsTo(email);
    expect(message).toMatchObject({ template: 'space-invitation', subject: 'Vous êtes superadmin de l’espace Cabinet Levant sur FlotteAssur' });
    expect(message!.text ?? '').toContain('Bonjour Inès,');
    expect(message!.text ?? '').toContain('valable 7 jours');
    const token = /\/recover\/password\?token=([\w-]+)/.exec(message!.text ?? '')![1]!;

    // The link chooses the password; the new superadmin then signs in and manages its space.
    const check = await t.app.inject({ method: 'POST', url: '/api/auth/recover/check', payload: { token } });
    expect(check.statusCode).toBe(200);
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/recover/password', payload: { token, password: 'Levant-2026!', confirmation: 'Levant-2026!' } });
    expect(reset.statusCode).toBe(204);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Levant-2026!' } });
    expect(login.statusCode).toBe(200);
    const mine = await t.as(login.json().tokens.access_token, { method: 'GET', url: `/api/environment/${created.uuid}` });
    expect(mine.statusCode).toBe(200);
  });

  it('makes an existing account superadmin of the space and tells it, without a link', async () => {
    const email = `existant-${Math.random().toString(36).slice(2, 8)}@exemple.fr`;
    const existing = await t.seed(async (tx) => (await tx.insert(users).values({ email, passwordHash: 'x', firstName: 'Paul', lastName: 'Existant', roles: ['USER'] }).returning())[0]!);
    const response = await post('root', { title: 'Cabinet Couchant', superadmin: { email, firstName: 'Autre', lastName: 'Nom' } });
    expect(response.statusCode).toBe(201);
    const [account] = await t.seed((tx) => tx.select().from(users).where(eq(users.uuid, existing.uuid)));
    expect(account).toMatchObject({ roles: ['USER', 'SUPERADMIN'], firstName: 'Paul', passwordHash: 'x' });
    const [message] = await mailsTo(email);
    expect(message!.text ?? '').toContain('Bonjour Paul,');
    expect(message!.text ?? '').not.toContain('token=');
  });

  it.each([
    [{ title: 'Espace', superadmin: { email: 'pas-un-email', firstName: 'A', lastName: 'B' } }, 'superadmin.email', 'Adresse e-mail invalide'],
    [{ title: 'Espace', superadmin: { email: 'a@exemple.fr', firstName: '', lastName: 'B' } }, 'superadmin.firstName', 'Le prénom est obligatoire'],
    [{ title: 'Espace', superadmin: { email: 'a@exemple.fr', firstName: 'A' } }, 'superadmin.lastName', 'Le nom est obligatoire'],
    [{ title: '', superadmin: { email: 'a@exemple.fr', firstName: 'A', lastName: 'B' } }, 'title', "Le nom de l'espace est obligatoire"],
  ])('refuses %j in French and writes nothing', async (payload, path, message) => {
    const before = await footprint();
    expectInvalid(await post('root', payload), path, message);
    expect(await footprint()).toBe(before);
  });

  it.each(OTHERS)('refuses %s with 403: no space, no account, no e-mail', async (who) => {
    const before = await footprint();
    const response = await post(who, { title: 'Espace pirate', superadmin: { email: 'pirate@exemple.fr', firstName: 'A', lastName: 'B' } });
    expect(response.statusCode).toBe(403);
    expect(await footprint()).toBe(before);
  });
});

describe('tiers', () => {
  const tierUrl = (environment: string, tier?: string) => `/api/environment/${environment}/tier${tier ? `/${tier}` : ''}`;
  const add = (who: Who, environment: string, payload: unknown) => call(who, { method: 'POST', url: tierUrl(environment), payload: payload as InjectOptions['payload'] });
  const tiersOf = (environment: string) => call('root', { method: 'GET', url: tierUrl(environment) }).then((r) => r.json<TierList>());

  it('lets ROOT add tiers, listed by start, the tier in force the latest started', async () => {
    const environment = await freshEnvironment();
    const later = await add('root', environment.uuid, { title: 'Tarif 2099', startDate: '2099-01-01', priceCents: 1500, includedOrganizations: 5, freeOrganizations: 1 });
    expect(later.statusCode).toBe(201);
    expect(later.json<Tier>()).toEqual({
      uuid: expect.any(String),
      title: 'Tarif 2099',
      startDate: '2099-01-01',
      // Midnight in Paris, winter time.
      startAt: '2098-12-31T23:00:00.000Z',
      endAt: null,
      priceCents: 1500,
      includedOrganizations: 5,
      freeOrganizations: 1,
    });
    const summer = await add('root', environment.uuid, { title: 'Tarif été', startDate: '2025-07-01', priceCents: 1200 });
    expect(summer.json<Tier>()).toMatchObject({ startAt: '2025-06-30T22:00:00.000Z', includedOrganizations: 0, freeOrganizations: 0 });
    await add('root', environment.uuid, { title: 'Tarif 2024', startDate: '2024-01-01', priceCents: 1000 });

    const list = await tiersOf(environment.uuid);
    expect(list.data.map((tier) => tier.title)).toEqual(['Tarif 2024', 'Tarif été', 'Tarif 2099']);
    expect(list.current).toBe(summer.json<Tier>().uuid);
    const environmentBody = (await call('root', { method: 'GET', url: `/api/environment/${environment.uuid}` })).json();
    expect(environmentBody.tiers.map((tier: Tier) => tier.title)).toEqual(['Tarif 2024', 'Tarif été', 'Tarif 2099']);
  });

  it('refuses a second tier starting the same day with 409, nothing written', async () => {
    const environment = await freshEnvironment();
    await add('root', environment.uuid, { title: 'A', startDate: '2025-03-01', priceCents: 100 });
    const before = await footprint();
    const response = await add('root', environment.uuid, { title: 'B', startDate: '2025-03-01', priceCents: 200 });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Un palier de cet espace commence déjà ce jour-là');
    expect(await footprint()).toBe(before);
  });

  it.each([
    [{ startDate: '2025-01-01', priceCents: 100 }, 'title', 'Le nom du palier est obligatoire'],
    [{ title: 'A', priceCents: 100 }, 'startDate', 'La date de début est obligatoire'],
    [{ title: 'A', startDate: '2025-02-30', priceCents: 100 }, 'startDate', 'Date invalide'],
    [{ title: 'A', startDate: '2025-01-01', priceCents: -1 }, 'priceCents', 'Le prix doit être positif'],
    [{ title: 'A', startDate: '2025-01-01', priceCents: 12.5 }, 'priceCents', 'Le prix doit être un nombre entier'],
    [{ title: 'A', startDate: '2025-01-01', priceCents: 100, freeOrganizations: -2 }, 'freeOrganizations', 'doit être positif'],
    [{ title: 'A', startDate: '2025-01-01', priceCents: 100, endAt: '2026-01-01' }, '', 'Clé non reconnue'],
  ])('refuses %j in French and writes nothing', async (payload, path, message) => {
    const environment = await freshEnvironment();
    const before = await footprint();
    expectInvalid(await add('root', environment.uuid, payload), path, message);
    expect(await footprint()).toBe(before);
  });

  it('edits and deletes a tier; another space’s tier and an unknown one answer 404', async () => {
    const environment = await freshEnvironment();
    const tier = (await add('root', environment.uuid, { title: 'A', startDate: '2025-03-01', priceCents: 100 })).json<Tier>();
    await add('root', environment.uuid, { title: 'B', startDate: '2025-04-01', priceCents: 100 });
    const patched = await call('root', { method: 'PATCH', url: tierUrl(environment.uuid, tier.uuid), payload: { title: 'A bis', startDate: '2025-05-01', priceCents: 990 } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<Tier>()).toMatchObject({ title: 'A bis', startDate: '2025-05-01', priceCents: 990 });
    expect((await tiersOf(environment.uuid)).data.map((t) => t.title)).toEqual(['B', 'A bis']);

    const clash = await call('root', { method: 'PATCH', url: tierUrl(environment.uuid, tier.uuid), payload: { startDate: '2025-04-01' } });
    expect(clash.statusCode).toBe(409);

    expectNotFound(await call('root', { method: 'PATCH', url: tierUrl(f.envA.uuid, tier.uuid), payload: { title: 'X' } }), 'Palier introuvable');
    expectNotFound(await call('root', { method: 'DELETE', url: tierUrl(environment.uuid, UNKNOWN_UUID) }), 'Palier introuvable');
    expectNotFound(await add('root', UNKNOWN_UUID, { title: 'A', startDate: '2025-03-01', priceCents: 100 }));

    expect((await call('root', { method: 'DELETE', url: tierUrl(environment.uuid, tier.uuid) })).statusCode).toBe(204);
    expect((await tiersOf(environment.uuid)).data.map((t) => t.title)).toEqual(['B']);
  });

  it.each(OTHERS)('answers 404 to %s on every tier call, nothing written', async (who) => {
    const environment = who === 'super-a' ? f.envA : await freshEnvironment();
    const [tier] = await t.seed((tx) => tx.select().from(environmentTiers).where(eq(environmentTiers.environmentUuid, f.envA.uuid)).limit(1));
    const before = await footprint();
    expectNotFound(await call(who, { method: 'GET', url: tierUrl(environment.uuid) }));
    expectNotFound(await add(who, environment.uuid, { title: 'A', startDate: '2025-03-01', priceCents: 100 }));
    expectNotFound(await call(who, { method: 'PATCH', url: tierUrl(f.envA.uuid, tier!.uuid), payload: { priceCents: 1 } }), 'Palier introuvable');
    expectNotFound(await call(who, { method: 'DELETE', url: tierUrl(f.envA.uuid, tier!.uuid) }), 'Palier introuvable');
    expect(await footprint()).toBe(before);
    const [unchanged] = await t.seed((tx) => tx.select({ priceCents: environmentTiers.priceCents }).from(environmentTiers).where(eq(environmentTiers.uuid, tier!.uuid)));
    expect(unchanged!.priceCents).toBe(0);
  });
});

describe('PATCH /api/environment/:uuid by ROOT', () => {
  it('edits every field of a space, the commercial ones included', async () => {
    const environment = await freshEnvironment();
    const response = await call('root', {
      method: 'PATCH',
      url: `/api/environment/${environment.uuid}`,
      payload: { title: 'Renommé', refererEmail: 'ref@exemple.fr', bookingUrl: 'https://rdv.exemple.fr', freeOrganizations: 4, stripeProductId: 'prod_x' },
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.seed((tx) => tx.select().from(environments).where(eq(environments.uuid, environment.uuid)));
    expect(row).toMatchObject({ title: 'Renommé', refererEmail: 'ref@exemple.fr', bookingUrl: 'https://rdv.exemple.fr', freeOrganizations: 4, stripeProductId: 'prod_x' });
  });
});

describe('usage follows the organizations', () => {
  it('counts a new organization of a space at once', async () => {
    const environment = await freshEnvironment();
    await t.seed((tx) => createOrganization(tx, { title: 'Nouvelle cliente', environmentUuid: environment.uuid }));
    const response = await call('root', { method: 'GET', url: `/api/root/spaces?limit=100` });
    const space = response.json<RootSpacePage>().data.find((s) => s.uuid === environment.uuid)!;
    expect(space.usage.organizations).toBe(1);
  });
});

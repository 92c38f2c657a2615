import { todayIso } from '@flotte/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { vehicules } from '../../db/schema/vehicules.js';
import { createOrganization, createUser, createVehicules, linkUser, type VehiculeInput } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

let t: TestContext;
/** Alpha: the read-only register the list tests look at. Gamma: where vehicles are created and changed. Delta: bulk category changes. */
let orgGamma: { uuid: string };
let foreign: { active: { uuid: string }; archived: { uuid: string }; draft: { uuid: string } };
let delta: Record<'kangoo' | 'master' | 'ducato' | 'clio' | 'yaris' | 'draft', { uuid: string }>;
let alphaDraft: { uuid: string };
let adminA: string;
let userA: string;
let adminC: string;
let userC: string;
let userD: string;
let outsider: string;
let orphan: string;

// The six vehicles the sort, filter and search tests read (types VP, VUL, PL; the fillers are AUTRE).
const featured: VehiculeInput[] = [
  { immatriculation: 'AB-123-CD', brand: 'Peugeot', model: '308', type: 'VP', circulationDate: '2019-03-01', entryDate: '2020-01-15', exitDate: null, createdAt: new Date('2025-01-06T10:00:00Z') },
  { immatriculation: 'EF-456-GH', brand: 'Renault', model: 'Mégane', type: 'VP', circulationDate: '2018-05-10', entryDate: '2021-06-01', exitDate: '2024-06-30', createdAt: new Date('2025-01-05T10:00:00Z') },
  { immatriculation: 'JK-789-LM', brand: 'Citroën', model: 'Berlingo', type: 'VUL', circulationDate: '2021-02-02', entryDate: '2022-01-01', exitDate: null, createdAt: new Date('2025-01-04T10:00:00Z') },
  { immatriculation: 'NP-321-QR', brand: 'Renault', model: 'Trafic', type: 'VUL', circulationDate: null, entryDate: null, exitDate: '2023-12-31', createdAt: new Date('2025-01-03T10:00:00Z') },
  { immatriculation: '1234 AB 75', brand: 'Iveco', model: 'Daily', type: 'PL', circulationDate: '2015-07-01', entryDate: '2024-01-01', exitDate: null, createdAt: new Date('2025-01-02T10:00:00Z') },
  { immatriculation: 'M AB 1234', brand: 'Volkswagen', model: 'Crafter', type: 'VUL', circulationDate: '2020-09-09', entryDate: '2023-03-15', exitDate: '2025-03-14', createdAt: new Date('2025-01-01T10:00:00Z') },
];
const fillers: VehiculeInput[] = Array.from({ length: 15 }, (_, i) => ({
  immatriculation: `GA-${100 + i}-ZZ`,
  brand: 'Dacia',
  model: 'Sandero',
  type: 'AUTRE',
}));
const archived: VehiculeInput[] = [
  { immatriculation: 'XY-999-ZA', brand: 'Ford', model: 'Transit', type: 'VUL', entryDate: '2019-01-01', exitDate: '2023-12-31', archivedAt: new Date('2024-01-02') },
  { immatriculation: 'AB-124-CD', brand: 'Peugeot', model: '208', type: 'VP', entryDate: '2021-01-01', exitDate: '2024-04-30', archivedAt: new Date('2024-05-01') },
];
const FEATURED = 'types=VP,VUL,PL';

beforeAll(async () => {
  t = await createTestApp();
  ({ orgGamma, foreign, delta, alphaDraft } = await t.seed(async (tx) => {
    const alpha = await createOrganization(tx, { title: 'Transports Alpha' });
    const beta = await createOrganization(tx, { title: 'Bêta BTP' });
    const gamma = await createOrganization(tx, { title: 'Gamma Livraisons' });
    const deltaOrg = await createOrganization(tx, { title: 'Delta Services' });
    const users = {
      adminA: await createUser(tx, { email: 'admin@alpha.fr', roles: ['ADMIN'] }),
      userA: await createUser(tx, { email: 'user@alpha.fr' }),
      adminB: await createUser(tx, { email: 'admin@beta.fr', roles: ['ADMIN'] }),
      adminC: await createUser(tx, { email: 'admin@gamma.fr', roles: ['ADMIN'] }),
      userC: await createUser(tx, { email: 'user@gamma.fr' }),
      userD: await createUser(tx, { email: 'user@delta.fr' }),
    };
    await createUser(tx, { email: 'orphelin@exemple.fr' });
    await linkUser(tx, alpha.uuid, users.adminA.uuid);
    await linkUser(tx, alpha.uuid, users.userA.uuid);
    await linkUser(tx, beta.uuid, users.adminB.uuid);
    await linkUser(tx, gamma.uuid, users.adminC.uuid);
    await linkUser(tx, gamma.uuid, users.userC.uuid);
    await linkUser(tx, deltaOrg.uuid, users.userD.uuid);

    await createVehicules(tx, alpha.uuid, [...featured, ...fillers, ...archived]);
    const [alphaDraft] = await createVehicules(tx, alpha.uuid, [{ immatriculation: null, brand: null, model: null, type: null }]);
    // The same plate in another organization is another vehicle.
    const [active, archivedB, draft] = await createVehicules(tx, beta.uuid, [
      { immatriculation: 'AB-123-CD', brand: 'Secret', model: 'Bêta', type: 'VP' },
      { immatriculation: 'ZZ-999-ZZ', brand: 'Secret', model: 'Archivé', type: 'VP', archivedAt: new Date('2024-01-01') },
      { immatriculation: null, brand: null, model: null, type: null, createdAt: new Date(Date.now() - 48 * 3600_000) },
    ]);
    const [kangoo, master, ducato, clio, yaris, deltaDraft] = await createVehicules(tx, deltaOrg.uuid, [
      { immatriculation: 'DA-101-AA', brand: 'Renault', model: 'Kangoo', type: 'VP', entryDate: '2020-01-01' },
      { immatriculation: 'DA-102-AA', brand: 'Renault', model: 'Master', type: 'VUL', entryDate: '2024-07-01' },
      { immatriculation: 'DA-103-AA', brand: 'Fiat', model: 'Ducato', type: 'VUL', exitDate: '2023-06-30' },
      { immatriculation: 'DA-104-AA', brand: 'Renault', model: 'Clio', type: 'VUL', archivedAt: new Date('2024-01-01') },
      { immatriculation: 'DA-105-AA', brand: 'Toyota', model: 'Yaris', type: 'AUTRE' },
      { immatriculation: null, brand: null, model: null, type: null },
    ]);
    return {
      orgGamma: gamma,
      alphaDraft: alphaDraft!,
      foreign: { active: active!, archived: archivedB!, draft: draft! },
      delta: { kangoo: kangoo!, master: master!, ducato: ducato!, clio: clio!, yaris: yaris!, draft: deltaDraft! },
    };
  }));
  adminA = await t.login('admin@alpha.fr');
  userA = await t.login('user@alpha.fr');
  adminC = await t.login('admin@gamma.fr');
  userC = await t.login('user@gamma.fr');
  userD = await t.login('user@delta.fr');
  outsider = await t.login('admin@beta.fr');
  orphan = await t.login('orphelin@exemple.fr');
});
afterAll(() => t.close());

type Item = { immatriculation: string; brand: string; type: string; exitDate: string | null };
const get = (token: string, query = '') => t.as(token, { method: 'GET', url: `/api/vehicule${query}` });
const plates = (body: { data: Item[] }) => body.data.map((v) => v.immatriculation);
const stored = (uuid: string) => t.seed(async (tx) => (await tx.select().from(vehicules).where(eq(vehicules.uuid, uuid)))[0] ?? null);
const countAll = () => t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(vehicules))[0]!.n);

let plateSeq = 100;
/** A fresh valid SIV plate for the vehicles the tests create in Gamma. */
const nextPlate = () => `GC-${plateSeq++}-AA`;
const valid = (overrides: Record<string, unknown> = {}) => ({ brand: 'Renault', model: 'Kangoo', type: 'VUL', immatriculation: nextPlate(), ...overrides });
async function createInGamma(overrides: Record<string, unknown> = {}) {
  const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', payload: valid(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('GET /api/vehicule', () => {
  it('pages active vehicles, 10 by default, sorted by plate, drafts left out, with the counts', async () => {
    const response = await get(userA);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ page: 1, nbOfPages: 3, total: 21, nbInActivity: 21, nbOfArchived: 2 });
    expect(plates(body)).toEqual(['1234AB75', 'AB123CD', 'EF456GH', ...Array.from({ length: 7 }, (_, i) => `GA${100 + i}ZZ`)]);
    expect(body.data[1]).toEqual({
      uuid: expect.any(String),
      brand: 'Peugeot',
      model: '308',
      type: 'VP',
      circulationDate: '2019-03-01',
      entryDate: '2020-01-15',
      exitDate: null,
      immatriculation: 'AB123CD',
      immatriculationWarning: null,
      documents: [],
      isArchived: false,
      archivedAt: null,
      createdAt: '2025-01-06T10:00:00.000Z',
    });
    expect(response.body).not.toContain('Secret');
    expect(response.body).not.toContain(alphaDraft.uuid);
  });

  it('gives page 2 the next ten, page 3 the last one, and an empty page beyond', async () => {
    expect(plates((await get(userA, '?page=2')).json())).toEqual([...Array.from({ length: 8 }, (_, i) => `GA${107 + i}ZZ`), 'JK789LM', 'MAB1234']);
    expect((await get(userA, '?page=3')).json()).toMatchObject({ page: 3, nbOfPages: 3, data: [{ immatriculation: 'NP321QR' }] });
    expect((await get(userA, '?page=9')).json()).toMatchObject({ data: [], page: 9, nbOfPages: 3, total: 21 });
    expect((await get(userA, '?page=2&limit=20')).json()).toMatchObject({ data: [{ immatriculation: 'NP321QR' }], nbOfPages: 2 });
  });

  it('accepts limit 1000 (the "all vehicles" fetch uses page 1, limit 999)', async () => {
    expect((await get(userA, '?limit=1000')).json()).toMatchObject({ nbOfPages: 1, total: 21 });
    expect((await get(userA, '?page=1&limit=999')).json().data).toHaveLength(21);
  });

  it('withArchived includes archived vehicles, onlyArchived shows only them; drafts never; the counts do not move', async () => {
    const all = (await get(userA, '?withArchived=true&limit=100')).json();
    expect(all).toMatchObject({ total: 23, nbInActivity: 21, nbOfArchived: 2 });
    expect(plates(all)).toContain('XY999ZA');
    expect(plates(all)).not.toContain(null);
    const only = (await get(userA, '?onlyArchived=true')).json();
    expect(only).toMatchObject({ total: 2, nbInActivity: 21, nbOfArchived: 2 });
    expect(plates(only)).toEqual(['AB124CD', 'XY999ZA']);
    expect(only.data.every((v: { isArchived: boolean; archivedAt: string }) => v.isArchived && v.archivedAt)).toBe(true);
    expect(plates((await get(userA, '?onlyArchived=1&withArchived=1')).json())).toEqual(['AB124CD', 'XY999ZA']);
    expect((await get(userA, '?withArchived=false&onlyArchived=0')).json().total).toBe(21);
  });

  it.each([
    ['immatriculation', ['1234AB75', 'AB123CD', 'EF456GH', 'JK789LM', 'MAB1234', 'NP321QR']],
    ['model', ['AB123CD', 'JK789LM', 'MAB1234', '1234AB75', 'EF456GH', 'NP321QR']],
    // Unknown dates sort last going up (first going down), as PostgreSQL orders NULL.
    ['circulationDate', ['1234AB75', 'EF456GH', 'AB123CD', 'MAB1234', 'JK789LM', 'NP321QR']],
    ['entryDate', ['AB123CD', 'EF456GH', 'JK789LM', 'MAB1234', '1234AB75', 'NP321QR']],
    ['createdAt', ['MAB1234', '1234AB75', 'NP321QR', 'JK789LM', 'EF456GH', 'AB123CD']],
  ])('sorts by %s, and by -%s in reverse', async (column, expected) => {
    expect(plates((await get(userA, `?${FEATURED}&sortBy=${column}`)).json())).toEqual(expected);
    expect(plates((await get(userA, `?${FEATURED}&sortBy=-${column}`)).json())).toEqual([...expected].reverse());
  });

  it.each([
    ['brand', ['Citroën', 'Iveco', 'Peugeot', 'Renault', 'Renault', 'Volkswagen']],
    ['type', ['PL', 'VP', 'VP', 'VUL', 'VUL', 'VUL']],
    ['exitDate', ['2023-12-31', '2024-06-30', '2025-03-14', null, null, null]],
  ])('sorts by %s (ties broken by uuid), and by -%s in reverse', async (column, expected) => {
    const up = (await get(userA, `?${FEATURED}&sortBy=${column}`)).json().data;
    expect(up.map((v: Record<string, unknown>) => v[column])).toEqual(expected);
    const down = (await get(userA, `?${FEATURED}&sortBy=-${column}`)).json().data;
    expect(down.map((v: Record<string, unknown>) => v[column])).toEqual([...expected].reverse());
  });

  it('sorts the whole register, not only the page (brand descending puts Volkswagen first)', async () => {
    expect(plates((await get(userA, '?sortBy=-brand&limit=1')).json())).toEqual(['MAB1234']);
    expect(plates((await get(userA, '?sortBy=brand&withArchived=true&limit=1')).json())).toEqual(['JK789LM']);
  });

  it.each([
    ['?sortBy=password', 'sortBy', 'Tri invalide'],
    ['?sortBy=-organizationUuid', 'sortBy', 'Tri invalide'],
    ['?sortBy=Brand', 'sortBy', 'Tri invalide'],
    ['?sortBy=brand,model', 'sortBy', 'Tri invalide'],
    ['?limit=1001', 'limit', '1000'],
    ['?limit=0', 'limit', 'au moins 1'],
    ['?page=0', 'page', 'commence à 1'],
    ['?page=deux', 'page', 'nombre'],
    ['?withArchived=oui', 'withArchived', 'true ou false'],
    ['?onlyArchived=yes', 'onlyArchived', 'true ou false'],
    ['?types=VP,XX', 'types', 'Catégorie inconnue : XX'],
    ['?types=vp', 'types', 'Catégorie inconnue : vp'],
    ['?start=2024-13-01', 'start', 'Date invalide'],
    ['?end=31/12/2024', 'end', 'Date invalide'],
    ['?start=2024-06-30&end=2024-01-01', 'end', 'La date de début doit précéder la date de fin'],
    [`?search=${'a'.repeat(201)}`, 'search', '200 caractères'],
  ])('refuses %s with a 400 naming %s, in French', async (query, path, message) => {
    const response = await get(userA, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Données invalides/);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it.each([
    ['types=VUL', ['JK789LM', 'MAB1234', 'NP321QR']],
    ['types=VP,PL', ['1234AB75', 'AB123CD', 'EF456GH']],
    ['types=%20VP%20,%20PL%20', ['1234AB75', 'AB123CD', 'EF456GH']],
    ['types=VUL&withArchived=true', ['JK789LM', 'MAB1234', 'NP321QR', 'XY999ZA']],
    ['types=VP&onlyArchived=true', ['AB124CD']],
    ['types=TRACTEUR', []],
  ])('filters on categories: %s', async (query, expected) => {
    const body = (await get(userA, `?${query}`)).json();
    expect(plates(body)).toEqual(expected);
    expect(body).toMatchObject({ total: expected.length, nbInActivity: 21, nbOfArchived: 2 });
  });

  it('counts the filtered total across pages (15 AUTRE), and ignores an empty types', async () => {
    expect((await get(userA, '?types=AUTRE')).json()).toMatchObject({ total: 15, nbOfPages: 2, nbInActivity: 21 });
    expect((await get(userA, '?types=AUTRE&page=2')).json().data).toHaveLength(5);
    expect((await get(userA, '?types=')).json().total).toBe(21);
  });

  it.each([
    // NP-321-QR left on 2023-12-31, the day before; 1234 AB 75 entered on the start day.
    ['start=2024-01-01&end=2024-06-30', ['1234AB75', 'AB123CD', 'EF456GH', 'JK789LM', 'MAB1234']],
    // Leaving on the day or entering the day after: only the one leaving is in.
    ['start=2023-12-31&end=2023-12-31', ['AB123CD', 'EF456GH', 'JK789LM', 'MAB1234', 'NP321QR']],
    // EF-456-GH left on 2024-06-30.
    ['start=2024-07-01', ['1234AB75', 'AB123CD', 'JK789LM', 'MAB1234']],
    // Only the vehicle without entry date can have been there before 2020.
    ['end=2019-12-31', ['NP321QR']],
    // AB-123-CD entered on the end day.
    ['end=2020-01-15', ['AB123CD', 'NP321QR']],
    // M AB 1234 leaves on 2025-03-14: in on that day, out the day after.
    ['start=2025-03-14&end=2025-03-14', ['1234AB75', 'AB123CD', 'JK789LM', 'MAB1234']],
    ['start=2025-03-15', ['1234AB75', 'AB123CD', 'JK789LM']],
    ['start=2023-06-01&end=2023-06-30&withArchived=true', ['AB123CD', 'AB124CD', 'EF456GH', 'JK789LM', 'MAB1234', 'NP321QR', 'XY999ZA']],
  ])('keeps the vehicles in the fleet at some point of the period: %s', async (query, expected) => {
    const body = (await get(userA, `?${FEATURED}&${query}`)).json();
    expect(plates(body)).toEqual(expected);
    expect(body).toMatchObject({ total: expected.length, nbInActivity: 21, nbOfArchived: 2 });
  });

  it('keeps the vehicles without dates (the fillers) in every period', async () => {
    expect((await get(userA, '?start=2024-01-01&end=2024-06-30')).json().total).toBe(20);
    expect((await get(userA, '?end=1990-01-01')).json()).toMatchObject({ total: 16, nbInActivity: 21 });
  });

  it.each([
    ['AB 123 CD', ['AB123CD']],
    ['ab123cd', ['AB123CD']],
    ['ab-123-cd', ['AB123CD']],
    ['ab-123', ['AB123CD', 'MAB1234']],
    ['1234 ab 75', ['1234AB75']],
    ['ef.456', ['EF456GH']],
    ['m ab 12', ['MAB1234']],
    ['citroen', ['JK789LM']],
    ['CITROËN', ['JK789LM']],
    ['mégane', ['EF456GH']],
    ['MEGANE', ['EF456GH']],
    ['renault', ['EF456GH', 'NP321QR']],
    ['Renault Trafic', ['NP321QR']],
    ['berl', ['JK789LM']],
    ['308', ['AB123CD']],
    ['secret', []],
    ['%', []],
    ['_', []],
    ['---', []],
  ])('search %j finds plates in any spelling and brand/model without accents or case', async (search, expected) => {
    const body = (await get(userA, `?search=${encodeURIComponent(search)}`)).json();
    expect(plates(body)).toEqual(expected);
    expect(body).toMatchObject({ total: expected.length, nbInActivity: 21, nbOfArchived: 2 });
  });

  it('combines search with the archive filter, the categories, the period and the pages', async () => {
    expect(plates((await get(userA, '?search=peugeot')).json())).toEqual(['AB123CD']);
    expect(plates((await get(userA, '?search=peugeot&withArchived=true')).json())).toEqual(['AB123CD', 'AB124CD']);
    expect(plates((await get(userA, '?search=peugeot&onlyArchived=true')).json())).toEqual(['AB124CD']);
    expect(plates((await get(userA, '?search=renault&types=VUL')).json())).toEqual(['NP321QR']);
    expect(plates((await get(userA, '?search=renault&start=2024-07-01')).json())).toEqual([]);
    expect(plates((await get(userA, '?search=ab&sortBy=-immatriculation')).json())).toEqual(['MAB1234', 'AB123CD', '1234AB75']);
    const paged = (await get(userA, '?search=ga1&limit=4&page=4')).json();
    expect(paged).toMatchObject({ total: 15, nbOfPages: 4, page: 4 });
    expect(plates(paged)).toEqual(['GA112ZZ', 'GA113ZZ', 'GA114ZZ']);
  });

  it('shows another organization only its own vehicles, and asks a user without organization to choose one', async () => {
    const body = (await get(outsider, '?withArchived=true')).json();
    expect(body).toMatchObject({ total: 2, nbInActivity: 1, nbOfArchived: 1 });
    expect(body.data.map((v: { brand: string }) => v.brand)).toEqual(['Secret', 'Secret']);
    const none = await get(orphan);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('GET /api/vehicule/{uuid}', () => {
  it('returns one vehicle, archived ones and drafts included', async () => {
    const [archivedRow] = await t.seed((tx) => tx.select().from(vehicules).where(eq(vehicules.immatriculation, 'XY999ZA')));
    expect((await t.as(userA, { method: 'GET', url: `/api/vehicule/${archivedRow!.uuid}` })).json()).toMatchObject({
      immatriculation: 'XY999ZA',
      isArchived: true,
      exitDate: '2023-12-31',
    });
    const draft = await t.as(userA, { method: 'GET', url: `/api/vehicule/${alphaDraft.uuid}` });
    expect(draft.statusCode).toBe(200);
    expect(draft.json()).toMatchObject({ uuid: alphaDraft.uuid, immatriculation: null, brand: null, type: null, immatriculationWarning: null });
  });

  it('answers 404 for an unknown uuid', async () => {
    const response = await t.as(userA, { method: 'GET', url: '/api/vehicule/00000000-0000-4000-8000-000000000000' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Véhicule introuvable');
  });
});

describe('POST /api/vehicule', () => {
  it('creates a vehicle with its plate normalised and the counts updated', async () => {
    const before = (await get(userC)).json();
    const response = await t.as(userC, {
      method: 'POST',
      url: '/api/vehicule',
      payload: { brand: ' Peugeot ', model: 'Partner', type: 'VUL', immatriculation: 'gc 900 aa', circulationDate: '2022-01-10', entryDate: '2022-02-01' },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      brand: 'Peugeot',
      model: 'Partner',
      type: 'VUL',
      immatriculation: 'GC900AA',
      immatriculationWarning: null,
      circulationDate: '2022-01-10',
      entryDate: '2022-02-01',
      exitDate: null,
      documents: [],
      isArchived: false,
    });
    expect(await stored(body.uuid)).toMatchObject({ organizationUuid: orgGamma.uuid, immatriculation: 'GC900AA' });
    expect((await t.as(userC, { method: 'GET', url: `/api/vehicule/${body.uuid}` })).json()).toEqual(body);
    const after = (await get(userC)).json();
    expect(after.nbInActivity).toBe(before.nbInActivity + 1);
    expect(after.total).toBe(before.total + 1);
  });

  it('accepts the date boundaries: entry on the day of first registration, exit on the day of entry', async () => {
    const body = await createInGamma({ circulationDate: '2023-05-02', entryDate: '2023-05-02', exitDate: '2023-05-02' });
    expect(body).toMatchObject({ circulationDate: '2023-05-02', entryDate: '2023-05-02', exitDate: '2023-05-02' });
  });

  it('refuses a plate already active in the organization, in any spelling; another organization may hold it', async () => {
    const { immatriculation } = await createInGamma({ immatriculation: 'GC-901-AA' });
    expect(immatriculation).toBe('GC901AA');
    const before = await countAll();
    for (const spelling of ['GC-901-AA', 'gc901aa', 'Gc 901.aa']) {
      const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', payload: valid({ immatriculation: spelling }) });
      expect(response.statusCode, spelling).toBe(409);
      expect(response.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: 'Le véhicule GC-901-AA existe déjà dans votre flotte',
        details: [{ path: 'immatriculation', message: 'Le véhicule GC-901-AA existe déjà dans votre flotte' }],
      });
    }
    expect(await countAll()).toBe(before);
    // AB-123-CD is Alpha's and Bêta's: Gamma may have it too.
    expect((await createInGamma({ immatriculation: 'AB-123-CD' })).immatriculation).toBe('AB123CD');
  });

  it('names a FNI plate the way it is written (123 ABC 45) in the conflict', async () => {
    await createInGamma({ immatriculation: '4567 XY 69' });
    const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', payload: valid({ immatriculation: '4567xy69' }) });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Le véhicule 4567 XY 69 existe déjà dans votre flotte');
  });

  it('lets only one of several simultaneous creations of one plate through, the others get the same 409', async () => {
    const payload = valid({ immatriculation: 'GC-902-AA' });
    const responses = await Promise.all(Array.from({ length: 4 }, () => t.as(userC, { method: 'POST', url: '/api/vehicule', payload })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json().message).toBe('Le véhicule GC-902-AA existe déjà dans votre flotte');
    }
    const count = await t.seed(async (tx) => (await tx.select().from(vehicules).where(eq(vehicules.immatriculation, 'GC902AA'))).length);
    expect(count).toBe(1);
  });

  it.each([
    ['B-MW 1234', 'BMW1234', 'Format non français ou inhabituel : vérifiez l’immatriculation'],
    ['ww-123-ab', 'WW123AB', 'Immatriculation temporaire (WW)'],
    ['W-123-AB', 'W123AB', 'Plaque W garage (professionnel de l’automobile)'],
    ['AB-000-CD', 'AB000CD', 'Immatriculation inhabituelle : vérifiez-la (SS et 000 ne sont jamais attribués)'],
    // A letter O where a digit is expected is kept as typed, never "corrected" into 0.
    ['AB-12O-CD', 'AB12OCD', 'Format non français ou inhabituel : vérifiez l’immatriculation'],
    ['123 abc 45', '123ABC45', null],
  ])('accepts the plate %j as %j with the warning %j', async (typed, normalised, warning) => {
    const body = await createInGamma({ immatriculation: typed });
    expect(body).toMatchObject({ immatriculation: normalised, immatriculationWarning: warning });
    const listed = (await get(userC, `?search=${encodeURIComponent(typed)}`)).json();
    expect(listed.data).toContainEqual(expect.objectContaining({ uuid: body.uuid, immatriculationWarning: warning }));
  });

  it.each([
    [{ model: '3008', type: 'VP', immatriculation: 'GC-950-AA' }, 'brand', 'La marque est obligatoire'],
    [{ brand: '  ', model: '3008', type: 'VP', immatriculation: 'GC-950-AA' }, 'brand', 'La marque est obligatoire'],
    [{ brand: 'Peugeot', type: 'VP', immatriculation: 'GC-950-AA' }, 'model', 'Le modèle est obligatoire'],
    [{ brand: 'Peugeot', model: '3008', type: 'XX', immatriculation: 'GC-950-AA' }, 'type', 'Catégorie de véhicule inconnue'],
    [{ brand: 'Peugeot', model: '3008', immatriculation: 'GC-950-AA' }, 'type', 'La catégorie est obligatoire'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP' }, 'immatriculation', "L'immatriculation est obligatoire"],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: ' - . ' }, 'immatriculation', "L'immatriculation est obligatoire"],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'AB/123/CD' }, 'immatriculation', 'que des lettres et des chiffres'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'A'.repeat(21) }, 'immatriculation', '20 caractères maximum'],
    [{ brand: 'B'.repeat(81), model: '3008', type: 'VP', immatriculation: 'GC-950-AA' }, 'brand', '80 caractères maximum'],
    [
      { brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', entryDate: '2024-02-01', exitDate: '2024-01-31' },
      'exitDate',
      "La date de sortie doit être postérieure ou égale à la date d'entrée",
    ],
    [
      { brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', circulationDate: '2024-03-01', entryDate: '2024-02-01' },
      'entryDate',
      "La date d'entrée dans la flotte ne peut précéder la mise en circulation",
    ],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', entryDate: '2024-02-30' }, 'entryDate', 'Date invalide'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', circulationDate: '01/02/2024' }, 'circulationDate', 'Date invalide'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', organizationUuid: '00000000-0000-4000-8000-000000000000' }, '', 'Clé non reconnue'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', archivedAt: '2024-01-01T00:00:00Z' }, '', 'Clé non reconnue'],
  ])('refuses %j with a French 400 on %s, writes nothing', async (payload, path, message) => {
    const before = await countAll();
    const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Données invalides/);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await countAll()).toBe(before);
  });

  it('refuses a body that is not JSON with a 400, never a 5xx', async () => {
    const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', headers: { 'content-type': 'application/json' }, payload: '{"brand":' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Le corps de la requête n’est pas un JSON valide.');
  });
});

describe('drafts: POST /api/vehicule/create-empty, completed with PATCH', () => {
  const createEmpty = (token = userC) => t.as(token, { method: 'POST', url: '/api/vehicule/create-empty' });

  it('creates an empty vehicle that stays out of the lists and the counts', async () => {
    const before = (await get(userC, '?withArchived=true')).json();
    const response = await createEmpty();
    expect(response.statusCode).toBe(201);
    const draft = response.json();
    expect(draft).toEqual({
      uuid: expect.any(String),
      brand: null,
      model: null,
      type: null,
      circulationDate: null,
      entryDate: null,
      exitDate: null,
      immatriculation: null,
      immatriculationWarning: null,
      documents: [],
      isArchived: false,
      archivedAt: null,
      createdAt: expect.any(String),
    });
    expect(await stored(draft.uuid)).toMatchObject({ organizationUuid: orgGamma.uuid, immatriculation: null });
    expect((await t.as(userC, { method: 'GET', url: `/api/vehicule/${draft.uuid}` })).json()).toEqual(draft);
    const after = (await get(userC, '?withArchived=true&limit=1000')).json();
    expect(after).toMatchObject({ total: before.total, nbInActivity: before.nbInActivity, nbOfArchived: before.nbOfArchived });
    expect(after.data.map((v: { uuid: string }) => v.uuid)).not.toContain(draft.uuid);
    expect((await get(userC, '?types=VP,VUL,PL,AUTRE&start=2000-01-01&limit=1000')).json().data.map((v: { uuid: string }) => v.uuid)).not.toContain(draft.uuid);
  });

  it('completes a draft only with brand, model, category and plate, then lists and counts it', async () => {
    const draft = (await createEmpty()).json();
    const before = (await get(userC)).json();
    const partial = await t.as(userC, { method: 'PATCH', url: `/api/vehicule/${draft.uuid}`, payload: { brand: 'Renault' } });
    expect(partial.statusCode).toBe(400);
    expect(partial.json()).toMatchObject({ message: 'Données invalides (model) : Le modèle est obligatoire' });
    expect(partial.json().details).toEqual([
      { path: 'model', message: 'Le modèle est obligatoire' },
      { path: 'type', message: 'La catégorie est obligatoire' },
      { path: 'immatriculation', message: "L'immatriculation est obligatoire" },
    ]);
    const empty = await t.as(userC, { method: 'PATCH', url: `/api/vehicule/${draft.uuid}`, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.map((d: { path: string }) => d.path)).toEqual(['brand', 'model', 'type', 'immatriculation']);
    expect(empty.json().details[0]).toEqual({ path: 'brand', message: 'La marque est obligatoire' });
    const dashes = await t.as(userC, { method: 'PATCH', url: `/api/vehicule/${draft.uuid}`, payload: { brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: '--' } });
    expect(dashes.json().details).toEqual([{ path: 'immatriculation', message: "L'immatriculation est obligatoire" }]);
    expect(await stored(draft.uuid)).toMatchObject({ brand: null, immatriculation: null });

    const plate = nextPlate();
    const done = await t.as(userC, {
      method: 'PATCH',
      url: `/api/vehicule/${draft.uuid}`,
      payload: { brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: plate.toLowerCase(), entryDate: '2024-09-01' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ uuid: draft.uuid, brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: plate.replaceAll('-', ''), entryDate: '2024-09-01' });
    const after = (await get(userC, `?search=${plate}`)).json();
    expect(after.data.map((v: { uuid: string }) => v.uuid)).toEqual([draft.uuid]);
    expect(after.nbInActivity).toBe(before.nbInActivity + 1);
  });

  it('checks the date rules when completing a draft', async () => {
    const draft = (await createEmpty()).json();
    const response = await t.as(userC, {
      method: 'PATCH',
      url: `/api/vehicule/${draft.uuid}`,
      payload: { brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: nextPlate(), circulationDate: '2024-05-01' },
    });
    expect(response.statusCode).toBe(200);
    const late = await t.as(userC, { method: 'PATCH', url: `/api/vehicule/${draft.uuid}`, payload: { entryDate: '2024-04-30' } });
    expect(late.statusCode).toBe(400);
    expect(late.json().details).toEqual([{ path: 'entryDate', message: "La date d'entrée dans la flotte ne peut précéder la mise en circulation" }]);
  });

  it('refuses to complete a draft with a plate already in the fleet', async () => {
    const existing = await createInGamma();
    const draft = (await createEmpty()).json();
    const response = await t.as(userC, {
      method: 'PATCH',
      url: `/api/vehicule/${draft.uuid}`,
      payload: { brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: existing.immatriculation.toLowerCase() },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().details).toEqual([{ path: 'immatriculation', message: expect.stringMatching(/^Le véhicule GC-\d{3}-AA existe déjà dans votre flotte$/) }]);
    expect(await stored(draft.uuid)).toMatchObject({ brand: null, immatriculation: null });
  });

  it("purges the organization's drafts older than 24 hours on the next create-empty, nothing else", async () => {
    const old = (await createEmpty()).json();
    const recent = (await createEmpty()).json();
    const oldVehicule = await createInGamma();
    await t.seed((tx) =>
      tx.execute(sql`UPDATE vehicules SET created_at = now() - interval '25 hours' WHERE uuid IN (${old.uuid}, ${oldVehicule.uuid})`),
    );
    await t.seed((tx) => tx.execute(sql`UPDATE vehicules SET created_at = now() - interval '23 hours' WHERE uuid = ${recent.uuid}`));
    expect(await stored(old.uuid)).not.toBeNull();
    const fresh = await createEmpty();
    expect(fresh.statusCode).toBe(201);
    expect(await stored(old.uuid)).toBeNull();
    expect(await stored(recent.uuid)).not.toBeNull();
    // A completed vehicle is never a draft, however old; another organization's drafts are its own business.
    expect(await stored(oldVehicule.uuid)).not.toBeNull();
    expect(await stored(foreign.draft.uuid)).not.toBeNull();
    expect((await t.as(userC, { method: 'GET', url: `/api/vehicule/${old.uuid}` })).statusCode).toBe(404);
  });

  it('asks a user without organization to choose one', async () => {
    const response = await createEmpty(orphan);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('PATCH /api/vehicule/{uuid}', () => {
  const patch = (uuid: string, payload: Record<string, unknown>, token = userC) => t.as(token, { method: 'PATCH', url: `/api/vehicule/${uuid}`, payload });

  it('edits the fields sent, normalises the plate and keeps the rest', async () => {
    const created = await createInGamma({ entryDate: '2022-01-01' });
    const plate = nextPlate();
    const response = await patch(created.uuid, { model: 'Kangoo E-Tech', type: 'VP', immatriculation: ` ${plate.toLowerCase().replaceAll('-', ' ')} `, circulationDate: '2021-12-01' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      uuid: created.uuid,
      brand: 'Renault',
      model: 'Kangoo E-Tech',
      type: 'VP',
      immatriculation: plate.replaceAll('-', ''),
      circulationDate: '2021-12-01',
      entryDate: '2022-01-01',
      immatriculationWarning: null,
    });
    expect(await stored(created.uuid)).toMatchObject({ model: 'Kangoo E-Tech', immatriculation: plate.replaceAll('-', '') });
    const cleared = await patch(created.uuid, { circulationDate: null, entryDate: null });
    expect(cleared.json()).toMatchObject({ circulationDate: null, entryDate: null });
  });

  it('accepts a foreign plate with a warning, as typed', async () => {
    const created = await createInGamma();
    const response = await patch(created.uuid, { immatriculation: 'HH-ab 1234' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ immatriculation: 'HHAB1234', immatriculationWarning: 'Format non français ou inhabituel : vérifiez l’immatriculation' });
  });

  it('refuses the plate of another active vehicle (409), allows its own and that of an archived one', async () => {
    const a = await createInGamma();
    const b = await createInGamma();
    const before = await stored(b.uuid);
    const display = `${a.immatriculation.slice(0, 2)}-${a.immatriculation.slice(2, 5)}-${a.immatriculation.slice(5)}`;
    const response = await patch(b.uuid, { immatriculation: display.toLowerCase().replaceAll('-', ' '), brand: 'Autre' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      message: `Le véhicule ${display} existe déjà dans votre flotte`,
      details: [{ path: 'immatriculation', message: `Le véhicule ${display} existe déjà dans votre flotte` }],
    });
    expect(await stored(b.uuid)).toEqual(before);
    expect((await patch(b.uuid, { immatriculation: b.immatriculation, brand: 'Dacia' })).statusCode).toBe(200);
    expect((await t.as(userC, { method: 'DELETE', url: `/api/vehicule/${a.uuid}` })).statusCode).toBe(200);
    expect((await patch(b.uuid, { immatriculation: a.immatriculation })).json()).toMatchObject({ immatriculation: a.immatriculation });
  });

  it('checks the date rules against the stored dates, not only those sent', async () => {
    const created = await createInGamma({ circulationDate: '2020-01-01', entryDate: '2021-01-01', exitDate: '2023-01-01' });
    const before = await stored(created.uuid);
    const exitRule = { path: 'exitDate', message: "La date de sortie doit être postérieure ou égale à la date d'entrée" };
    const entryRule = { path: 'entryDate', message: "La date d'entrée dans la flotte ne peut précéder la mise en circulation" };
    for (const [payload, details] of [
      [{ exitDate: '2020-12-31' }, [exitRule]],
      [{ entryDate: '2023-01-02' }, [exitRule]],
      [{ entryDate: '2019-12-31' }, [entryRule]],
      [{ circulationDate: '2021-01-02' }, [entryRule]],
      [{ exitDate: '2019-06-01', circulationDate: '2021-06-01' }, [exitRule, entryRule]],
    ] as const) {
      const response = await patch(created.uuid, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().details).toEqual(details);
      expect(response.json().message).toBe(`Données invalides (${details[0]!.path}) : ${details[0]!.message}`);
    }
    expect(await stored(created.uuid)).toEqual(before);
    // Clearing the exit date lifts its rule; the boundaries (same day) are allowed.
    expect((await patch(created.uuid, { exitDate: null, entryDate: '2024-01-01' })).json()).toMatchObject({ entryDate: '2024-01-01', exitDate: null });
    expect((await patch(created.uuid, { exitDate: '2024-01-01', circulationDate: '2024-01-01' })).statusCode).toBe(200);
  });

  it.each([
    [{ brand: '' }, 'brand', 'La marque est obligatoire'],
    [{ model: '   ' }, 'model', 'Le modèle est obligatoire'],
    [{ brand: null }, 'brand', 'La marque est obligatoire'],
    [{ type: 'ZZ' }, 'type', 'Catégorie de véhicule inconnue'],
    [{ type: null }, 'type', 'La catégorie est obligatoire'],
    [{ immatriculation: null }, 'immatriculation', "L'immatriculation est obligatoire"],
    [{ immatriculation: '- -' }, 'immatriculation', "L'immatriculation est obligatoire"],
    [{ immatriculation: 'AB#123#CD' }, 'immatriculation', 'que des lettres et des chiffres'],
    [{ entryDate: '2024-02-01', exitDate: '2024-01-01' }, 'exitDate', 'La date de sortie doit être postérieure'],
    [{ exitDate: 'demain' }, 'exitDate', 'Date invalide'],
    [{ organizationUuid: '00000000-0000-4000-8000-000000000000' }, '', 'Clé non reconnue'],
    [{ archivedAt: null }, '', 'Clé non reconnue'],
  ])('refuses %j with a French 400 on %s, changes nothing', async (payload, path, message) => {
    const created = await createInGamma();
    const before = await stored(created.uuid);
    const response = await patch(created.uuid, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await stored(created.uuid)).toEqual(before);
  });
});

describe('DELETE /api/vehicule/{uuid} (archive)', () => {
  const archive = (uuid: string, query = '') => t.as(userC, { method: 'DELETE', url: `/api/vehicule/${uuid}${query}` });

  it("sets the exit date to today (France) when none is given, then archives; the counts move", async () => {
    const created = await createInGamma({ entryDate: '2022-01-01' });
    const before = (await get(userC)).json();
    const response = await archive(created.uuid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ uuid: created.uuid, isArchived: true, exitDate: todayIso(), entryDate: '2022-01-01' });
    expect(response.json().archivedAt).toEqual(expect.any(String));
    const after = (await get(userC, '?limit=1000')).json();
    expect(after.nbInActivity).toBe(before.nbInActivity - 1);
    expect(after.nbOfArchived).toBe(before.nbOfArchived + 1);
    expect(after.data.map((v: { uuid: string }) => v.uuid)).not.toContain(created.uuid);
    expect(await stored(created.uuid)).toMatchObject({ exitDate: todayIso(), archivedAt: expect.any(Date) });
  });

  it('records the exit date given, replacing a stored one', async () => {
    const created = await createInGamma({ entryDate: '2022-01-01', exitDate: '2025-01-31' });
    expect((await archive(created.uuid, '?exitDate=2024-05-31')).json()).toMatchObject({ exitDate: '2024-05-31', isArchived: true });
  });

  it('keeps a stored exit date when none is given', async () => {
    const created = await createInGamma({ exitDate: '2025-01-31' });
    expect((await archive(created.uuid)).json()).toMatchObject({ exitDate: '2025-01-31', isArchived: true });
  });

  it('archives a vehicle whose older dates are inconsistent: only the exit date is checked here', async () => {
    const [row] = await t.seed((tx) =>
      createVehicules(tx, orgGamma.uuid, [{ immatriculation: nextPlate(), circulationDate: '2024-01-01', entryDate: '2023-01-01' }]),
    );
    expect((await archive(row!.uuid, '?exitDate=2024-06-01')).json()).toMatchObject({ exitDate: '2024-06-01', isArchived: true });
  });

  it('refuses an exit date before the entry date, including today for a vehicle entering later; nothing changes', async () => {
    const created = await createInGamma({ entryDate: '2024-03-01' });
    const before = await stored(created.uuid);
    const early = await archive(created.uuid, '?exitDate=2024-02-29');
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({
      message: "Données invalides (exitDate) : La date de sortie doit être postérieure ou égale à la date d'entrée",
      details: [{ path: 'exitDate', message: "La date de sortie doit être postérieure ou égale à la date d'entrée" }],
    });
    expect(await stored(created.uuid)).toEqual(before);
    const future = todayIso(new Date(Date.now() + 3 * 86_400_000));
    const later = await createInGamma({ entryDate: future });
    expect((await archive(later.uuid)).statusCode).toBe(400);
    expect(await stored(later.uuid)).toMatchObject({ archivedAt: null, exitDate: null });
    expect((await archive(later.uuid, `?exitDate=${future}`)).json()).toMatchObject({ exitDate: future, isArchived: true });
  });

  it.each(['?exitDate=31/05/2024', '?exitDate=2024-02-30', '?exitDate='])('refuses %s with a French 400', async (query) => {
    const created = await createInGamma();
    const response = await archive(created.uuid, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path: 'exitDate', message: expect.stringContaining('Date invalide') });
    expect(await stored(created.uuid)).toMatchObject({ archivedAt: null, exitDate: null });
  });

  it('archiving twice is harmless: the first archive stands', async () => {
    const created = await createInGamma();
    const first = (await archive(created.uuid, '?exitDate=2024-05-31')).json();
    const before = (await get(userC)).json();
    const again = await archive(created.uuid, '?exitDate=2024-06-30');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first);
    expect((await get(userC)).json()).toMatchObject({ nbInActivity: before.nbInActivity, nbOfArchived: before.nbOfArchived });
  });
});

describe('POST /api/vehicule/restore/{uuid}', () => {
  const restore = (uuid: string) => t.as(userC, { method: 'POST', url: `/api/vehicule/restore/${uuid}` });

  it('brings an archived vehicle back in the fleet (the exit date archiving set is cleared); the counts move back', async () => {
    const created = await createInGamma();
    await t.as(userC, { method: 'DELETE', url: `/api/vehicule/${created.uuid}?exitDate=2024-05-31` });
    const before = (await get(userC)).json();
    const response = await restore(created.uuid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ uuid: created.uuid, isArchived: false, archivedAt: null, exitDate: null });
    expect((await t.as(userC, { method: 'GET', url: `/api/vehicule/${created.uuid}` })).json()).toMatchObject({ exitDate: null });
    const after = (await get(userC)).json();
    expect(after.nbInActivity).toBe(before.nbInActivity + 1);
    expect(after.nbOfArchived).toBe(before.nbOfArchived - 1);
  });

  it('restoring an active vehicle is harmless', async () => {
    const created = await createInGamma();
    const response = await restore(created.uuid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it('refuses (409) when an active vehicle took the plate meanwhile; nothing changes', async () => {
    const first = await createInGamma();
    await t.as(userC, { method: 'DELETE', url: `/api/vehicule/${first.uuid}` });
    const second = await createInGamma({ immatriculation: first.immatriculation });
    const before = await stored(first.uuid);
    const response = await restore(first.uuid);
    expect(response.statusCode).toBe(409);
    const display = `${first.immatriculation.slice(0, 2)}-${first.immatriculation.slice(2, 5)}-${first.immatriculation.slice(5)}`;
    expect(response.json()).toMatchObject({
      message: `Le véhicule ${display} existe déjà dans votre flotte`,
      details: [{ path: 'immatriculation', message: expect.any(String) }],
    });
    expect(await stored(first.uuid)).toEqual(before);
    await t.as(userC, { method: 'DELETE', url: `/api/vehicule/${second.uuid}` });
    expect((await restore(first.uuid)).json()).toMatchObject({ isArchived: false });
  });
});

describe('DELETE /api/vehicule/{uuid}/hard', () => {
  it('deletes permanently for an admin only', async () => {
    const created = await createInGamma();
    const denied = await t.as(userC, { method: 'DELETE', url: `/api/vehicule/${created.uuid}/hard` });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Seul un administrateur peut supprimer définitivement un véhicule');
    expect(await stored(created.uuid)).not.toBeNull();
    const before = (await get(userC)).json();
    const done = await t.as(adminC, { method: 'DELETE', url: `/api/vehicule/${created.uuid}/hard` });
    expect(done.statusCode).toBe(204);
    expect(done.body).toBe('');
    expect(await stored(created.uuid)).toBeNull();
    expect((await get(userC)).json().nbInActivity).toBe(before.nbInActivity - 1);
    expect((await t.as(adminC, { method: 'DELETE', url: `/api/vehicule/${created.uuid}/hard` })).statusCode).toBe(404);
  });

  it('deletes an archived vehicle and a draft too', async () => {
    const created = await createInGamma();
    await t.as(userC, { method: 'DELETE', url: `/api/vehicule/${created.uuid}` });
    expect((await t.as(adminC, { method: 'DELETE', url: `/api/vehicule/${created.uuid}/hard` })).statusCode).toBe(204);
    const draft = (await t.as(userC, { method: 'POST', url: '/api/vehicule/create-empty' })).json();
    expect((await t.as(adminC, { method: 'DELETE', url: `/api/vehicule/${draft.uuid}/hard` })).statusCode).toBe(204);
    expect(await stored(draft.uuid)).toBeNull();
  });
});

describe('PATCH /api/vehicule/category/{id}', () => {
  const initial = { kangoo: 'VP', master: 'VUL', ducato: 'VUL', clio: 'VUL', yaris: 'AUTRE', draft: null } as const;
  const types = () =>
    t.seed(async (tx) => {
      const rows = await tx.select({ uuid: vehicules.uuid, type: vehicules.type }).from(vehicules).where(inArray(vehicules.uuid, Object.values(delta).map((v) => v.uuid)));
      return Object.fromEntries(Object.entries(delta).map(([name, v]) => [name, rows.find((row) => row.uuid === v.uuid)!.type]));
    });
  const category = (path: string, token = userD) => t.as(token, { method: 'PATCH', url: `/api/vehicule/category/${path}` });

  beforeEach(async () => {
    await t.seed(async (tx) => {
      for (const [name, type] of Object.entries(initial)) {
        await tx.update(vehicules).set({ type }).where(eq(vehicules.uuid, delta[name as keyof typeof delta].uuid));
      }
    });
  });

  it('without filter moves every active vehicle (never drafts or archived ones) and counts those that changed', async () => {
    const before = (await get(userD)).json();
    const response = await category('VP');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated: 3 });
    expect(await types()).toEqual({ kangoo: 'VP', master: 'VP', ducato: 'VP', clio: 'VUL', yaris: 'VP', draft: null });
    expect((await get(userD)).json()).toMatchObject({ total: before.total, nbInActivity: before.nbInActivity, nbOfArchived: before.nbOfArchived });
    expect((await category('VP')).json()).toEqual({ updated: 0 });
  });

  it.each([
    ['PL?search=renault', 2, { kangoo: 'PL', master: 'PL' }],
    ['PL?search=RENAULT&withArchived=true', 3, { kangoo: 'PL', master: 'PL', clio: 'PL' }],
    ['AUTRE?onlyArchived=true', 1, { clio: 'AUTRE' }],
    ['PL?types=VUL', 2, { master: 'PL', ducato: 'PL' }],
    ['PL?types=VUL,AUTRE&search=a', 3, { master: 'PL', ducato: 'PL', yaris: 'PL' }],
    ['VP?search=da-10', 3, { master: 'VP', ducato: 'VP', yaris: 'VP' }],
    // Yaris (no dates) matches but is already AUTRE; Ducato left on 2023-06-30.
    ['AUTRE?start=2024-01-01&end=2024-12-31', 2, { kangoo: 'AUTRE', master: 'AUTRE' }],
    // Master enters on 2024-07-01, the day after the end.
    ['PL?end=2024-06-30', 3, { kangoo: 'PL', ducato: 'PL', yaris: 'PL' }],
    ['PL?end=2024-07-01&start=2024-07-01', 3, { kangoo: 'PL', master: 'PL', yaris: 'PL' }],
    ['PL?start=2023-06-30&types=VUL', 2, { master: 'PL', ducato: 'PL' }],
    ['TRACTEUR?search=poids', 0, {}],
  ])('%s updates the vehicles matching the list filters', async (path, updated, changed) => {
    const response = await category(path);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated });
    expect(await types()).toEqual({ ...initial, ...changed });
  });

  it.each([
    ['XX', 'id', 'Catégorie de véhicule inconnue'],
    ['vp', 'id', 'Catégorie de véhicule inconnue'],
    ['VP?types=VP,XX', 'types', 'Catégorie inconnue : XX'],
    ['VP?start=2024-06-30&end=2024-01-01', 'end', 'La date de début doit précéder la date de fin'],
    ['VP?start=hier', 'start', 'Date invalide'],
    ['VP?withArchived=oui', 'withArchived', 'true ou false'],
  ])('refuses %s with a French 400, changes nothing', async (path, detailPath, message) => {
    const response = await category(path);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Données invalides/);
    expect(response.json().details).toContainEqual({ path: detailPath, message: expect.stringContaining(message) });
    expect(await types()).toEqual(initial);
  });

  it("touches only the caller's organization", async () => {
    const alphaBefore = await t.seed((tx) => tx.select().from(vehicules).orderBy(vehicules.uuid));
    const response = await category('ENGIN_AGRICOLE', outsider);
    expect(response.json()).toEqual({ updated: 1 });
    expect((await stored(foreign.active.uuid))!.type).toBe('ENGIN_AGRICOLE');
    expect((await stored(foreign.archived.uuid))!.type).toBe('VP');
    const changed = (await t.seed((tx) => tx.select().from(vehicules).orderBy(vehicules.uuid))).filter(
      (row, i) => row.type !== alphaBefore[i]!.type,
    );
    expect(changed.map((row) => row.uuid)).toEqual([foreign.active.uuid]);
    await t.seed((tx) => tx.update(vehicules).set({ type: 'VP' }).where(eq(vehicules.uuid, foreign.active.uuid)));
  });
});

describe('access', () => {
  it("answers 404 for another organization's vehicle on every route, changing nothing", async () => {
    for (const target of [foreign.active, foreign.archived, foreign.draft]) {
      const before = await stored(target.uuid);
      const calls = [
        { method: 'GET' as const, url: `/api/vehicule/${target.uuid}` },
        { method: 'PATCH' as const, url: `/api/vehicule/${target.uuid}`, payload: { brand: 'Pirate' } },
        { method: 'PATCH' as const, url: `/api/vehicule/${target.uuid}`, payload: { brand: 'Pirate', model: 'X', type: 'VP', immatriculation: 'PI-123-RA' } },
        { method: 'DELETE' as const, url: `/api/vehicule/${target.uuid}` },
        { method: 'DELETE' as const, url: `/api/vehicule/${target.uuid}?exitDate=2024-01-01` },
        { method: 'POST' as const, url: `/api/vehicule/restore/${target.uuid}` },
        { method: 'DELETE' as const, url: `/api/vehicule/${target.uuid}/hard` },
      ];
      for (const call of calls) {
        const response = await t.as(adminA, call);
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Véhicule introuvable' });
      }
      expect(await stored(target.uuid)).toEqual(before);
    }
  });

  it('answers 400 for a malformed uuid on every route', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/vehicule/123' },
      { method: 'PATCH' as const, url: '/api/vehicule/123', payload: {} },
      { method: 'DELETE' as const, url: '/api/vehicule/123' },
      { method: 'POST' as const, url: '/api/vehicule/restore/123' },
      { method: 'DELETE' as const, url: '/api/vehicule/123/hard' },
    ];
    for (const call of calls) {
      const response = await t.as(adminA, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(400);
      expect(response.json().details).toContainEqual({ path: 'uuid', message: 'Identifiant invalide' });
    }
  });

  it('answers 401 without a token on every route', async () => {
    const uuid = foreign.active.uuid;
    const calls = [
      { method: 'GET' as const, url: '/api/vehicule' },
      { method: 'GET' as const, url: `/api/vehicule/${uuid}` },
      { method: 'POST' as const, url: '/api/vehicule', payload: valid() },
      { method: 'POST' as const, url: '/api/vehicule/create-empty' },
      { method: 'PATCH' as const, url: `/api/vehicule/${uuid}`, payload: { brand: 'Pirate' } },
      { method: 'DELETE' as const, url: `/api/vehicule/${uuid}` },
      { method: 'POST' as const, url: `/api/vehicule/restore/${uuid}` },
      { method: 'DELETE' as const, url: `/api/vehicule/${uuid}/hard` },
      { method: 'PATCH' as const, url: '/api/vehicule/category/VP' },
    ];
    const before = await countAll();
    for (const call of calls) {
      expect((await t.app.inject(call)).statusCode, `${call.method} ${call.url}`).toBe(401);
    }
    expect(await countAll()).toBe(before);
  });

  it('asks a user without organization to choose one on every route', async () => {
    const uuid = foreign.active.uuid;
    const calls = [
      { method: 'GET' as const, url: '/api/vehicule' },
      { method: 'GET' as const, url: `/api/vehicule/${uuid}` },
      { method: 'POST' as const, url: '/api/vehicule', payload: valid() },
      { method: 'POST' as const, url: '/api/vehicule/create-empty' },
      { method: 'PATCH' as const, url: `/api/vehicule/${uuid}`, payload: { brand: 'Pirate' } },
      { method: 'DELETE' as const, url: `/api/vehicule/${uuid}` },
      { method: 'POST' as const, url: `/api/vehicule/restore/${uuid}` },
      { method: 'DELETE' as const, url: `/api/vehicule/${uuid}/hard` },
      { method: 'PATCH' as const, url: '/api/vehicule/category/VP' },
    ];
    const before = await countAll();
    for (const call of calls) {
      const response = await t.as(orphan, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(400);
      expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
    }
    expect(await countAll()).toBe(before);
  });
});

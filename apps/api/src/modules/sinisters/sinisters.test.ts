import { todayIso } from '@flotte/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guarantees, sinisters } from '../../db/schema/sinisters.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

// The seed list of DOMAIN.md, in its order.
const GUARANTEE_LABELS = [
  'Responsabilité civile',
  'Défense pénale et recours',
  'Dommages tous accidents',
  'Dommages collision',
  'Incendie',
  'Vol',
  'Bris de glace',
  'Catastrophes naturelles',
  'Catastrophes technologiques',
  'Tempête et événements climatiques',
  'Attentats',
  'Assistance',
  'Véhicule de remplacement',
  'Garantie du conducteur',
  'Perte financière',
  'Marchandises transportées',
  'Objets personnels',
];

type Row = { uuid: string };
let t: TestContext;
let orgA: Row;
let guarantee: Record<string, string>;
let v: { clio: Row; peugeot: Row; berlingo: Row; draft: Row; sold: Row; spare: Row; foreign: Row };
let d: { elodie: Row; jerome: Row; retired: Row; foreign: Row };
let claim: Record<string, string>;
let foreignClaim: Row;
let admin: string;
let user: string;
let outsider: string;
let orphan: string;
let bulk: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ orgA, guarantee, v, d, claim, foreignClaim } = await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: 'Transports Alpha' });
    const orgB = await createOrganization(tx, { title: 'Bêta BTP' });
    const orgC = await createOrganization(tx, { title: 'Gamma Livraisons' });
    const a = await createUser(tx, { email: 'admin@alpha.fr', roles: ['ADMIN'] });
    const u = await createUser(tx, { email: 'user@alpha.fr' });
    const b = await createUser(tx, { email: 'admin@beta.fr', roles: ['ADMIN'] });
    const c = await createUser(tx, { email: 'user@gamma.fr' });
    await createUser(tx, { email: 'orphelin@exemple.fr' });
    await linkUser(tx, orgA.uuid, a.uuid);
    await linkUser(tx, orgA.uuid, u.uuid);
    await linkUser(tx, orgB.uuid, b.uuid);
    await linkUser(tx, orgC.uuid, c.uuid);

    const guarantee = Object.fromEntries((await tx.select().from(guarantees)).map((g) => [g.label, g.uuid]));
    const [clio, peugeot, berlingo, draft, sold, spare] = await createVehicules(tx, orgA.uuid, [
      { immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Clio' },
      { immatriculation: 'EF-456-GH', brand: 'Peugeot', model: '308' },
      { immatriculation: '123 ABC 45', brand: 'Citroën', model: 'Berlingo' },
      { immatriculation: null, brand: null, model: null },
      { immatriculation: 'JK-789-LM', brand: 'Dacia', model: 'Sandero', archivedAt: new Date('2025-09-01') },
      { immatriculation: 'NP-321-QR', brand: 'Toyota', model: 'Yaris' },
    ]);
    const [foreignVehicule] = await createVehicules(tx, orgB.uuid, [{ immatriculation: 'ZZ-999-ZZ', brand: 'Iveco', model: 'Daily' }]);
    const [elodie, jerome, retired] = await createDrivers(tx, orgA.uuid, [
      { firstName: 'Élodie', lastName: 'Écuyer' },
      { firstName: 'Jérôme', lastName: 'Bernard' },
      { firstName: 'Ancien', lastName: 'Parti', archivedAt: new Date('2025-01-01') },
    ]);
    const [foreignDriver] = await createDrivers(tx, orgB.uuid, [{ firstName: 'Secret', lastName: 'Bêta' }]);

    // One register with a distinct answer for every filter (refs name the rows in the assertions).
    const rows = await createSinisters(tx, orgA.uuid, [
      { sinisterIntermediateRef: 'SIN-001', sinisterDate: '2025-01-10', city: 'Saint-Étienne', vehiculeUuid: clio!.uuid, driverUuid: elodie!.uuid, guaranteeLabel: 'Responsabilité civile', isDeclared: true, responsibilityRate: 100, hasHumanInjury: true, damagedVehicule: true, isThirdImplicated: true, ida: true, totalCostCents: 123456 },
      { sinisterIntermediateRef: 'SIN-002', sinisterDate: '2025-02-20', city: 'Lyon', vehiculeUuid: peugeot!.uuid, driverUuid: jerome!.uuid, guaranteeLabel: 'Bris de glace', isDeclared: false, responsibilityRate: 0, damagedVehicule: true, totalCostCents: 25000 },
      { sinisterIntermediateRef: 'SIN-003', sinisterDate: '2025-03-31', city: 'Orléans', vehiculeUuid: berlingo!.uuid, guaranteeLabel: 'Vol', isDeclared: true, responsibilityRate: 25, isThirdImplicated: true, totalCostCents: 0 },
      { sinisterIntermediateRef: 'SIN-004', sinisterDate: '2025-06-15', city: 'Paris', vehiculeUuid: clio!.uuid, driverUuid: jerome!.uuid, guaranteeLabel: 'Responsabilité civile', isDeclared: false, responsibilityRate: null, hasHumanInjury: true, totalCostCents: 990000 },
      { sinisterIntermediateRef: 'SIN-005', sinisterDate: '2025-12-31', city: 'Évry', vehiculeUuid: peugeot!.uuid, driverUuid: elodie!.uuid, guaranteeLabel: null, isDeclared: true, responsibilityRate: 0, totalCostCents: 5000 },
      { sinisterIntermediateRef: 'SIN-006', sinisterDate: '2024-11-05', city: 'Lyon', vehiculeUuid: clio!.uuid, guaranteeLabel: 'Responsabilité civile', isDeclared: true, responsibilityRate: 50, damagedVehicule: true, totalCostCents: 70000, archivedAt: new Date('2025-02-01') },
      { sinisterIntermediateRef: 'SIN-007', sinisterDate: '2025-04-01', city: 'Lille', guaranteeLabel: null, isDeclared: false, responsibilityRate: 75, totalCostCents: 1 },
    ]);
    const [foreignClaim] = await createSinisters(tx, orgB.uuid, [
      { sinisterIntermediateRef: 'SECRET-1', sinisterDate: '2025-05-05', city: 'Lyon', vehiculeUuid: foreignVehicule!.uuid, totalCostCents: 4200 },
    ]);
    await createSinisters(
      tx,
      orgC.uuid,
      Array.from({ length: 25 }, (_, i) => ({ sinisterIntermediateRef: `LOT-${String(i).padStart(2, '0')}`, sinisterDate: `2025-01-${String(i + 1).padStart(2, '0')}` })),
    );
    return {
      orgA,
      guarantee,
      v: { clio: clio!, peugeot: peugeot!, berlingo: berlingo!, draft: draft!, sold: sold!, spare: spare!, foreign: foreignVehicule! },
      d: { elodie: elodie!, jerome: jerome!, retired: retired!, foreign: foreignDriver! },
      claim: Object.fromEntries(rows.map((r) => [r.sinisterIntermediateRef!, r.uuid])),
      foreignClaim: foreignClaim!,
    };
  }));
  admin = await t.login('admin@alpha.fr');
  user = await t.login('user@alpha.fr');
  outsider = await t.login('admin@beta.fr');
  orphan = await t.login('orphelin@exemple.fr');
  bulk = await t.login('user@gamma.fr');
});
afterAll(() => t.close());

const get = (token: string, query = '') => t.as(token, { method: 'GET', url: `/api/sinister${query}` });
const refs = (body: { data: { sinisterIntermediateRef: string | null }[] }) => body.data.map((s) => s.sinisterIntermediateRef);
const listRefs = async (query: string) => {
  const response = await get(user, query);
  expect(response.statusCode, response.body).toBe(200);
  return refs(response.json());
};
const stored = (uuid: string) => t.seed(async (tx) => (await tx.select().from(sinisters).where(eq(sinisters.uuid, uuid)))[0] ?? null);
const countAll = () => t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(sinisters))[0]!.n);
const ALL = ['SIN-005', 'SIN-004', 'SIN-007', 'SIN-003', 'SIN-002', 'SIN-001'];
const tomorrow = () => new Date(Date.parse(`${todayIso()}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('GET /api/guarantees', () => {
  it('lists the 17 guarantees of the reference list, in its order', async () => {
    const response = await t.as(user, { method: 'GET', url: '/api/guarantees' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.map((g: { label: string }) => g.label)).toEqual(GUARANTEE_LABELS);
    expect(body[0]).toEqual({ uuid: guarantee['Responsabilité civile'], label: 'Responsabilité civile' });
  });

  it('needs a token and a current organization', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/guarantees' })).statusCode).toBe(401);
    const none = await t.as(orphan, { method: 'GET', url: '/api/guarantees' });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('GET /api/sinister', () => {
  it('lists active claims, most recent first, with vehicle, driver, guarantee and the cost in euros', async () => {
    const response = await get(user);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ page: 1, nbOfPages: 1, total: 6 });
    expect(refs(body)).toEqual(ALL);
    const first = body.data.find((s: { sinisterIntermediateRef: string }) => s.sinisterIntermediateRef === 'SIN-001');
    expect(first).toEqual({
      uuid: claim['SIN-001'],
      sinisterIntermediateRef: 'SIN-001',
      sinisterDate: '2025-01-10',
      city: 'Saint-Étienne',
      ida: true,
      hasHumanInjury: true,
      damagedVehicule: true,
      isThirdImplicated: true,
      isDeclared: true,
      responsibilityRate: 100,
      immatriculation: 'AB123CD',
      vehicule: { uuid: v.clio.uuid, immatriculation: 'AB123CD', brand: 'Renault', model: 'Clio' },
      driver: { uuid: d.elodie.uuid, firstName: 'Élodie', lastName: 'Écuyer' },
      totalCost: 1234.56,
      guarantee: { uuid: guarantee['Responsabilité civile'], label: 'Responsabilité civile' },
      documents: [],
      isArchived: false,
      archivedAt: null,
      createdAt: expect.any(String),
    });
    const bare = body.data.find((s: { sinisterIntermediateRef: string }) => s.sinisterIntermediateRef === 'SIN-007');
    expect(bare).toMatchObject({ vehicule: null, driver: null, guarantee: null, immatriculation: null, totalCost: 0.01, responsibilityRate: 75 });
    expect(response.body).not.toContain('SECRET');
  });

  it('withArchived adds archived claims, onlyArchived shows only them', async () => {
    expect(await listRefs('?withArchived=true')).toEqual([...ALL, 'SIN-006']);
    const only = (await get(user, '?onlyArchived=true')).json();
    expect(only).toMatchObject({ total: 1, nbOfPages: 1 });
    expect(only.data[0]).toMatchObject({ sinisterIntermediateRef: 'SIN-006', isArchived: true, archivedAt: '2025-02-01T00:00:00.000Z' });
  });

  it.each([
    ['?showDeclared=true', ['SIN-005', 'SIN-003', 'SIN-001']],
    ['?showDeclared=1', ['SIN-005', 'SIN-003', 'SIN-001']],
    ['?showNotDeclared=true', ['SIN-004', 'SIN-007', 'SIN-002']],
    ['?showDeclared=false&showNotDeclared=true', ['SIN-004', 'SIN-007', 'SIN-002']],
    ['?showDeclared=true&showNotDeclared=true', ALL],
    ['?showDeclared=false&showNotDeclared=false', ALL],
  ])('declared toggles %s', async (query, expected) => {
    expect(await listRefs(query)).toEqual(expected);
  });

  it.each([
    ['?hasHumanInjury=true', ['SIN-004', 'SIN-001']],
    ['?hasHumanInjury=false', ALL],
    ['?damagedVehicule=true', ['SIN-002', 'SIN-001']],
    ['?damagedVehicule=0', ALL],
    ['?isThirdImplicated=true', ['SIN-003', 'SIN-001']],
    ['?isThirdImplicated=false', ALL],
  ])('toggle %s keeps only the claims that have it (false is no filter)', async (query, expected) => {
    expect(await listRefs(query)).toEqual(expected);
  });

  it('responsible=me keeps any share of fault (25, 75, 100), other keeps 0 %, an unknown rate is in neither', async () => {
    expect(await listRefs('?responsible=me')).toEqual(['SIN-007', 'SIN-003', 'SIN-001']);
    expect(await listRefs('?responsible=other')).toEqual(['SIN-005', 'SIN-002']);
    const either = [...(await listRefs('?responsible=me')), ...(await listRefs('?responsible=other'))];
    expect(either).not.toContain('SIN-004');
  });

  it('garantee keeps the claims of that guarantee', async () => {
    expect(await listRefs(`?garantee=${guarantee['Responsabilité civile']}`)).toEqual(['SIN-004', 'SIN-001']);
    expect(await listRefs(`?garantee=${guarantee['Bris de glace']}`)).toEqual(['SIN-002']);
    expect(await listRefs(`?garantee=${guarantee['Incendie']}`)).toEqual([]);
    expect(await listRefs(`?garantee=${guarantee['Responsabilité civile']}&withArchived=true`)).toEqual(['SIN-004', 'SIN-001', 'SIN-006']);
  });

  it.each([
    ['?startDate=2025-03-31&endDate=2025-06-15', ['SIN-004', 'SIN-007', 'SIN-003']],
    ['?startDate=2025-12-31', ['SIN-005']],
    ['?endDate=2025-01-10', ['SIN-001']],
    ['?startDate=2025-01-10&endDate=2025-01-10', ['SIN-001']],
    ['?startDate=2025-01-11&endDate=2025-02-19', []],
    ['?startDate=2024-01-01&endDate=2024-12-31&withArchived=true', ['SIN-006']],
  ])('dates %s bound sinisterDate inclusively', async (query, expected) => {
    expect(await listRefs(query)).toEqual(expected);
  });

  it.each([
    ['SIN-004', ['SIN-004']],
    ['sin-00', ALL],
    ['orleans', ['SIN-003']],
    ['SAINT-ETIENNE', ['SIN-001']],
    ['étienne', ['SIN-001']],
    ['évry', ['SIN-005']],
    ['lyon', ['SIN-002']],
    ['ab-123-cd', ['SIN-004', 'SIN-001']],
    ['AB 123', ['SIN-004', 'SIN-001']],
    ['ab123cd', ['SIN-004', 'SIN-001']],
    ['ab.123.cd', ['SIN-004', 'SIN-001']],
    ['123 abc 45', ['SIN-003']],
    ['ef-456', ['SIN-005', 'SIN-002']],
    ['123', ['SIN-004', 'SIN-003', 'SIN-001']],
    ['ZZ-999', []],
    ['%', []],
    ['_', []],
  ])('search %j matches reference, city or plate, whatever the accents, case and separators', async (search, expected) => {
    const body = (await get(user, `?search=${encodeURIComponent(search)}`)).json();
    expect(refs(body)).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  it.each([
    ['?showDeclared=true&hasHumanInjury=true', ['SIN-001']],
    ['?responsible=me&isThirdImplicated=true', ['SIN-003', 'SIN-001']],
    [`?garantee=${'RC'}&responsible=other`, []],
    ['?startDate=2025-02-01&showNotDeclared=true&damagedVehicule=true', ['SIN-002']],
    ['?search=ab-123&showNotDeclared=true', ['SIN-004']],
    ['?search=lyon&withArchived=true', ['SIN-002', 'SIN-006']],
    ['?onlyArchived=true&damagedVehicule=true&responsible=me', ['SIN-006']],
    ['?onlyArchived=true&showNotDeclared=true', []],
    ['?showDeclared=true&responsible=other&endDate=2025-12-31&search=evry', ['SIN-005']],
    ['?hasHumanInjury=true&damagedVehicule=true&isThirdImplicated=true&responsible=me&showDeclared=true', ['SIN-001']],
  ])('combines filters %s', async (query, expected) => {
    const resolved = query.replace('RC', guarantee['Responsabilité civile']!);
    const body = (await get(user, resolved)).json();
    expect(refs(body)).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  it.each([
    ['sinisterDate', ['SIN-001', 'SIN-002', 'SIN-003', 'SIN-007', 'SIN-004', 'SIN-005']],
    ['-sinisterDate', ALL],
    ['sinisterIntermediateRef', ['SIN-001', 'SIN-002', 'SIN-003', 'SIN-004', 'SIN-005', 'SIN-007']],
    ['-sinisterIntermediateRef', ['SIN-007', 'SIN-005', 'SIN-004', 'SIN-003', 'SIN-002', 'SIN-001']],
    // French order: Évry with the E, Saint-Étienne with the S.
    ['city', ['SIN-005', 'SIN-007', 'SIN-002', 'SIN-003', 'SIN-004', 'SIN-001']],
    ['-city', ['SIN-001', 'SIN-004', 'SIN-003', 'SIN-002', 'SIN-007', 'SIN-005']],
    // Numeric, on the cents: 0 < 0,01 < 50 < 250 < 1 234,56 < 9 900.
    ['totalCost', ['SIN-003', 'SIN-007', 'SIN-005', 'SIN-002', 'SIN-001', 'SIN-004']],
    ['-totalCost', ['SIN-004', 'SIN-001', 'SIN-002', 'SIN-005', 'SIN-007', 'SIN-003']],
  ])('sorts by %s', async (sortBy, expected) => {
    expect(await listRefs(`?sortBy=${sortBy}`)).toEqual(expected);
  });

  it('sorts by plate (a claim without one last, first when descending)', async () => {
    const plates = async (sortBy: string) => (await get(user, `?sortBy=${sortBy}`)).json().data.map((s: { immatriculation: string | null }) => s.immatriculation);
    expect(await plates('immatriculation')).toEqual(['123ABC45', 'AB123CD', 'AB123CD', 'EF456GH', 'EF456GH', null]);
    expect(await plates('-immatriculation')).toEqual([null, 'EF456GH', 'EF456GH', 'AB123CD', 'AB123CD', '123ABC45']);
  });

  it('sorts by creation date', async () => {
    const created = await t.as(user, { method: 'POST', url: '/api/sinister', payload: { sinisterDate: '2020-01-01', vehicule: v.spare.uuid, sinisterIntermediateRef: 'NOUVEAU' } });
    expect(created.statusCode).toBe(201);
    expect((await listRefs('?sortBy=-createdAt'))[0]).toBe('NOUVEAU');
    expect((await listRefs('?sortBy=createdAt')).at(-1)).toBe('NOUVEAU');
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${created.json().uuid}/hard` });
  });

  it.each([
    ['?sortBy=password', 'sortBy', 'Tri invalide'],
    ['?sortBy=-organizationUuid', 'sortBy', 'Tri invalide'],
    ['?sortBy=totalCostCents', 'sortBy', 'Tri invalide'],
    ['?responsible=both', 'responsible', 'me ou other'],
    ['?garantee=responsabilite-civile', 'garantee', 'Identifiant invalide'],
    ['?hasHumanInjury=oui', 'hasHumanInjury', 'true ou false'],
    ['?damagedVehicule=yes', 'damagedVehicule', 'true ou false'],
    ['?isThirdImplicated=2', 'isThirdImplicated', 'true ou false'],
    ['?showDeclared=vrai', 'showDeclared', 'true ou false'],
    ['?showNotDeclared=', 'showNotDeclared', 'true ou false'],
    ['?onlyArchived=oui', 'onlyArchived', 'true ou false'],
    ['?startDate=2025-13-01', 'startDate', 'Date invalide'],
    ['?endDate=31/12/2025', 'endDate', 'Date invalide'],
    ['?startDate=2025-06-16&endDate=2025-06-15', 'endDate', 'La date de début doit précéder la date de fin'],
    ['?limit=1001', 'limit', '1000'],
    ['?limit=0', 'limit', 'au moins 1'],
    ['?page=0', 'page', 'commence à 1'],
  ])('refuses %s with a 400 naming %s', async (query, path, message) => {
    const response = await get(user, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('pages by 10 by default, accepts up to 1000', async () => {
    const first = (await get(bulk)).json();
    expect(first).toMatchObject({ page: 1, nbOfPages: 3, total: 25 });
    expect(first.data).toHaveLength(10);
    expect(first.data[0].sinisterIntermediateRef).toBe('LOT-24');
    const third = (await get(bulk, '?page=3')).json();
    expect(refs(third)).toEqual(['LOT-04', 'LOT-03', 'LOT-02', 'LOT-01', 'LOT-00']);
    expect((await get(bulk, '?page=4')).json()).toMatchObject({ data: [], page: 4, total: 25 });
    expect((await get(bulk, '?limit=1000')).json().data).toHaveLength(25);
    const filtered = (await get(user, '?showDeclared=true&limit=2&page=2')).json();
    expect(filtered).toMatchObject({ page: 2, nbOfPages: 2, total: 3 });
    expect(refs(filtered)).toEqual(['SIN-001']);
  });

  it('shows another organization nothing of ours, and asks a user without organization to choose one', async () => {
    const body = (await get(outsider, '?withArchived=true')).json();
    expect(refs(body)).toEqual(['SECRET-1']);
    expect(body.total).toBe(1);
    expect((await get(outsider, '?search=ab-123')).json().total).toBe(0);
    const none = await get(orphan);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe("Sélectionnez d'abord une organisation");
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/sinister' })).statusCode).toBe(401);
  });
});

describe('GET /api/sinister/{id}', () => {
  it('returns one claim', async () => {
    const response = await get(user, `/${claim['SIN-002']}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      uuid: claim['SIN-002'],
      sinisterIntermediateRef: 'SIN-002',
      totalCost: 250,
      responsibilityRate: 0,
      vehicule: { uuid: v.peugeot.uuid, immatriculation: 'EF456GH', brand: 'Peugeot', model: '308' },
      driver: { uuid: d.jerome.uuid, firstName: 'Jérôme', lastName: 'Bernard' },
      guarantee: { uuid: guarantee['Bris de glace'], label: 'Bris de glace' },
    });
    expect((await get(user, `/${claim['SIN-006']}`)).json()).toMatchObject({ isArchived: true });
  });

  it('answers 400 for a malformed id', async () => {
    const response = await get(user, '/123');
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path: 'id', message: 'Identifiant invalide' });
  });
});

describe('POST /api/sinister', () => {
  it('creates a claim: cents stored as an integer, euros returned, the plate copied from the vehicle', async () => {
    const response = await t.as(user, {
      method: 'POST',
      url: '/api/sinister',
      payload: {
        sinisterIntermediateRef: ' NEW-1 ',
        sinisterDate: '2025-05-05',
        city: 'Marseille',
        vehicule: v.peugeot.uuid,
        driver: d.elodie.uuid,
        guarantee: guarantee['Bris de glace'],
        totalCost: 1234.56,
        responsibilityRate: 50,
        isDeclared: true,
        ida: true,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      sinisterIntermediateRef: 'NEW-1',
      sinisterDate: '2025-05-05',
      city: 'Marseille',
      immatriculation: 'EF456GH',
      vehicule: { uuid: v.peugeot.uuid, immatriculation: 'EF456GH', brand: 'Peugeot', model: '308' },
      driver: { uuid: d.elodie.uuid, firstName: 'Élodie', lastName: 'Écuyer' },
      guarantee: { uuid: guarantee['Bris de glace'], label: 'Bris de glace' },
      totalCost: 1234.56,
      responsibilityRate: 50,
      isDeclared: true,
      ida: true,
      hasHumanInjury: false,
      damagedVehicule: false,
      isThirdImplicated: false,
      documents: [],
      isArchived: false,
    });
    expect(await stored(body.uuid)).toMatchObject({ organizationUuid: orgA.uuid, totalCostCents: 123456, immatriculation: 'EF456GH', vehiculeUuid: v.peugeot.uuid });
    expect((await get(user, `/${body.uuid}`)).json()).toEqual(body);
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${body.uuid}/hard` });
  });

  it('rounds a float amount to the right cent (19.99 € is 1999 cents), and defaults the rest', async () => {
    const response = await t.as(user, { method: 'POST', url: '/api/sinister', payload: { sinisterDate: todayIso(), vehicule: v.clio.uuid, totalCost: 19.99 } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      sinisterDate: todayIso(),
      totalCost: 19.99,
      sinisterIntermediateRef: null,
      city: null,
      driver: null,
      guarantee: null,
      responsibilityRate: null,
      isDeclared: false,
      ida: false,
    });
    expect((await stored(response.json().uuid))!.totalCostCents).toBe(1999);
    const zero = await t.as(user, { method: 'POST', url: '/api/sinister', payload: { sinisterDate: '2025-01-01', vehicule: v.clio.uuid } });
    expect(zero.json().totalCost).toBe(0);
    for (const uuid of [response.json().uuid, zero.json().uuid]) await t.as(admin, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` });
  });

  it('accepts an archived vehicle or driver of the organization (the claim often arrives after they left)', async () => {
    const response = await t.as(user, { method: 'POST', url: '/api/sinister', payload: { sinisterDate: '2025-08-01', vehicule: v.sold.uuid, driver: d.retired.uuid } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ immatriculation: 'JK789LM', driver: { uuid: d.retired.uuid } });
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${response.json().uuid}/hard` });
  });

  const valid = () => ({ sinisterDate: '2025-05-05', vehicule: v.clio.uuid });
  const unknownUuid = '00000000-0000-4000-8000-000000000000';
  it.each([
    ['a negative amount', () => ({ ...valid(), totalCost: -10 }), 'totalCost', 'négatif'],
    ['three decimals', () => ({ ...valid(), totalCost: 12.345 }), 'totalCost', 'deux décimales'],
    ['an amount as text', () => ({ ...valid(), totalCost: '12,50' }), 'totalCost', 'Montant invalide'],
    ['a future date', () => ({ ...valid(), sinisterDate: tomorrow() }), 'sinisterDate', 'ne peut pas être dans le futur'],
    ['a French date', () => ({ ...valid(), sinisterDate: '05/05/2025' }), 'sinisterDate', 'Date invalide'],
    ['no date', () => ({ vehicule: v.clio.uuid }), 'sinisterDate', 'La date du sinistre est obligatoire'],
    ['a 30 % rate', () => ({ ...valid(), responsibilityRate: 30 }), 'responsibilityRate', 'Taux de responsabilité : 0, 25, 50, 75 ou 100 %'],
    ['no vehicle', () => ({ sinisterDate: '2025-05-05' }), 'vehicule', 'Le véhicule est obligatoire'],
    ['a malformed vehicle', () => ({ ...valid(), vehicule: 'AB-123-CD' }), 'vehicule', 'Identifiant invalide'],
    ['an unknown guarantee', () => ({ ...valid(), guarantee: unknownUuid }), 'guarantee', 'Garantie inconnue'],
    ['an unknown vehicle', () => ({ ...valid(), vehicule: unknownUuid }), 'vehicule', 'Véhicule introuvable dans votre flotte'],
    ["another organization's vehicle", () => ({ ...valid(), vehicule: v.foreign.uuid }), 'vehicule', 'Véhicule introuvable dans votre flotte'],
    ['a draft vehicle (no plate)', () => ({ ...valid(), vehicule: v.draft.uuid }), 'vehicule', 'Véhicule introuvable dans votre flotte'],
    ["another organization's driver", () => ({ ...valid(), driver: d.foreign.uuid }), 'driver', 'Conducteur introuvable'],
    ['an unknown driver', () => ({ ...valid(), driver: unknownUuid }), 'driver', 'Conducteur introuvable'],
    ['a typed plate (it is copied from the vehicle)', () => ({ ...valid(), immatriculation: 'XX-000-XX' }), '', 'Clé non reconnue'],
    ['an organization', () => ({ ...valid(), organizationUuid: unknownUuid }), '', 'Clé non reconnue'],
  ])('refuses %s with a 400 on the field, writes nothing', async (_label, payload, path, message) => {
    const before = await countAll();
    const response = await t.as(user, { method: 'POST', url: '/api/sinister', payload: payload() });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await countAll()).toBe(before);
  });

  it('names every bad link at once, with the first as the message', async () => {
    const response = await t.as(user, {
      method: 'POST',
      url: '/api/sinister',
      payload: { ...valid(), vehicule: v.foreign.uuid, driver: d.foreign.uuid, guarantee: unknownUuid },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Véhicule introuvable dans votre flotte',
      details: [
        { path: 'vehicule', message: 'Véhicule introuvable dans votre flotte' },
        { path: 'driver', message: 'Conducteur introuvable' },
        { path: 'guarantee', message: 'Garantie inconnue' },
      ],
    });
  });

  it('asks a user without organization to choose one', async () => {
    const response = await t.as(orphan, { method: 'POST', url: '/api/sinister', payload: valid() });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('PATCH, archive, restore and delete', () => {
  async function fresh(payload: Record<string, unknown> = {}) {
    const response = await t.as(user, {
      method: 'POST',
      url: '/api/sinister',
      payload: { sinisterDate: '2025-07-07', vehicule: v.clio.uuid, driver: d.jerome.uuid, guarantee: guarantee['Vol'], totalCost: 100, responsibilityRate: 25, ...payload },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().uuid as string;
  }

  it('changing the vehicle copies its plate; other edits keep the plate', async () => {
    const uuid = await fresh();
    const moved = await t.as(user, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload: { vehicule: v.berlingo.uuid } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ immatriculation: '123ABC45', vehicule: { uuid: v.berlingo.uuid, immatriculation: '123ABC45', model: 'Berlingo' } });
    expect(await stored(uuid)).toMatchObject({ vehiculeUuid: v.berlingo.uuid, immatriculation: '123ABC45' });
    const edited = await t.as(user, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload: { city: 'Nantes', isDeclared: true } });
    expect(edited.json()).toMatchObject({ city: 'Nantes', isDeclared: true, immatriculation: '123ABC45', totalCost: 100, responsibilityRate: 25 });
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` });
  });

  it('keeps the plate of the day the claim was written until the vehicle is set again', async () => {
    const uuid = await fresh({ vehicule: v.spare.uuid });
    await t.seed((tx) => tx.update(vehicules).set({ immatriculation: 'NP321QS' }).where(eq(vehicules.uuid, v.spare.uuid)));
    const before = (await get(user, `/${uuid}`)).json();
    expect(before).toMatchObject({ immatriculation: 'NP321QR', vehicule: { immatriculation: 'NP321QS' } });
    const again = await t.as(user, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload: { vehicule: v.spare.uuid } });
    expect(again.json().immatriculation).toBe('NP321QS');
    await t.seed((tx) => tx.update(vehicules).set({ immatriculation: 'NP321QR' }).where(eq(vehicules.uuid, v.spare.uuid)));
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` });
  });

  it('clears the driver, guarantee and rate with null; changes the amount in cents', async () => {
    const uuid = await fresh();
    const response = await t.as(user, {
      method: 'PATCH',
      url: `/api/sinister/${uuid}`,
      payload: { driver: null, guarantee: null, responsibilityRate: null, totalCost: 0.5, city: '' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ driver: null, guarantee: null, responsibilityRate: null, totalCost: 0.5, city: null });
    expect(await stored(uuid)).toMatchObject({ driverUuid: null, guaranteeUuid: null, totalCostCents: 50 });
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` });
  });

  it.each([
    [{ vehicule: 'foreign' }, 'vehicule', 'Véhicule introuvable dans votre flotte'],
    [{ vehicule: 'draft' }, 'vehicule', 'Véhicule introuvable dans votre flotte'],
    [{ vehicule: null }, 'vehicule', 'Le véhicule est obligatoire'],
    [{ driver: 'foreign' }, 'driver', 'Conducteur introuvable'],
    [{ guarantee: '00000000-0000-4000-8000-000000000000' }, 'guarantee', 'Garantie inconnue'],
    [{ sinisterDate: 'tomorrow' }, 'sinisterDate', 'futur'],
    [{ totalCost: -5 }, 'totalCost', 'négatif'],
    [{ responsibilityRate: 30 }, 'responsibilityRate', 'Taux de responsabilité'],
    [{ immatriculation: 'XX000XX' }, '', 'Clé non reconnue'],
  ])('refuses %j, changing nothing', async (raw, path, message) => {
    const uuid = await fresh();
    const before = await stored(uuid);
    const payload = Object.fromEntries(
      Object.entries(raw).map(([k, value]) => [
        k,
        value === 'foreign' ? (k === 'vehicule' ? v.foreign.uuid : d.foreign.uuid) : value === 'draft' ? v.draft.uuid : value === 'tomorrow' ? tomorrow() : value,
      ]),
    );
    const response = await t.as(user, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload: { city: 'Changée', ...payload } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await stored(uuid)).toEqual(before);
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` });
  });

  it("archives (the claim leaves the list), archiving again changes nothing, then restores ('Annuler')", async () => {
    const uuid = await fresh({ sinisterIntermediateRef: 'A-ARCHIVER' });
    expect(await listRefs('?search=A-ARCHIVER')).toEqual(['A-ARCHIVER']);
    const archived = await t.as(user, { method: 'DELETE', url: `/api/sinister/${uuid}` });
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ uuid, isArchived: true, sinisterIntermediateRef: 'A-ARCHIVER', vehicule: { uuid: v.clio.uuid } });
    expect(await listRefs('?search=A-ARCHIVER')).toEqual([]);
    expect(await listRefs('?search=A-ARCHIVER&onlyArchived=true')).toEqual(['A-ARCHIVER']);
    const twice = await t.as(user, { method: 'DELETE', url: `/api/sinister/${uuid}` });
    expect(twice.json().archivedAt).toBe(archived.json().archivedAt);
    const restored = await t.as(user, { method: 'POST', url: `/api/sinister/restore/${uuid}` });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ uuid, isArchived: false, archivedAt: null });
    expect(await listRefs('?search=A-ARCHIVER')).toEqual(['A-ARCHIVER']);
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` });
  });

  it('deletes permanently for an admin only', async () => {
    const uuid = await fresh();
    const denied = await t.as(user, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Seul un administrateur peut supprimer définitivement un sinistre');
    expect(await stored(uuid)).not.toBeNull();
    const done = await t.as(admin, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` });
    expect(done.statusCode).toBe(204);
    expect(done.body).toBe('');
    expect(await stored(uuid)).toBeNull();
    expect((await t.as(admin, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` })).statusCode).toBe(404);
  });

  it("answers 404 for another organization's claim on every route, changing nothing", async () => {
    const before = await stored(foreignClaim.uuid);
    const calls = [
      { method: 'GET' as const, url: `/api/sinister/${foreignClaim.uuid}` },
      { method: 'PATCH' as const, url: `/api/sinister/${foreignClaim.uuid}`, payload: { city: 'Pirate' } },
      // Even with links that are valid for the caller, or invalid: the claim is what is missing.
      { method: 'PATCH' as const, url: `/api/sinister/${foreignClaim.uuid}`, payload: { vehicule: v.clio.uuid } },
      { method: 'PATCH' as const, url: `/api/sinister/${foreignClaim.uuid}`, payload: { vehicule: v.foreign.uuid } },
      { method: 'DELETE' as const, url: `/api/sinister/${foreignClaim.uuid}` },
      { method: 'POST' as const, url: `/api/sinister/restore/${foreignClaim.uuid}` },
      { method: 'DELETE' as const, url: `/api/sinister/${foreignClaim.uuid}/hard` },
    ];
    for (const call of calls) {
      const response = await t.as(admin, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(response.json().message).toBe('Sinistre introuvable');
    }
    expect(await stored(foreignClaim.uuid)).toEqual(before);
  });

  it.each([
    ['PATCH', '/api/sinister/123'],
    ['DELETE', '/api/sinister/123'],
    ['DELETE', '/api/sinister/123/hard'],
    ['POST', '/api/sinister/restore/123'],
  ] as const)('answers 400 for a malformed uuid (%s %s)', async (method, url) => {
    const response = await t.as(admin, { method, url, ...(method === 'PATCH' ? { payload: {} } : {}) });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path: 'uuid', message: 'Identifiant invalide' });
  });

  it('answers 401 without a token on every route', async () => {
    const uuid = claim['SIN-001'];
    for (const call of [
      { method: 'GET' as const, url: `/api/sinister/${uuid}` },
      { method: 'POST' as const, url: '/api/sinister', payload: {} },
      { method: 'PATCH' as const, url: `/api/sinister/${uuid}`, payload: {} },
      { method: 'DELETE' as const, url: `/api/sinister/${uuid}` },
      { method: 'DELETE' as const, url: `/api/sinister/${uuid}/hard` },
      { method: 'POST' as const, url: `/api/sinister/restore/${uuid}` },
    ]) {
      expect((await t.app.inject(call)).statusCode, `${call.method} ${call.url}`).toBe(401);
    }
    expect(await stored(uuid!)).toMatchObject({ archivedAt: null });
  });

  it('asks a user without organization to choose one on every route', async () => {
    const uuid = claim['SIN-001'];
    for (const call of [
      { method: 'GET' as const, url: `/api/sinister/${uuid}` },
      { method: 'PATCH' as const, url: `/api/sinister/${uuid}`, payload: { city: 'X' } },
      { method: 'DELETE' as const, url: `/api/sinister/${uuid}` },
      { method: 'DELETE' as const, url: `/api/sinister/${uuid}/hard` },
      { method: 'POST' as const, url: `/api/sinister/restore/${uuid}` },
    ]) {
      const response = await t.as(orphan, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(400);
      expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
    }
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALL, openSinisterRegisters, sinisterHelpers } from '../../../test/fixtures/sinisters.js';
import type { TestContext } from '../../../test/test-app.js';

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

// Reads of the seeded registers: Alpha's claims, Bêta's, Gamma's 25 for the pages.
type Row = { uuid: string };
let t: TestContext;
let guarantee: Record<string, string>;
let v: { clio: Row; peugeot: Row; spare: Row };
let d: { elodie: Row; jerome: Row };
let claim: Record<string, string>;
let seededClaims: string[];
let user: string;
let outsider: string;
let orphan: string;
let bulk: string;
const { get, refs, listRefs, removeClaimsNotSeeded } = sinisterHelpers(
  () => t,
  () => user,
);

beforeAll(async () => {
  const registers = await openSinisterRegisters(['user', 'outsider', 'orphan', 'bulk']);
  ({ t, guarantee, v, d, claim, seededClaims } = registers);
  ({ user, outsider, orphan, bulk } = registers.tokens);
});
afterAll(() => t.close());
// A test that adds a claim to a register the others read takes it out again, even when it fails halfway.
afterEach(() => removeClaimsNotSeeded(seededClaims));

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
    expect(none.statusCode).toBe(403);
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
      // A claim seeded with its cost alone is open, that cost reserved, opened on its day.
      status: 'open',
      openedAt: '2025-01-10',
      closedAt: null,
      paidAmount: 0,
      reserveAmount: 1234.56,
      description: null,
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
    expect(none.statusCode).toBe(403);
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

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

/**
 * What a claim's links to a vehicle and a driver give the claims list: the search finds a claim
 * by its driver's name, the list filters one vehicle's or one driver's claims (what a permanent
 * deletion would leave without a link), and a deletion keeps the claims.
 */

type Row = { uuid: string };
let t: TestContext;
let admin: string;
let outsider: string;
let v: { clio: Row; master: Row; foreign: Row };
let d: { elodie: Row; jerome: Row; foreign: Row };

beforeAll(async () => {
  t = await createTestApp();
  ({ v, d } = await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: 'Transports Alpha' });
    const orgB = await createOrganization(tx, { title: 'Bêta BTP' });
    const a = await createUser(tx, { email: 'admin@alpha.fr' });
    const b = await createUser(tx, { email: 'admin@beta.fr' });
    await linkUser(tx, orgA.uuid, a.uuid, 'ADMIN');
    await linkUser(tx, orgB.uuid, b.uuid, 'ADMIN');
    const [clio, master] = await createVehicules(tx, orgA.uuid, [
      { immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Clio' },
      { immatriculation: 'EF-456-GH', brand: 'Renault', model: 'Master' },
    ]);
    const [foreignVehicule] = await createVehicules(tx, orgB.uuid, [{ immatriculation: 'ZZ-999-ZZ', brand: 'Iveco', model: 'Daily' }]);
    const [elodie, jerome] = await createDrivers(tx, orgA.uuid, [
      { firstName: 'Élodie', lastName: 'Écuyer' },
      { firstName: 'Jérôme', lastName: 'Bernard' },
    ]);
    const [foreignDriver] = await createDrivers(tx, orgB.uuid, [{ firstName: 'Élodie', lastName: 'Secrète' }]);
    await createSinisters(tx, orgA.uuid, [
      { sinisterIntermediateRef: 'SIN-001', sinisterDate: '2025-01-10', city: 'Lyon', vehiculeUuid: clio!.uuid, driverUuid: elodie!.uuid },
      { sinisterIntermediateRef: 'SIN-002', sinisterDate: '2025-02-20', city: 'Paris', vehiculeUuid: clio!.uuid, driverUuid: jerome!.uuid },
      { sinisterIntermediateRef: 'SIN-003', sinisterDate: '2025-03-31', city: 'Lille', vehiculeUuid: master!.uuid, driverUuid: elodie!.uuid, archivedAt: new Date('2025-04-01') },
      { sinisterIntermediateRef: 'SIN-004', sinisterDate: '2025-04-01', city: 'Nantes' },
    ]);
    await createSinisters(tx, orgB.uuid, [{ sinisterIntermediateRef: 'SECRET-1', sinisterDate: '2025-05-05', vehiculeUuid: foreignVehicule!.uuid, driverUuid: foreignDriver!.uuid }]);
    return {
      v: { clio: clio!, master: master!, foreign: foreignVehicule! },
      d: { elodie: elodie!, jerome: jerome!, foreign: foreignDriver! },
    };
  }));
  admin = await t.login('admin@alpha.fr');
  outsider = await t.login('admin@beta.fr');
});
afterAll(() => t.close());

const refs = async (query: string, token = admin) => {
  const response = await t.as(token, { method: 'GET', url: `/api/sinister?withArchived=true&sortBy=sinisterIntermediateRef&${query}` });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { sinisterIntermediateRef: string }[]; total: number }>();
};
const refsOf = async (query: string, token = admin) => (await refs(query, token)).data.map((s) => s.sinisterIntermediateRef);

describe('GET /api/sinister?search= finds the driver', () => {
  afterEach(async () => {
    // The renames below put the drivers' names back for the next test.
    await t.as(admin, { method: 'PATCH', url: `/api/driver/${d.elodie.uuid}`, payload: { firstName: 'Élodie', lastName: 'Écuyer' } });
    await t.as(admin, { method: 'PATCH', url: `/api/driver/${d.jerome.uuid}`, payload: { firstName: 'Jérôme', lastName: 'Bernard' } });
  });

  it.each([
    ['ecuyer', ['SIN-001', 'SIN-003']],
    ['ÉLODIE', ['SIN-001', 'SIN-003']],
    ['jerome bern', ['SIN-002']],
    ['Bernard', ['SIN-002']],
  ])('%j finds the claims of that driver, accents and case aside, never another organization’s', async (search, expected) => {
    expect(await refsOf(`search=${encodeURIComponent(search)}`)).toEqual(expected);
  });

  it('finds a renamed driver under the new name only, on the claims listed afterwards', async () => {
    expect(await refsOf('search=bernard')).toEqual(['SIN-002']);
    const renamed = await t.as(admin, { method: 'PATCH', url: `/api/driver/${d.jerome.uuid}`, payload: { lastName: 'Bernardin-Dupuis' } });
    expect(renamed.statusCode).toBe(200);
    expect(await refsOf('search=dupuis')).toEqual(['SIN-002']);
    expect(await refsOf('search=jerome%20bernard')).toEqual(['SIN-002']);
    await t.as(admin, { method: 'PATCH', url: `/api/driver/${d.jerome.uuid}`, payload: { firstName: 'Jean' } });
    expect(await refsOf('search=jerome')).toEqual([]);
    expect(await refsOf('search=jean%20bernardin')).toEqual(['SIN-002']);
  });

  it('finds a claim under its new driver once it changes driver', async () => {
    const claim = (await refs('search=SIN-004')).data[0] as unknown as { uuid: string };
    expect(await refsOf('search=ecuyer')).toEqual(['SIN-001', 'SIN-003']);
    await t.as(admin, { method: 'PATCH', url: `/api/sinister/${claim.uuid}`, payload: { driver: d.elodie.uuid } });
    expect(await refsOf('search=ecuyer')).toEqual(['SIN-001', 'SIN-003', 'SIN-004']);
    await t.as(admin, { method: 'PATCH', url: `/api/sinister/${claim.uuid}`, payload: { driver: null } });
    expect(await refsOf('search=ecuyer')).toEqual(['SIN-001', 'SIN-003']);
  });
});

describe('GET /api/sinister?vehicule=&driver=', () => {
  it('lists one vehicle’s or one driver’s claims, archived ones with withArchived', async () => {
    expect(await refsOf(`vehicule=${v.clio.uuid}`)).toEqual(['SIN-001', 'SIN-002']);
    expect(await refsOf(`driver=${d.elodie.uuid}`)).toEqual(['SIN-001', 'SIN-003']);
    expect(await refsOf(`driver=${d.elodie.uuid}&vehicule=${v.master.uuid}`)).toEqual(['SIN-003']);
    const active = await t.as(admin, { method: 'GET', url: `/api/sinister?driver=${d.elodie.uuid}` });
    expect(active.json()).toMatchObject({ total: 1, data: [{ sinisterIntermediateRef: 'SIN-001' }] });
    // What the deletion confirmation asks: how many claims point at it, in one row.
    expect(await t.as(admin, { method: 'GET', url: `/api/sinister?vehicule=${v.clio.uuid}&withArchived=true&limit=1` }).then((r) => r.json())).toMatchObject({ total: 2 });
  });

  it('finds nothing for another organization’s vehicle or driver, and refuses what is not a uuid', async () => {
    expect(await refs(`vehicule=${v.foreign.uuid}`)).toMatchObject({ total: 0, data: [] });
    expect(await refs(`driver=${d.foreign.uuid}`)).toMatchObject({ total: 0, data: [] });
    expect(await refs(`driver=${d.elodie.uuid}`, outsider)).toMatchObject({ total: 0, data: [] });
    const bad = await t.as(admin, { method: 'GET', url: '/api/sinister?vehicule=AB-123-CD' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Données invalides (vehicule) : Identifiant invalide' });
    const badDriver = await t.as(admin, { method: 'GET', url: '/api/sinister?driver=Jean%20Martin' });
    expect(badDriver.statusCode).toBe(400);
    expect(badDriver.json()).toMatchObject({ message: 'Données invalides (driver) : Identifiant invalide', details: [{ path: 'driver', message: 'Identifiant invalide' }] });
  });
});

describe('a permanent deletion of a vehicle or a driver', () => {
  it('keeps its claims, without the link; the plate declared stays on the claim', async () => {
    const created = await t.as(admin, { method: 'POST', url: '/api/vehicule', payload: { brand: 'Fiat', model: 'Ducato', type: 'VUL', immatriculation: 'GH-777-JK' } });
    const driver = await t.as(admin, { method: 'POST', url: '/api/driver', payload: { firstName: 'Paul', lastName: 'Éphémère' } });
    const claim = await t.as(admin, {
      method: 'POST',
      url: '/api/sinister',
      payload: { sinisterIntermediateRef: 'SIN-900', sinisterDate: '2025-06-01', vehicule: created.json().uuid, driver: driver.json().uuid },
    });
    expect(claim.statusCode).toBe(201);
    expect(await refsOf('search=ephemere')).toEqual(['SIN-900']);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/vehicule/${created.json().uuid}/hard` })).statusCode).toBe(204);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/driver/${driver.json().uuid}/hard` })).statusCode).toBe(204);
    const kept = await t.as(admin, { method: 'GET', url: `/api/sinister/${claim.json().uuid}` });
    expect(kept.json()).toMatchObject({ sinisterIntermediateRef: 'SIN-900', immatriculation: 'GH777JK', vehicule: null, driver: null });
    // The deleted driver's name is no longer a way to it.
    expect(await refsOf('search=ephemere')).toEqual([]);
    await t.as(admin, { method: 'DELETE', url: `/api/sinister/${claim.json().uuid}/hard` });
  });
});

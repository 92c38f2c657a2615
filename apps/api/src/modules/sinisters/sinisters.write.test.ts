import { todayIso } from '@flotte/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { vehicules } from '../../db/schema/vehicules.js';
import { freshClaims, openSinisterRegisters, sinisterHelpers, tomorrow } from '../../../test/fixtures/sinisters.js';
import type { TestContext } from '../../../test/test-app.js';

// Creating, editing, archiving and deleting claims in Alpha (the claims a test creates are deleted after it),
// and every route called on Bêta's claim, with a malformed id, without a token and without an organization.
type Row = { uuid: string };
let t: TestContext;
let orgA: Row;
let guarantee: Record<string, string>;
let v: { clio: Row; peugeot: Row; berlingo: Row; draft: Row; sold: Row; spare: Row; foreign: Row };
let d: { elodie: Row; jerome: Row; retired: Row; foreign: Row };
let claim: Record<string, string>;
let foreignClaim: Row;
let seededClaims: string[];
let admin: string;
let user: string;
let orphan: string;
const { get, listRefs, stored, countAll, removeClaimsNotSeeded } = sinisterHelpers(
  () => t,
  () => user,
);
const fresh = freshClaims(
  () => t,
  () => user,
  () => ({ vehicule: v.clio.uuid, driver: d.jerome.uuid, guarantee: guarantee['Vol']! }),
);

beforeAll(async () => {
  const registers = await openSinisterRegisters(['admin', 'user', 'orphan']);
  ({ t, orgA, guarantee, v, d, claim, foreignClaim, seededClaims } = registers);
  ({ admin, user, orphan } = registers.tokens);
});
afterAll(() => t.close());
afterEach(() => removeClaimsNotSeeded(seededClaims));

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
  });

  it('accepts an archived vehicle or driver of the organization (the claim often arrives after they left)', async () => {
    const response = await t.as(user, { method: 'POST', url: '/api/sinister', payload: { sinisterDate: '2025-08-01', vehicule: v.sold.uuid, driver: d.retired.uuid } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ immatriculation: 'JK789LM', driver: { uuid: d.retired.uuid } });
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
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('PATCH /api/sinister/{id}', () => {
  // One test renames a seeded vehicle (as if edited after the claim was written): give it its plate back.
  afterEach(() => t.seed((tx) => tx.update(vehicules).set({ immatriculation: 'NP321QR' }).where(eq(vehicules.uuid, v.spare.uuid))));

  it('changing the vehicle copies its plate; other edits keep the plate', async () => {
    const uuid = await fresh();
    const moved = await t.as(user, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload: { vehicule: v.berlingo.uuid } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ immatriculation: '123ABC45', vehicule: { uuid: v.berlingo.uuid, immatriculation: '123ABC45', model: 'Berlingo' } });
    expect(await stored(uuid)).toMatchObject({ vehiculeUuid: v.berlingo.uuid, immatriculation: '123ABC45' });
    const edited = await t.as(user, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload: { city: 'Nantes', isDeclared: true } });
    expect(edited.json()).toMatchObject({ city: 'Nantes', isDeclared: true, immatriculation: '123ABC45', totalCost: 100, responsibilityRate: 25 });
  });

  it('keeps the plate of the day the claim was written until the vehicle is set again', async () => {
    const uuid = await fresh({ vehicule: v.spare.uuid });
    await t.seed((tx) => tx.update(vehicules).set({ immatriculation: 'NP321QS' }).where(eq(vehicules.uuid, v.spare.uuid)));
    const before = (await get(user, `/${uuid}`)).json();
    expect(before).toMatchObject({ immatriculation: 'NP321QR', vehicule: { immatriculation: 'NP321QS' } });
    const again = await t.as(user, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload: { vehicule: v.spare.uuid } });
    expect(again.json().immatriculation).toBe('NP321QS');
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
  });
});

describe('DELETE /api/sinister/{id} (archive) and POST /api/sinister/restore/{id}', () => {
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
  });
});

describe('DELETE /api/sinister/{id}/hard', () => {
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
});

describe('access', () => {
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
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
    }
  });
});

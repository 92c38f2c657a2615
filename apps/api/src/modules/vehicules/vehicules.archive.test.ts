import { todayIso } from '@flotte/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVehicules } from '../../seed/factories.js';
import { openVehiculeFleets, vehiculeHelpers } from '../../../test/fixtures/vehicules.js';
import type { TestContext } from '../../../test/test-app.js';

// Archiving, restoring and deleting, in Gamma; every test creates the vehicles it changes.
let t: TestContext;
let orgGamma: { uuid: string };
let userC: string;
let adminC: string;
const { get, stored, nextPlate, createInGamma } = vehiculeHelpers(
  () => t,
  () => userC,
);

beforeAll(async () => {
  const fleets = await openVehiculeFleets(['userC', 'adminC']);
  ({ t, orgGamma } = fleets);
  ({ userC, adminC } = fleets.tokens);
});
afterAll(() => t.close());

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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openVehiculeFleets, vehiculeHelpers } from '../../../test/fixtures/vehicules.js';
import type { TestContext } from '../../../test/test-app.js';

// Every route, called on Bêta's vehicles by Alpha's admin, without a token, and without an organization.
let t: TestContext;
let foreign: { active: { uuid: string }; archived: { uuid: string }; draft: { uuid: string } };
let adminA: string;
let orphan: string;
const { stored, countAll, valid } = vehiculeHelpers(() => t);

beforeAll(async () => {
  const fleets = await openVehiculeFleets(['adminA', 'orphan']);
  ({ t, foreign } = fleets);
  ({ adminA, orphan } = fleets.tokens);
});
afterAll(() => t.close());

/** Every vehicle route, on one record: the same calls for each way of being refused. */
const everyRoute = (uuid: string) => [
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
    const calls = everyRoute(foreign.active.uuid);
    const before = await countAll();
    for (const call of calls) {
      expect((await t.app.inject(call)).statusCode, `${call.method} ${call.url}`).toBe(401);
    }
    expect(await countAll()).toBe(before);
  });

  it('asks a user without organization to choose one on every route', async () => {
    const calls = everyRoute(foreign.active.uuid);
    const before = await countAll();
    for (const call of calls) {
      const response = await t.as(orphan, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
    }
    expect(await countAll()).toBe(before);
  });
});

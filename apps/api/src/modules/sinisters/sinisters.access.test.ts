import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSinisterRegisters, sinisterHelpers } from '../../../test/fixtures/sinisters.js';
import type { TestContext } from '../../../test/test-app.js';

// Every route, called on Bêta's claim by Alpha's admin, with a malformed id, without a token, and without an organization.
type Row = { uuid: string };
let t: TestContext;
let v: { clio: Row; foreign: Row };
let claim: Record<string, string>;
let foreignClaim: Row;
let admin: string;
let orphan: string;
const { stored } = sinisterHelpers(() => t);

beforeAll(async () => {
  const registers = await openSinisterRegisters(['admin', 'orphan']);
  ({ t, v, claim, foreignClaim } = registers);
  ({ admin, orphan } = registers.tokens);
});
afterAll(() => t.close());

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
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(400);
      expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
    }
  });
});

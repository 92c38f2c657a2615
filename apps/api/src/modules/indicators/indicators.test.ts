import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '@flotte/contract';
import { indicators } from '../../db/schema/indicators.js';
import { createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { addMonths } from '../dashboard/dashboard.service.js';

let t: TestContext;
let orgA: { uuid: string };
let orgB: { uuid: string };
let admin: string;
let member: string;
let adminB: string;
let root: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ orgA, orgB } = await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: 'Transports Alpha' });
    const orgB = await createOrganization(tx, { title: 'Logistique Bêta' });
    const a = await createUser(tx, { email: 'admin@alpha.fr' });
    const u = await createUser(tx, { email: 'user@alpha.fr', roles: ['USER'] });
    const b = await createUser(tx, { email: 'admin@beta.fr' });
    const r = await createUser(tx, { email: 'root@plateforme.fr', roles: ['ROOT'] });
    await linkUser(tx, orgA.uuid, a.uuid, 'ADMIN');
    await linkUser(tx, orgA.uuid, u.uuid);
    await linkUser(tx, orgB.uuid, b.uuid, 'ADMIN');
    await linkUser(tx, orgA.uuid, r.uuid);
    return { orgA, orgB };
  }));
  admin = await t.login('admin@alpha.fr');
  member = await t.login('user@alpha.fr');
  adminB = await t.login('admin@beta.fr');
  root = await t.login('root@plateforme.fr');
});
afterAll(() => t.close());

const save = (token: string, currentIndicators: unknown[]) => t.as(token, { method: 'POST', url: '/api/indicators', payload: { currentIndicators } });
const clear = (organizationUuid: string) =>
  t.seed(async (tx) => {
    await tx.delete(indicators).where(eq(indicators.organizationUuid, organizationUuid));
  });

describe('POST /api/indicators', () => {
  it('creates periods in one call, chains them by date and answers them newest first, euros with cents', async () => {
    await clear(orgA.uuid);
    const response = await save(admin, [
      { startDate: '2025-01-01', endDate: '2025-12-31', motorsCount: 12, cashReceived: 36600.5 },
      { startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: 36500 },
    ]);
    expect(response.statusCode).toBe(200);
    const [newest, oldest] = response.json();
    expect(newest).toMatchObject({ startDate: '2025-01-01', endDate: '2025-12-31', motorsCount: 12, cashReceived: 36600.5, previousIndicatorUuid: oldest.uuid });
    expect(oldest).toMatchObject({ startDate: '2024-01-01', cashReceived: 36500, previousIndicatorUuid: null });
    const [row] = await t.seed((tx) => tx.select().from(indicators).where(eq(indicators.uuid, newest.uuid)));
    expect(row).toMatchObject({ cashReceivedCents: 3660050, organizationUuid: orgA.uuid });

    const list = await t.as(member, { method: 'GET', url: '/api/indicators' });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((p: { startDate: string }) => p.startDate)).toEqual(['2025-01-01', '2024-01-01']);
  });

  it('updates a period by uuid and creates another in the same call; a period inserted between re-links the chain', async () => {
    await clear(orgA.uuid);
    const [p2026, p2024] = (
      await save(admin, [
        { startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: 1000 },
        { startDate: '2026-01-01', endDate: '2026-12-31', motorsCount: 10, cashReceived: 1000 },
      ])
    ).json();
    const response = await save(admin, [
      { uuid: p2024.uuid, startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 11, cashReceived: 1100.1 },
      { startDate: '2025-01-01', endDate: '2025-12-31', motorsCount: 9, cashReceived: 900 },
    ]);
    expect(response.statusCode).toBe(200);
    const [a, b, c] = response.json();
    expect([a.uuid, c.uuid]).toEqual([p2026.uuid, p2024.uuid]);
    expect(c).toMatchObject({ motorsCount: 11, cashReceived: 1100.1, previousIndicatorUuid: null });
    expect(b).toMatchObject({ startDate: '2025-01-01', previousIndicatorUuid: p2024.uuid });
    expect(a.previousIndicatorUuid).toBe(b.uuid);
  });

  it('refuses overlapping periods with a French message naming both, and writes nothing', async () => {
    await clear(orgA.uuid);
    await save(admin, [{ startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: 1000 }]);
    const response = await save(admin, [
      { startDate: '2025-01-01', endDate: '2025-12-31', motorsCount: 10, cashReceived: 1000 },
      { startDate: '2024-12-31', endDate: '2025-03-31', motorsCount: 10, cashReceived: 1000 },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('la période du 01/01/2024 au 31/12/2024 chevauche la période du 31/12/2024 au 31/03/2025');
    expect(response.json().message).toContain('la période du 31/12/2024 au 31/03/2025 chevauche la période du 01/01/2025 au 31/12/2025');
    // Under each sent period's start: the period it runs into, not its own dates.
    expect(response.json().details).toEqual([
      { path: 'currentIndicators.1.startDate', message: 'Chevauche la période du 01/01/2024 au 31/12/2024' },
      { path: 'currentIndicators.0.startDate', message: 'Chevauche la période du 31/12/2024 au 31/03/2025' },
    ]);
    const list = await t.as(admin, { method: 'GET', url: '/api/indicators' });
    expect(list.json()).toHaveLength(1);
  });

  it('lets another organization use the same dates (periods overlap only within one organization)', async () => {
    await clear(orgA.uuid);
    await clear(orgB.uuid);
    await save(admin, [{ startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: 1000 }]);
    const response = await save(adminB, [{ startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 3, cashReceived: 300 }]);
    expect(response.statusCode).toBe(200);
    expect((await t.as(admin, { method: 'GET', url: '/api/indicators' })).json()).toMatchObject([{ motorsCount: 10 }]);
  });

  it.each([
    [{ startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: -1 }, 'currentIndicators.0.cashReceived', 'Le montant ne peut pas être négatif'],
    [{ startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: 10.001 }, 'currentIndicators.0.cashReceived', 'deux décimales'],
    [{ startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: -3, cashReceived: 10 }, 'currentIndicators.0.motorsCount', 'ne peut pas être négatif'],
    [{ startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 2.5, cashReceived: 10 }, 'currentIndicators.0.motorsCount', 'nombre entier'],
    [{ startDate: '2024-12-31', endDate: '2024-01-01', motorsCount: 10, cashReceived: 10 }, 'currentIndicators.0.endDate', 'La date de fin doit suivre la date de début'],
    [{ endDate: '2024-12-31', motorsCount: 10, cashReceived: 10 }, 'currentIndicators.0.startDate', 'La date de début est obligatoire'],
    [{ startDate: '2024-02-30', endDate: '2024-12-31', motorsCount: 10, cashReceived: 10 }, 'currentIndicators.0.startDate', 'Date invalide'],
    [{ startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: 10, organizationUuid: '11111111-1111-4111-8111-111111111111' }, 'currentIndicators.0', 'Clé non reconnue'],
  ])('refuses %j with a French message on its field', async (period, path, message) => {
    const response = await save(admin, [period]);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('refuses a body without currentIndicators', async () => {
    const response = await t.as(admin, { method: 'POST', url: '/api/indicators', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().details[0].path).toBe('currentIndicators');
  });

  it('answers 404 for an unknown uuid or another organization’s, and changes nothing there', async () => {
    await clear(orgB.uuid);
    const [theirs] = (await save(adminB, [{ startDate: '2020-01-01', endDate: '2020-12-31', motorsCount: 3, cashReceived: 300 }])).json();
    for (const uuid of [theirs.uuid, '00000000-0000-4000-8000-000000000000']) {
      const response = await save(admin, [{ uuid, startDate: '2020-01-01', endDate: '2020-12-31', motorsCount: 99, cashReceived: 1 }]);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toContain('Période introuvable');
      const previous = await save(admin, [{ startDate: '2019-01-01', endDate: '2019-12-31', motorsCount: 1, cashReceived: 1, previousIndicatorUuid: uuid }]);
      expect(previous.statusCode).toBe(404);
    }
    expect((await t.as(adminB, { method: 'GET', url: '/api/indicators' })).json()).toMatchObject([{ uuid: theirs.uuid, motorsCount: 3 }]);
  });

  it('is for administrators: a member gets 403, ROOT writes', async () => {
    await clear(orgA.uuid);
    const period = { startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: 1000 };
    const refused = await save(member, [period]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Seul un administrateur peut modifier les périodes');
    expect((await save(root, [period])).statusCode).toBe(200);
  });

  it('requires a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/indicators' })).statusCode).toBe(401);
  });
});

describe('GET /api/indicators/current', () => {
  it('answers the period containing today, or null', async () => {
    await clear(orgA.uuid);
    expect((await t.as(member, { method: 'GET', url: '/api/indicators/current' })).json()).toBeNull();
    const today = todayIso();
    await save(admin, [
      { startDate: addMonths(today, -18), endDate: addMonths(today, -6), motorsCount: 5, cashReceived: 500 },
      { startDate: today, endDate: addMonths(today, 6), motorsCount: 7, cashReceived: 700 },
    ]);
    const response = await t.as(member, { method: 'GET', url: '/api/indicators/current' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ startDate: today, motorsCount: 7 });
  });
});

describe('DELETE /api/indicators/{id}', () => {
  it('deletes a period and re-links the one after it', async () => {
    await clear(orgA.uuid);
    const [c, b] = (
      await save(admin, [
        { startDate: '2022-01-01', endDate: '2022-12-31', motorsCount: 1, cashReceived: 1 },
        { startDate: '2023-01-01', endDate: '2023-12-31', motorsCount: 1, cashReceived: 1 },
        { startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 1, cashReceived: 1 },
      ])
    ).json();
    expect((await t.as(member, { method: 'DELETE', url: `/api/indicators/${b.uuid}` })).statusCode).toBe(403);
    const response = await t.as(admin, { method: 'DELETE', url: `/api/indicators/${b.uuid}` });
    expect(response.statusCode).toBe(204);
    const list = (await t.as(admin, { method: 'GET', url: '/api/indicators' })).json();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ uuid: c.uuid, previousIndicatorUuid: list[1].uuid });
  });

  it('answers 404 for an unknown period or another organization’s, 400 for a bad id', async () => {
    await clear(orgB.uuid);
    const [theirs] = (await save(adminB, [{ startDate: '2020-01-01', endDate: '2020-12-31', motorsCount: 3, cashReceived: 300 }])).json();
    expect((await t.as(admin, { method: 'DELETE', url: `/api/indicators/${theirs.uuid}` })).statusCode).toBe(404);
    expect((await t.as(admin, { method: 'DELETE', url: '/api/indicators/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await t.as(admin, { method: 'DELETE', url: '/api/indicators/pas-un-uuid' })).statusCode).toBe(400);
    expect((await t.as(adminB, { method: 'GET', url: '/api/indicators' })).json()).toHaveLength(1);
  });
});

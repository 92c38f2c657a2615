import { todayIso } from '@flotte/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indicators } from '../../db/schema/indicators.js';
import { createOrganization, createSinisters, createUser, createVehicules, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { addMonths, resolveWindow } from './dashboard.service.js';

let t: TestContext;
let admin: string;
let member: string;
let adminB: string;
let current: { uuid: string };
let theirs: { uuid: string };
const today = todayIso();
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  ({ current, theirs } = await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: 'Transports Alpha' });
    const orgB = await createOrganization(tx, { title: 'Logistique Bêta' });
    for (const [email, role, org] of [
      ['admin@alpha.fr', 'ADMIN', orgA],
      ['user@alpha.fr', 'USER', orgA],
      ['admin@beta.fr', 'ADMIN', orgB],
    ] as const) {
      const user = await createUser(tx, { email });
      await linkUser(tx, org.uuid, user.uuid, role);
    }
    // The current period: 2 vehicles at start, 1 200,00 € of premium.
    const [current] = await tx
      .insert(indicators)
      .values({ organizationUuid: orgA.uuid, startDate: addMonths(today, -3), endDate: addDays(addMonths(today, 9), -1), motorsCount: 2, cashReceivedCents: 120_000 })
      .returning();
    const [theirs] = await tx.insert(indicators).values({ organizationUuid: orgB.uuid, startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 5, cashReceivedCents: 500_000 }).returning();
    // In the fleet today: three vehicles (one entered today); one enters tomorrow, one left yesterday.
    await createVehicules(tx, orgA.uuid, [
      { immatriculation: 'CD-201-EF', entryDate: addMonths(today, -12) },
      { immatriculation: 'CD-202-EF', entryDate: addMonths(today, -1) },
      { immatriculation: 'CD-203-EF', entryDate: today },
      { immatriculation: 'CD-204-EF', entryDate: addDays(today, 1) },
      { immatriculation: 'CD-205-EF', entryDate: addMonths(today, -12), exitDate: addDays(today, -1) },
    ]);
    await createSinisters(tx, orgA.uuid, [
      { sinisterDate: today, isDeclared: true, totalCostCents: 60_000 },
      { sinisterDate: addMonths(today, -2), isDeclared: false, totalCostCents: 1_000 },
    ]);
    return { current: current!, theirs: theirs! };
  }));
  admin = await t.login('admin@alpha.fr');
  member = await t.login('user@alpha.fr');
  adminB = await t.login('admin@beta.fr');
});
afterAll(() => t.close());

describe('the current period', () => {
  it('current half-difference counts N1 today', async () => {
    const response = await t.as(member, { method: 'GET', url: '/api/dashboard/current-half-difference' });
    expect(response.statusCode).toBe(200);
    // N0 2, N1 3 today: (3 − 2) / 2 = 0.5 vehicle; u = 1 200 / 2 = 600,00; 0.5 × 600 = 300,00.
    expect(response.json()).toEqual({
      indicatorUuid: current.uuid,
      startDate: addMonths(today, -3),
      endDate: addDays(addMonths(today, 9), -1),
      countedOn: today,
      isCurrent: true,
      n0: 2,
      n1: 3,
      unitPremium: 600,
      halfDifference: 0.5,
      regularisation: 300,
    });
  });

  it('claim frequency without indicator is the current period’s', async () => {
    const response = await t.as(member, { method: 'GET', url: '/api/dashboard/claim-frequency' });
    expect(response.json()).toEqual({ indicatorUuid: current.uuid, claims: 2, motors: 2, frequency: 100 });
  });

  it('claim frequency without indicator and without current period is a French 404', async () => {
    const response = await t.as(adminB, { method: 'GET', url: '/api/dashboard/claim-frequency' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("Aucune période ne contient la date d'aujourd'hui");
  });

  it('the loss ratio window defaults to the six months before today', async () => {
    const response = await t.as(member, { method: 'GET', url: '/api/dashboard/loss-ratio' });
    expect(response.json()).toMatchObject({ startDate: addMonths(today, -6), endDate: today, costOfClaims: 610 });
  });
});

describe('resolveWindow', () => {
  it.each([
    [{}, '2026-08-31', { startDate: '2026-02-28', endDate: '2026-08-31' }],
    [{ startDate: '2026-01-10' }, '2026-08-31', { startDate: '2026-01-10', endDate: '2026-08-31' }],
    [{ endDate: '2025-01-01' }, '2026-08-31', { startDate: '2025-01-01', endDate: '2025-01-01' }],
    [{ startDate: '2027-01-01' }, '2026-08-31', { startDate: '2027-01-01', endDate: '2027-01-01' }],
  ])('%j on %s gives %j', (query, day, expected) => {
    expect(resolveWindow(query, day)).toMatchObject(expected);
  });
});

describe('another organization and bad input', () => {
  it('another organization’s period answers 404, an unknown one too', async () => {
    for (const uuid of [theirs.uuid, '00000000-0000-4000-8000-000000000000']) {
      const response = await t.as(admin, { method: 'GET', url: `/api/dashboard/claim-frequency?indicator=${uuid}` });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Période introuvable');
    }
  });

  it('the other organization sees none of these claims or periods', async () => {
    expect((await t.as(adminB, { method: 'GET', url: '/api/dashboard/current-half-difference' })).json()).toBeNull();
    expect((await t.as(adminB, { method: 'GET', url: `/api/dashboard/loss-ratio?startDate=${addMonths(today, -6)}&endDate=${today}` })).json()).toMatchObject({ costOfClaims: 0 });
    expect((await t.as(adminB, { method: 'GET', url: '/api/dashboard/half-differences' })).json()).toMatchObject([{ indicatorUuid: theirs.uuid }]);
  });

  it.each([
    ['/api/dashboard/loss-ratio?startDate=2024-12-31&endDate=2024-01-01', 'endDate', 'La date de début doit précéder la date de fin'],
    ['/api/dashboard/loss-ratio?startDate=31/12/2024', 'startDate', 'Date invalide'],
    ['/api/dashboard/claims-by-month?isDeclared=oui', 'isDeclared', 'true ou false'],
    ['/api/dashboard/top-drivers?limit=5', '', 'Clé non reconnue'],
    ['/api/dashboard/claim-frequency?indicator=12', 'indicator', 'Identifiant invalide'],
  ])('%s is a French 400 on its field', async (url, path, message) => {
    const response = await t.as(member, { method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it.each(['loss-ratio', 'claim-frequency', 'half-differences', 'current-half-difference', 'config', 'claims-by-month', 'claims-by-guarantee', 'claims-by-responsibility', 'claims-by-category', 'top-drivers', 'fleet-size'])(
    '/api/dashboard/%s requires a token',
    async (path) => {
      expect((await t.app.inject({ method: 'GET', url: `/api/dashboard/${path}` })).statusCode).toBe(401);
    },
  );
});

describe('limits (config)', () => {
  it('reads the defaults, 70 and 20, for every member', async () => {
    const response = await t.as(member, { method: 'GET', url: '/api/dashboard/config' });
    expect(response.json()).toEqual({ lossRatioPercentage: 70, claimFrequencyPercentage: 20 });
  });

  it('an administrator changes them for its organization only; a member may not', async () => {
    const refused = await t.as(member, { method: 'PUT', url: '/api/dashboard/config', payload: { lossRatioPercentage: 60, claimFrequencyPercentage: 15 } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Seul un administrateur peut modifier les limites');
    const saved = await t.as(admin, { method: 'PUT', url: '/api/dashboard/config', payload: { lossRatioPercentage: 60, claimFrequencyPercentage: 15 } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ lossRatioPercentage: 60, claimFrequencyPercentage: 15 });
    expect((await t.as(member, { method: 'GET', url: '/api/dashboard/config' })).json()).toEqual({ lossRatioPercentage: 60, claimFrequencyPercentage: 15 });
    expect((await t.as(adminB, { method: 'GET', url: '/api/dashboard/config' })).json()).toEqual({ lossRatioPercentage: 70, claimFrequencyPercentage: 20 });
  });

  it.each([
    [{ lossRatioPercentage: -5, claimFrequencyPercentage: 20 }, 'lossRatioPercentage', 'La limite du S/P doit être d’au moins 1 %'],
    [{ lossRatioPercentage: 70, claimFrequencyPercentage: 12.5 }, 'claimFrequencyPercentage', 'nombre entier'],
    [{ lossRatioPercentage: 70 }, 'claimFrequencyPercentage', 'doit être un nombre'],
    [{ lossRatioPercentage: 1001, claimFrequencyPercentage: 20 }, 'lossRatioPercentage', 'ne peut pas dépasser 1000'],
  ])('refuses %j', async (payload, path, message) => {
    const response = await t.as(admin, { method: 'PUT', url: '/api/dashboard/config', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
  });
});

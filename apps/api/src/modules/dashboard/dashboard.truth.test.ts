import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { buildInsuranceTruth } from '../../../test/fixtures/insurance-truth.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

// The figures below are worked out by hand from test/fixtures/insurance-truth.ts (its comment
// lists every period, vehicle and claim): the API must return exactly these numbers.

let t: TestContext;
let token: string;
let truth: Awaited<ReturnType<typeof buildInsuranceTruth>>;

beforeAll(async () => {
  t = await createTestApp();
  truth = await t.seed(async (tx) => {
    const org = await createOrganization(tx, { title: 'Transports Vérité' });
    const user = await createUser(tx, { email: 'lecteur@verite.fr', roles: ['USER'] });
    await linkUser(tx, org.uuid, user.uuid);
    // A second organization with claims on the same days: none of them may count.
    const other = await createOrganization(tx, { title: 'Autre flotte' });
    await buildInsuranceTruth(tx, other.uuid);
    return buildInsuranceTruth(tx, org.uuid);
  });
  token = await t.login('lecteur@verite.fr');
});
afterAll(() => t.close());

const get = async (url: string) => {
  const response = await t.as(token, { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('loss ratio', () => {
  it('a window that is exactly P2 earns exactly its cashReceived', async () => {
    // Claims of 2024 not archived: C3 4 000,00 + C4 1 200,00 + C5 99,99 + C9 500,00 = 5 799,99 (C6 archived).
    // Earned: P2 whole = 36 600,00. Ratio 579 999 / 3 660 000 × 100 = 15.846967213114754 %.
    expect(await get('/api/dashboard/loss-ratio?startDate=2024-01-01&endDate=2024-12-31')).toEqual({
      startDate: '2024-01-01',
      endDate: '2024-12-31',
      costOfClaims: 5799.99,
      earnedPremiums: 36600,
      ratio: 15.846967213114754,
    });
  });

  it('filters declared and undeclared claims', async () => {
    // Declared: C3 + C4 + C9 = 5 700,00 → 570 000 / 3 660 000 × 100 = 15.573770491803279 %.
    expect(await get('/api/dashboard/loss-ratio?startDate=2024-01-01&endDate=2024-12-31&isDeclared=true')).toMatchObject({
      costOfClaims: 5700,
      earnedPremiums: 36600,
      ratio: 15.573770491803279,
    });
    // Not declared: C5 = 99,99 → 9 999 / 3 660 000 × 100 = 0.27319672131147543 %.
    expect(await get('/api/dashboard/loss-ratio?startDate=2024-01-01&endDate=2024-12-31&isDeclared=false')).toMatchObject({
      costOfClaims: 99.99,
      ratio: 0.27319672131147543,
    });
  });

  it('a window that cuts two periods in the middle pro-rates each by its days', async () => {
    // 2023-07-01 → 2024-06-30. P1: 184 of 365 days → 3 650 000 × 184 / 365 = 1 840 000 cents;
    // P2: 182 of 366 days (31+29+31+30+31+30) → 3 660 000 × 182 / 366 = 1 820 000 cents. Earned 36 600,00.
    // Claims: C2 250,50 (on the first day) + C3 4 000,00 + C9 500,00 = 4 750,50 → 12.979508196721312 %.
    expect(await get('/api/dashboard/loss-ratio?startDate=2023-07-01&endDate=2024-06-30')).toEqual({
      startDate: '2023-07-01',
      endDate: '2024-06-30',
      costOfClaims: 4750.5,
      earnedPremiums: 36600,
      ratio: 12.979508196721312,
    });
  });

  it('rounds the earned premium once, to the cent', async () => {
    // 2024-12-31 → 2025-01-02: P2 1 day → 3 660 000 / 366 = 10 000 cents; P3 2 of 181 days →
    // 1 810 001 × 2 / 181 = 20 000.011 cents. Sum 30 000.011 → 30 000 cents = 300,00. No claim: ratio 0.
    expect(await get('/api/dashboard/loss-ratio?startDate=2024-12-31&endDate=2025-01-02')).toMatchObject({ costOfClaims: 0, earnedPremiums: 300, ratio: 0 });
    // P3 exactly: 18 100,01 earned; C7 2 000,00 + C8 300,00 (its last day) = 2 300,00 → 230 000 / 1 810 001 × 100.
    expect(await get('/api/dashboard/loss-ratio?startDate=2025-01-01&endDate=2025-06-30')).toMatchObject({
      costOfClaims: 2300,
      earnedPremiums: 18100.01,
      ratio: 12.707175299903149,
    });
  });

  it('has no ratio when nothing was earned', async () => {
    expect(await get('/api/dashboard/loss-ratio?startDate=2030-01-01&endDate=2030-01-31')).toMatchObject({ costOfClaims: 0, earnedPremiums: 0, ratio: null });
  });
});

describe('claim frequency', () => {
  it('counts the period’s claims over its motorsCount', async () => {
    // P2: C3, C4, C5, C9 = 4 claims, 12 vehicles → 33.333333333333336 %.
    expect(await get(`/api/dashboard/claim-frequency?indicator=${truth.p2.uuid}`)).toEqual({ indicatorUuid: truth.p2.uuid, claims: 4, motors: 12, frequency: 33.333333333333336 });
    // Declared: C3, C4, C9 = 3 → 25 %; not declared: C5 = 1 → 8.333333333333334 %.
    expect(await get(`/api/dashboard/claim-frequency?indicator=${truth.p2.uuid}&isDeclared=true`)).toMatchObject({ claims: 3, frequency: 25 });
    expect(await get(`/api/dashboard/claim-frequency?indicator=${truth.p2.uuid}&isDeclared=false`)).toMatchObject({ claims: 1, frequency: 8.333333333333334 });
    // P1: C1, C2 = 2 of 10 → 20 %. P3: C7, C8 = 2 of 2 → 100 %.
    expect(await get(`/api/dashboard/claim-frequency?indicator=${truth.p1.uuid}`)).toMatchObject({ claims: 2, motors: 10, frequency: 20 });
    expect(await get(`/api/dashboard/claim-frequency?indicator=${truth.p3.uuid}`)).toMatchObject({ claims: 2, motors: 2, frequency: 100 });
  });
});

describe('half-differences', () => {
  it('lists N0, N1, unit premium, half-difference and regularisation of every period, newest first', async () => {
    expect(await get('/api/dashboard/half-differences')).toEqual([
      // P3: N1 on 2025-06-30 = V1, V3, V5 = 3 (V4 left 2024-12-31, V6 2025-05-01, V8 archived).
      // u = 1 810 001 / 2 = 905 000.5 → 9 050,01; (3 − 2) / 2 = 0.5; 0.5 × 1 810 001 / 2 = 452 500.25 → 4 525,00.
      { indicatorUuid: truth.p3.uuid, startDate: '2025-01-01', endDate: '2025-06-30', countedOn: '2025-06-30', isCurrent: false, n0: 2, n1: 3, unitPremium: 9050.01, halfDifference: 0.5, regularisation: 4525 },
      // P2: N1 on 2024-12-31 = V1, V3, V4 (leaves that day), V5 = 4; u = 3 050,00; (4 − 12) / 2 = −4; −4 × 3 050 = −12 200,00.
      { indicatorUuid: truth.p2.uuid, startDate: '2024-01-01', endDate: '2024-12-31', countedOn: '2024-12-31', isCurrent: false, n0: 12, n1: 4, unitPremium: 3050, halfDifference: -4, regularisation: -12200 },
      // P1: N1 on 2023-12-31 = V1, V3, V5, V8 = 4 (V2 left 2023-06-30, V7 is a draft); u = 3 650,00; −3 × 3 650 = −10 950,00.
      { indicatorUuid: truth.p1.uuid, startDate: '2023-01-01', endDate: '2023-12-31', countedOn: '2023-12-31', isCurrent: false, n0: 10, n1: 4, unitPremium: 3650, halfDifference: -3, regularisation: -10950 },
    ]);
  });

  it('has no current half-difference when no period contains today', async () => {
    expect(await get('/api/dashboard/current-half-difference')).toBeNull();
  });
});

describe('breakdowns (window P2)', () => {
  const window = 'startDate=2024-01-01&endDate=2024-12-31';

  it('claims and cost per month, every month of the window', async () => {
    // 2024-01: C9 500; 2024-03: C3 4 000; 2024-07: C4 1 200 + C5 99,99 = 1 299,99; the other months empty.
    const months = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];
    const expected: Record<string, { claims: number; cost: number }> = { '01': { claims: 1, cost: 500 }, '03': { claims: 1, cost: 4000 }, '07': { claims: 2, cost: 1299.99 } };
    expect(await get(`/api/dashboard/claims-by-month?${window}`)).toEqual(months.map((m) => ({ month: `2024-${m}`, ...(expected[m] ?? { claims: 0, cost: 0 }) })));
  });

  it('by guarantee, costliest first', async () => {
    // Dommages tous accidents C3 4 000; Responsabilité civile C4 + C9 = 1 700; Bris de glace C5 99,99 (Vol: C6 archived).
    const rows = await get(`/api/dashboard/claims-by-guarantee?${window}`);
    expect(rows.map(({ label, claims, cost }: { label: string; claims: number; cost: number }) => ({ label, claims, cost }))).toEqual([
      { label: 'Dommages tous accidents', claims: 1, cost: 4000 },
      { label: 'Responsabilité civile', claims: 2, cost: 1700 },
      { label: 'Bris de glace', claims: 1, cost: 99.99 },
    ]);
  });

  it('by responsibility', async () => {
    // At fault (100): C4 1 200; shared (25–75): C3 4 000 + C9 500; not at fault (0): none in 2024; unknown: C5 99,99.
    expect(await get(`/api/dashboard/claims-by-responsibility?${window}`)).toEqual([
      { responsibility: 'atFault', claims: 1, cost: 1200 },
      { responsibility: 'shared', claims: 2, cost: 4500 },
      { responsibility: 'notAtFault', claims: 0, cost: 0 },
      { responsibility: 'unknown', claims: 1, cost: 99.99 },
    ]);
  });

  it('by vehicle category', async () => {
    // VUL: C3 (V4) 4 000; VP: C4 (V1) 1 200; no vehicle: C9 500; PL: C5 (V5) 99,99.
    expect(await get(`/api/dashboard/claims-by-category?${window}`)).toEqual([
      { type: 'VUL', claims: 1, cost: 4000 },
      { type: 'VP', claims: 1, cost: 1200 },
      { type: null, claims: 1, cost: 500 },
      { type: 'PL', claims: 1, cost: 99.99 },
    ]);
  });

  it('drivers with the most at-fault claims in the 12 months ending on endDate', async () => {
    // 2024-01-01 → 2024-12-31, rate above 0: D2 C4 + C9 = 2 (1 700); D1 C3 = 1 (4 000).
    expect(await get(`/api/dashboard/top-drivers?${window}`)).toEqual([
      { driverUuid: truth.d2.uuid, firstName: 'Bruno', lastName: 'Colin', atFaultClaims: 2, cost: 1700 },
      { driverUuid: truth.d1.uuid, firstName: 'Anne', lastName: 'Bernard', atFaultClaims: 1, cost: 4000 },
    ]);
    // Ending 2025-06-30: 2024-07-01 → 2025-06-30: D1 C7 (2 000), D2 C4 (1 200); C6 archived.
    expect(await get('/api/dashboard/top-drivers?startDate=2025-01-01&endDate=2025-06-30')).toMatchObject([
      { driverUuid: truth.d1.uuid, atFaultClaims: 1, cost: 2000 },
      { driverUuid: truth.d2.uuid, atFaultClaims: 1, cost: 1200 },
    ]);
    // Not declared claims at fault with a driver: none.
    expect(await get(`/api/dashboard/top-drivers?${window}&isDeclared=false`)).toEqual([]);
  });

  it('the claims list filtered as a top driver’s link (driver, responsible=me, the 12 months) gives that driver’s count and cost', async () => {
    // The dashboard links each top driver to /sinisters?startDate&endDate&responsible=me&driver=<uuid>.
    const top = (await get(`/api/dashboard/top-drivers?${window}`)) as { driverUuid: string; atFaultClaims: number; cost: number }[];
    expect(top).toHaveLength(2);
    for (const driver of top) {
      const page = await get(`/api/sinister?startDate=2024-01-01&endDate=2024-12-31&responsible=me&driver=${driver.driverUuid}`);
      expect({ total: page.total, cost: page.sums.totalCost }).toEqual({ total: driver.atFaultClaims, cost: driver.cost });
    }
  });

  it('fleet size over time', async () => {
    // 2024-01-01 and 2024-01-31: V1, V3, V5, V8 = 4; 2024-02-29: + V4 = 5; 2024-03-15: V8 gone after 2024-03-10 = 4.
    expect(await get('/api/dashboard/fleet-size?startDate=2024-01-01&endDate=2024-03-15')).toEqual([
      { date: '2024-01-01', vehicles: 4 },
      { date: '2024-01-31', vehicles: 4 },
      { date: '2024-02-29', vehicles: 5 },
      { date: '2024-03-15', vehicles: 4 },
    ]);
  });
});

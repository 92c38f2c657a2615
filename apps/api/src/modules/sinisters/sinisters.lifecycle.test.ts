import { todayIso } from '@flotte/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSinisters } from '../../seed/factories.js';
import { freshClaims, openSinisterRegisters, sinisterHelpers, tomorrow } from '../../../test/fixtures/sinisters.js';
import type { TestContext } from '../../../test/test-app.js';

// A claim as an insurer follows it (decision 024): status and dates, paid and reserve (totalCost
// is their sum), description; the list's status filter and the total cost of what it matches.
type Row = { uuid: string };
let t: TestContext;
let v: { clio: Row };
let d: { jerome: Row };
let guarantee: Record<string, string>;
let orgC: string;
let foreignClaim: Row;
let seededClaims: string[];
let admin: string;
let user: string;
let outsider: string;
let bulk: string;
const { get, stored, countAll, removeClaimsNotSeeded } = sinisterHelpers(
  () => t,
  () => user,
);
const fresh = freshClaims(
  () => t,
  () => user,
  () => ({ vehicule: v.clio.uuid, driver: d.jerome.uuid, guarantee: guarantee['Vol']! }),
);
const post = (token: string, payload: object) => t.as(token, { method: 'POST', url: '/api/sinister', payload });
const patch = (token: string, uuid: string, payload: object) => t.as(token, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload });

beforeAll(async () => {
  const registers = await openSinisterRegisters(['admin', 'user', 'outsider', 'bulk']);
  ({ t, v, d, guarantee, foreignClaim, seededClaims } = registers);
  ({ admin, user, outsider, bulk } = registers.tokens);
  const [gamma] = (await get(bulk)).json().data;
  orgC = (await stored(gamma.uuid))!.organizationUuid;
});
afterAll(() => t.close());
afterEach(() => removeClaimsNotSeeded(seededClaims));

describe('a claim’s status, dates and amounts', () => {
  it('creates a claim in progress: paid and reserve stored in cents, totalCost their sum', async () => {
    const response = await post(user, {
      sinisterDate: '2025-05-05',
      vehicule: v.clio.uuid,
      status: 'inProgress',
      openedAt: '2025-05-07',
      paidAmount: 1200.5,
      reserveAmount: 800.25,
      description: '  Choc arrière au feu rouge, rue de la République. ',
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      status: 'inProgress',
      openedAt: '2025-05-07',
      closedAt: null,
      paidAmount: 1200.5,
      reserveAmount: 800.25,
      totalCost: 2000.75,
      description: 'Choc arrière au feu rouge, rue de la République.',
    });
    expect(await stored(body.uuid)).toMatchObject({ paidCents: 120050, reserveCents: 80025, totalCostCents: 200075, status: 'inProgress' });
    expect((await get(user, `/${body.uuid}`)).json()).toEqual(body);
  });

  it('keeps SPEC’s totalCost: alone on a new claim it is the reserve of an open claim opened on its day', async () => {
    const uuid = await fresh({ totalCost: 321.09 });
    expect((await get(user, `/${uuid}`)).json()).toMatchObject({ status: 'open', openedAt: '2025-07-07', closedAt: null, paidAmount: 0, reserveAmount: 321.09, totalCost: 321.09 });
  });

  it('a closed claim given its total alone has it paid, no reserve', async () => {
    const response = await post(admin, { sinisterDate: '2025-03-01', vehicule: v.clio.uuid, status: 'closed', closedAt: '2025-04-01', totalCost: 450 });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'closed', closedAt: '2025-04-01', paidAmount: 450, reserveAmount: 0, totalCost: 450 });
  });

  it('totalCost with one amount gives the other; with both it must be their sum', async () => {
    const one = await post(user, { sinisterDate: '2025-03-01', vehicule: v.clio.uuid, totalCost: 1000, paidAmount: 250 });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json()).toMatchObject({ paidAmount: 250, reserveAmount: 750, totalCost: 1000 });
    const both = await post(user, { sinisterDate: '2025-03-01', vehicule: v.clio.uuid, totalCost: 1000, paidAmount: 250, reserveAmount: 750 });
    expect(both.statusCode, both.body).toBe(201);
  });

  it('PATCH totalCost alone moves the reserve and keeps what was paid', async () => {
    const uuid = await fresh({ status: 'inProgress', paidAmount: 300, reserveAmount: 200, totalCost: undefined });
    const response = await patch(user, uuid, { totalCost: 1000 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ paidAmount: 300, reserveAmount: 700, totalCost: 1000 });
  });

  it('closes a claim (its reserve paid or dropped, a closing date), then reopens it: the closing date goes', async () => {
    const uuid = await fresh({ status: 'inProgress', paidAmount: 300, reserveAmount: 200, totalCost: undefined });
    const closed = await patch(user, uuid, { status: 'closed', closedAt: '2025-09-30', paidAmount: 480, reserveAmount: 0 });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ status: 'closed', closedAt: '2025-09-30', paidAmount: 480, reserveAmount: 0, totalCost: 480 });
    const reopened = await patch(admin, uuid, { status: 'open', reserveAmount: 120 });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json()).toMatchObject({ status: 'open', closedAt: null, paidAmount: 480, reserveAmount: 120, totalCost: 600 });
  });

  it('counts paid amounts and reserves in the loss ratio (S/P), as DOMAIN.md says', async () => {
    const costOfClaims = async () =>
      (await t.as(user, { method: 'GET', url: '/api/dashboard/loss-ratio?startDate=2025-07-07&endDate=2025-07-07' })).json().costOfClaims;
    expect(await costOfClaims()).toBe(0);
    const uuid = await fresh({ status: 'inProgress', paidAmount: 300, reserveAmount: 200, totalCost: undefined });
    expect(await costOfClaims()).toBe(500);
    expect((await patch(user, uuid, { status: 'closed', closedAt: '2025-09-30', paidAmount: 480, reserveAmount: 0 })).statusCode).toBe(200);
    expect(await costOfClaims()).toBe(480);
  });

  it('refuses a claim with nothing paid', async () => {
    const uuid = await fresh({ totalCost: 0 });
    const response = await patch(user, uuid, { status: 'refused', closedAt: todayIso() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'refused', closedAt: todayIso(), totalCost: 0 });
  });
});

describe('bad claims are refused in French, nothing written', () => {
  const base = () => ({ sinisterDate: '2025-05-05', vehicule: v.clio.uuid });
  it.each([
    ['an unknown status', { status: 'perdu' }, 'status', 'Statut : open (ouvert), inProgress (en cours), closed (clos) ou refused (refusé)'],
    ['a negative paid amount', { paidAmount: -1 }, 'paidAmount', 'Le montant ne peut pas être négatif'],
    ['a reserve with three decimals', { reserveAmount: 1.001 }, 'reserveAmount', 'Le montant a au plus deux décimales (centimes)'],
    ['a closed claim without its closing date', { status: 'closed', paidAmount: 10 }, 'closedAt', 'La date de clôture est obligatoire pour un sinistre clos ou refusé'],
    ['a closed claim with a reserve', { status: 'closed', closedAt: '2025-06-01', reserveAmount: 10 }, 'reserveAmount', "Un sinistre clos ou refusé n'a plus de provision : mettez-la à 0"],
    ['an open claim with a closing date', { closedAt: '2025-06-01' }, 'closedAt', "Un sinistre ouvert ou en cours n'a pas de date de clôture"],
    ['a closing date before the claim', { status: 'refused', closedAt: '2025-05-01', openedAt: null }, 'closedAt', 'La date de clôture ne peut pas précéder la date du sinistre'],
    ['an opening date before the claim', { openedAt: '2025-05-04' }, 'openedAt', "La date d'ouverture ne peut pas précéder la date du sinistre"],
    ['a closing date in the future', { status: 'closed', closedAt: 'TOMORROW' }, 'closedAt', 'La date de clôture ne peut pas être dans le futur'],
    ['a total that is not paid + reserve', { totalCost: 100, paidAmount: 30, reserveAmount: 50 }, 'totalCost', 'Le coût total doit être égal au montant réglé plus la provision'],
    ['a description too long', { description: 'x'.repeat(2001) }, 'description', undefined],
  ])('POST with %s', async (_what, fields, path, message) => {
    const before = await countAll();
    const payload = { ...base(), ...fields, ...('closedAt' in fields && fields.closedAt === 'TOMORROW' ? { closedAt: tomorrow() } : {}) };
    const response = await post(user, payload);
    expect(response.statusCode, response.body).toBe(400);
    const detail = response.json().details.find((x: { path: string }) => x.path === path);
    expect(detail, response.body).toBeDefined();
    if (message) expect(detail.message).toBe(message);
    else expect(detail.message).toMatch(/description/i);
    expect(await countAll()).toBe(before);
  });

  it('PATCH closing a claim that still has a reserve, or a total below what was paid: 400, the claim unchanged', async () => {
    const uuid = await fresh({ status: 'inProgress', paidAmount: 300, reserveAmount: 200, totalCost: undefined });
    const before = await stored(uuid);
    const closing = await patch(user, uuid, { status: 'closed', closedAt: '2025-09-30' });
    expect(closing.statusCode).toBe(400);
    expect(closing.json().details).toEqual([{ path: 'reserveAmount', message: "Un sinistre clos ou refusé n'a plus de provision : mettez-la à 0" }]);
    const below = await patch(user, uuid, { totalCost: 299.99 });
    expect(below.statusCode).toBe(400);
    expect(below.json().details).toEqual([{ path: 'totalCost', message: 'Le coût total ne peut pas être inférieur au montant réglé' }]);
    const late = await patch(user, uuid, { sinisterDate: '2025-07-08', openedAt: '2025-07-07' });
    expect(late.statusCode).toBe(400);
    expect(late.json().details).toEqual([{ path: 'openedAt', message: "La date d'ouverture ne peut pas précéder la date du sinistre" }]);
    expect(await stored(uuid)).toEqual(before);
  });

  it('another organization’s claim is not found (404), whatever the fields, and stays as it was', async () => {
    const before = await stored(foreignClaim.uuid);
    for (const token of [user, admin]) {
      const response = await patch(token, foreignClaim.uuid, { status: 'closed', closedAt: '2025-06-01', totalCost: 1 });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Sinistre introuvable');
    }
    expect(await stored(foreignClaim.uuid)).toEqual(before);
  });
});

describe('GET /api/sinister: the status filter and the total cost of the filter', () => {
  it('sums paid and reserves of every claim the query matches, not only the page', async () => {
    // Alpha's active claims: 1 234,56 + 250 + 0 + 9 900 + 50 + 0,01; SIN-006 (archived) 700.
    const all = (await get(user, '?limit=2')).json();
    expect(all).toMatchObject({ total: 6, sums: { totalCost: 11434.57 } });
    expect(all.data).toHaveLength(2);
    expect((await get(user, '?withArchived=true')).json().sums).toEqual({ totalCost: 12134.57 });
    expect((await get(user, '?showDeclared=true')).json()).toMatchObject({ total: 3, sums: { totalCost: 1284.56 } });
    expect((await get(user, '?search=zzqxj')).json()).toMatchObject({ total: 0, data: [], sums: { totalCost: 0 } });
    // Another organization's sum is its own.
    expect((await get(outsider)).json()).toMatchObject({ total: 1, sums: { totalCost: 42 } });
  });

  it('filters by status, counted and summed', async () => {
    const closed = await fresh({ status: 'closed', closedAt: '2025-08-01', paidAmount: 99.99, totalCost: undefined });
    await fresh({ status: 'inProgress', paidAmount: 10, reserveAmount: 5, totalCost: undefined });
    const onlyClosed = (await get(admin, '?status=closed')).json();
    expect(onlyClosed).toMatchObject({ total: 1, sums: { totalCost: 99.99 } });
    expect(onlyClosed.data.map((s: Row) => s.uuid)).toEqual([closed]);
    expect((await get(user, '?status=inProgress')).json()).toMatchObject({ total: 1, sums: { totalCost: 15 } });
    expect((await get(user, '?status=open')).json()).toMatchObject({ total: 6, sums: { totalCost: 11434.57 } });
    expect((await get(user, '?status=refused')).json()).toMatchObject({ total: 0, sums: { totalCost: 0 } });
    const bad = await get(user, '?status=perdu');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('status');
  });

  it('is exact past the capped count: more than 1 000 matches are all summed', async () => {
    // 1 010 claims of Gamma, 1 € to 1 010 € paid (closed) — plus its 25 claims at 0 €.
    await t.seed((tx) =>
      createSinisters(tx, orgC, Array.from({ length: 1010 }, (_, i) => ({ sinisterIntermediateRef: `CAP-${i}`, sinisterDate: '2025-02-02', status: 'closed' as const, totalCostCents: (i + 1) * 100 }))),
    );
    const expected = (1010 * 1011) / 2;
    expect((await get(bulk)).json()).toMatchObject({ total: 1035, sums: { totalCost: expected } });
    for (const query of ['?status=closed', '?search=cap', '?search=c&sortBy=-totalCost', '?startDate=2025-02-02&endDate=2025-02-02&page=3']) {
      const page = (await get(bulk, query)).json();
      expect(page, query).toMatchObject({ total: 1000, totalIsCapped: true, sums: { totalCost: expected } });
    }
  });
});

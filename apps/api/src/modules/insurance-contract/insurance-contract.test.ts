import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInsurance } from '../../../test/fixtures/insurance.js';
import type { TestContext } from '../../../test/test-app.js';
import { insuranceContractGuarantees, insuranceContracts } from '../../db/schema/insurance.js';

let t: TestContext;
let tokens: Awaited<ReturnType<typeof openInsurance>>['tokens'];
let guarantee: (label: string) => string;

beforeAll(async () => {
  ({ t, tokens, guarantee } = await openInsurance());
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  insurer: 'Axa France',
  policyNumber: 'FLO-2026-0042',
  startDate: '2026-01-01',
  renewalDate: '2027-01-01',
  annualPremium: 40_000.5,
  guarantees: [
    { guaranteeUuid: guarantee('Responsabilité civile'), deductible: 0 },
    { guaranteeUuid: guarantee('Bris de glace'), deductible: 150.25 },
  ],
  ...over,
});
const save = (token: string, payload: unknown) => t.as(token, { method: 'POST', url: '/api/contract/create-or-update', payload: payload as object });
const list = (token: string) => t.as(token, { method: 'GET', url: '/api/contract' });
const countContracts = () => t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(insuranceContracts))[0]!.n);

describe('the insurance contract', () => {
  it('answers an empty list before any contract, to every member', async () => {
    const response = await list(tokens.userA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('creates the contract (201), amounts in euros with cents, stored in cents, guarantees with their deductible', async () => {
    const response = await save(tokens.adminA, body());
    expect(response.statusCode).toBe(201);
    const contract = response.json();
    expect(contract).toMatchObject({
      insurer: 'Axa France',
      policyNumber: 'FLO-2026-0042',
      startDate: '2026-01-01',
      renewalDate: '2027-01-01',
      annualPremium: 40_000.5,
    });
    expect(contract.guarantees).toEqual(
      expect.arrayContaining([
        { guaranteeUuid: guarantee('Responsabilité civile'), label: 'Responsabilité civile', deductible: 0 },
        { guaranteeUuid: guarantee('Bris de glace'), label: 'Bris de glace', deductible: 150.25 },
      ]),
    );
    expect(contract.guarantees).toHaveLength(2);
    const [row] = await t.seed((tx) => tx.select().from(insuranceContracts).where(eq(insuranceContracts.uuid, contract.uuid)));
    expect(row!.annualPremiumCents).toBe(4_000_050);
    const covered = await t.seed((tx) => tx.select().from(insuranceContractGuarantees).where(eq(insuranceContractGuarantees.contractUuid, contract.uuid)));
    expect(covered.map((g) => g.deductibleCents).sort((a, b) => a - b)).toEqual([0, 15_025]);
    // Every member reads it.
    const read = await list(tokens.userA);
    expect(read.json()[0]).toEqual(contract);
  });

  it('updates it as a new version (200), the history kept newest first', async () => {
    const [current] = (await list(tokens.adminA)).json();
    const response = await save(tokens.adminA, body({ uuid: current.uuid, insurer: 'Allianz', annualPremium: 42_000, guarantees: [] }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ insurer: 'Allianz', annualPremium: 42_000, guarantees: [] });
    const history = (await list(tokens.userA)).json();
    expect(history.map((c: { insurer: string }) => c.insurer)).toEqual(['Allianz', 'Axa France']);
    expect(history[1]).toEqual(current);
  });

  it('refuses to overwrite a newer version than the one edited (409)', async () => {
    const history = (await list(tokens.adminA)).json();
    const before = await countContracts();
    const response = await save(tokens.adminA, body({ uuid: history[1].uuid }));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('modifié entre-temps');
    expect(await countContracts()).toBe(before);
  });

  it("lets the environment's superadmin and ROOT write too", async () => {
    for (const token of [tokens.superA, tokens.root]) {
      const response = await save(token, body({ policyNumber: 'FLO-SUPER' }));
      expect(response.statusCode).toBe(200);
    }
  });

  it('refuses a plain member (403) and a caller without organization (403), writing nothing', async () => {
    const before = await countContracts();
    const member = await save(tokens.userA, body());
    expect(member.statusCode).toBe(403);
    expect(member.json().message).toBe('Seul un administrateur peut modifier le contrat');
    const orphan = await save(tokens.orphan, body());
    expect(orphan.statusCode).toBe(403);
    expect((await list(tokens.orphan)).statusCode).toBe(403);
    expect(await countContracts()).toBe(before);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/contract' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/contract/create-or-update', payload: body() })).statusCode).toBe(401);
  });

  it.each([
    [{ annualPremium: -1 }, 'annualPremium', 'Le montant ne peut pas être négatif'],
    [{ annualPremium: 10.123 }, 'annualPremium', 'Le montant a au plus deux décimales (centimes)'],
    [{ renewalDate: '2025-12-31' }, 'renewalDate', "L'échéance doit être postérieure à la date de début"],
    [{ renewalDate: '2026-01-01' }, 'renewalDate', "L'échéance doit être postérieure à la date de début"],
    [{ startDate: '01/01/2026' }, 'startDate', 'Date invalide (AAAA-MM-JJ)'],
    [{ insurer: '  ' }, 'insurer', "L'assureur est obligatoire"],
    [{ policyNumber: undefined }, 'policyNumber', 'Le numéro de police est obligatoire'],
    [{ guarantees: [{ guaranteeUuid: '00000000-0000-4000-8000-000000000000', deductible: -5 }] }, 'guarantees.0.deductible', 'Le montant ne peut pas être négatif'],
    [{ guarantees: [{ guaranteeUuid: 'pas-un-uuid', deductible: 5 }] }, 'guarantees.0.guaranteeUuid', 'Identifiant invalide'],
    [{ uuid: 'abc' }, 'uuid', 'Identifiant invalide'],
  ])('refuses %j with a French message on its field', async (over, path, message) => {
    const before = await countContracts();
    const response = await save(tokens.adminA, body(over));
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message });
    expect(await countContracts()).toBe(before);
  });

  it('refuses the same guarantee twice and an unknown guarantee', async () => {
    const twice = await save(tokens.adminA, body({ guarantees: [{ guaranteeUuid: guarantee('Vol'), deductible: 1 }, { guaranteeUuid: guarantee('Vol'), deductible: 2 }] }));
    expect(twice.statusCode).toBe(400);
    expect(twice.json().details).toContainEqual({ path: 'guarantees.1.guaranteeUuid', message: 'Cette garantie est déjà dans la liste' });
    const unknown = await save(tokens.adminA, body({ guarantees: [{ guaranteeUuid: '00000000-0000-4000-8000-000000000000', deductible: 1 }] }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([{ path: 'guarantees.0.guaranteeUuid', message: 'Garantie inconnue' }]);
  });

  it("answers 404 for an unknown uuid and for another organization's contract, and hides each other's contracts", async () => {
    const betaContract = (await save(tokens.adminB, body({ insurer: 'MAAF' }))).json();
    expect((await list(tokens.adminB)).json().map((c: { insurer: string }) => c.insurer)).toEqual(['MAAF']);
    expect((await list(tokens.adminA)).json().some((c: { insurer: string }) => c.insurer === 'MAAF')).toBe(false);
    const before = await countContracts();
    for (const uuid of [betaContract.uuid, '00000000-0000-4000-8000-000000000000']) {
      const response = await save(tokens.adminA, body({ uuid }));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Contrat introuvable' });
    }
    expect(await countContracts()).toBe(before);
  });
});

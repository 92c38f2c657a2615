import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '@flotte/contract';
import { openInsurance } from '../../../test/fixtures/insurance.js';
import type { TestContext } from '../../../test/test-app.js';
import { insuranceIntermediaries } from '../../db/schema/insurance.js';
import { noonInParis } from './insurance-intermediary.service.js';

let t: TestContext;
let tokens: Awaited<ReturnType<typeof openInsurance>>['tokens'];

beforeAll(async () => {
  ({ t, tokens } = await openInsurance());
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Cabinet Lefèvre Assurances',
  contactLastName: 'Lefèvre',
  contactFirstName: 'Paul',
  email: 'Paul.Lefevre@Courtier.exemple.fr',
  productionEmail: 'production@courtier.exemple.fr',
  ...over,
});
const create = (token: string, payload: unknown) => t.as(token, { method: 'POST', url: '/api/insurance-intermediary', payload: payload as object });
const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
const count = () => t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(insuranceIntermediaries))[0]!.n);

describe('noonInParis', () => {
  it('is 11:00 UTC in winter and 10:00 UTC in summer', () => {
    expect(noonInParis('2026-01-15').toISOString()).toBe('2026-01-15T11:00:00.000Z');
    expect(noonInParis('2026-07-15').toISOString()).toBe('2026-07-15T10:00:00.000Z');
  });
});

describe('the insurance intermediary', () => {
  it('answers no current intermediary and an empty history at first, to every member', async () => {
    const current = await get(tokens.userA, '/api/insurance-intermediary/current');
    expect(current.statusCode).toBe(200);
    expect(current.json()).toBeNull();
    expect((await get(tokens.userA, '/api/insurance-intermediary')).json()).toEqual([]);
  });

  it('creates one starting today at noon (Paris) by default, e-mails lower-cased; it becomes the current one', async () => {
    const response = await create(tokens.adminA, body());
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      name: 'Cabinet Lefèvre Assurances',
      contactLastName: 'Lefèvre',
      contactFirstName: 'Paul',
      email: 'paul.lefevre@courtier.exemple.fr',
      productionEmail: 'production@courtier.exemple.fr',
      startDate: noonInParis(todayIso()).toISOString(),
    });
    // It starts today: the current one from now on, even in the morning before its noon.
    const current = (await get(tokens.userA, '/api/insurance-intermediary/current')).json();
    expect(current).toEqual(created);
  });

  it('keeps the history, latest start first; the current one is the latest starting today or before (French calendar)', async () => {
    const past = (await create(tokens.superA, body({ name: 'Ancien courtier', startDate: '2024-01-01' }))).json();
    expect(past.startDate).toBe('2024-01-01T11:00:00.000Z');
    const recent = (await create(tokens.root, body({ name: 'Courtier actuel', startDate: '2025-06-01T08:30:00.000Z' }))).json();
    const future = (await create(tokens.adminA, body({ name: 'Futur courtier', startDate: '2099-01-01' }))).json();
    const history = (await get(tokens.userA, '/api/insurance-intermediary')).json();
    expect(history.map((i: { name: string }) => i.name)).toEqual(['Futur courtier', 'Cabinet Lefèvre Assurances', 'Courtier actuel', 'Ancien courtier']);
    const current = (await get(tokens.userA, '/api/insurance-intermediary/current')).json();
    // Today's (created by the test above) is after the one of 2025: it is current, the future one is not.
    expect(current.uuid).toBe(history[1].uuid);
    expect([recent.uuid, future.uuid, past.uuid]).not.toContain(current.uuid);
  });

  it('refuses a plain member and a caller without organization (403), writing nothing', async () => {
    const before = await count();
    const member = await create(tokens.userA, body());
    expect(member.statusCode).toBe(403);
    expect(member.json().message).toBe("Seul un administrateur peut changer d'intermédiaire d'assurance");
    expect((await create(tokens.orphan, body())).statusCode).toBe(403);
    expect((await get(tokens.orphan, '/api/insurance-intermediary/current')).statusCode).toBe(403);
    expect(await count()).toBe(before);
  });

  it('answers 401 without a token', async () => {
    for (const url of ['/api/insurance-intermediary', '/api/insurance-intermediary/current']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/insurance-intermediary', payload: body() })).statusCode).toBe(401);
  });

  it.each([
    [{ email: 'pas-une-adresse' }, 'email', 'Adresse e-mail invalide'],
    [{ productionEmail: 'production@' }, 'productionEmail', 'Adresse e-mail invalide'],
    [{ productionEmail: '' }, 'productionEmail', "L'adresse e-mail est obligatoire"],
    [{ name: ' ' }, 'name', "Le nom de l'intermédiaire est obligatoire"],
    [{ contactLastName: undefined }, 'contactLastName', 'Le nom du contact est obligatoire'],
    [{ contactFirstName: 'x'.repeat(101) }, 'contactFirstName', 'Le prénom du contact : 100 caractères maximum'],
    [{ startDate: 'demain' }, 'startDate', 'Date de début invalide'],
    [{ phone: '0600000000' }, '', 'Clé non reconnue : "phone"'],
  ])('refuses %j with a French message on its field', async (over, path, message) => {
    const before = await count();
    const response = await create(tokens.adminA, body(over));
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message });
    expect(await count()).toBe(before);
  });

  it("keeps each organization's intermediaries to itself", async () => {
    const beta = (await create(tokens.adminB, body({ name: 'Courtier Bêta', startDate: '2025-01-01' }))).json();
    expect((await get(tokens.adminB, '/api/insurance-intermediary')).json()).toEqual([beta]);
    expect((await get(tokens.adminB, '/api/insurance-intermediary/current')).json()).toEqual(beta);
    const alpha = (await get(tokens.adminA, '/api/insurance-intermediary')).json();
    expect(alpha.some((i: { uuid: string }) => i.uuid === beta.uuid)).toBe(false);
  });
});

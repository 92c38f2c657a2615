import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guarantees } from '../../db/schema/sinisters.js';
import { createUser } from '../../seed/factories.js';
import { openSinisterRegisters } from '../../../test/fixtures/sinisters.js';
import type { TestContext } from '../../../test/test-app.js';

// ROOT edits the guarantees list (issue 17, decision 043): a new label reaches every claims list
// at once, a page the server holds included (decision 007).
let t: TestContext;
let guarantee: Record<string, string>;
let user: string;
let admin: string;
let root: string;
let superadmin: string;

beforeAll(async () => {
  const registers = await openSinisterRegisters(['user', 'admin']);
  ({ t, guarantee } = registers);
  ({ user, admin } = registers.tokens);
  await t.seed(async (tx) => {
    await createUser(tx, { email: 'root-garanties@exemple.fr', roles: ['ROOT'] });
    await createUser(tx, { email: 'super-garanties@exemple.fr', roles: ['SUPERADMIN'] });
  });
  root = await t.login('root-garanties@exemple.fr');
  superadmin = await t.login('super-garanties@exemple.fr');
});
afterAll(() => t.close());

const labels = () => t.seed(async (tx) => (await tx.select({ label: guarantees.label }).from(guarantees)).map((g) => g.label).sort());
const claimLabels = async (token: string) => {
  const response = await t.as(token, { method: 'GET', url: '/api/sinister?sortBy=sinisterDate&sortOrder=asc' });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { guarantee: { label: string } | null }[] }>().data.map((s) => s.guarantee?.label ?? null);
};

describe('PATCH /api/guarantees/:uuid', () => {
  it('renames a guarantee for every claims list at once, a held page included', async () => {
    const before = await claimLabels(user);
    expect(before).toContain('Bris de glace');
    // Read twice: the second answer is the page the server holds.
    expect(await claimLabels(user)).toEqual(before);

    const response = await t.as(root, { method: 'PATCH', url: `/api/guarantees/${guarantee['Bris de glace']}`, payload: { label: '  Bris de glace et optiques  ' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ uuid: guarantee['Bris de glace'], label: 'Bris de glace et optiques' });

    const after = await claimLabels(user);
    expect(after).toEqual(before.map((label) => (label === 'Bris de glace' ? 'Bris de glace et optiques' : label)));
    const list = await t.as(admin, { method: 'GET', url: '/api/guarantees' });
    expect(list.json().map((g: { label: string }) => g.label)).toContain('Bris de glace et optiques');
  });

  it('lets ROOT read the list without a current organization', async () => {
    const response = await t.as(root, { method: 'GET', url: '/api/guarantees' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(17);
  });

  it.each([
    [{ label: '' }, 'Le libellé de la garantie est obligatoire'],
    [{ label: 'x'.repeat(121) }, '120 caractères maximum'],
    [{}, 'Le libellé de la garantie est obligatoire'],
  ])('refuses %j in French and writes nothing', async (payload, message) => {
    const before = await labels();
    const response = await t.as(root, { method: 'PATCH', url: `/api/guarantees/${guarantee['Vol']}`, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path: 'label', message: expect.stringContaining(message) });
    expect(await labels()).toEqual(before);
  });

  it('refuses a label another guarantee has with 409, and an unknown guarantee with 404', async () => {
    const before = await labels();
    const clash = await t.as(root, { method: 'PATCH', url: `/api/guarantees/${guarantee['Vol']}`, payload: { label: 'Incendie' } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('Une garantie porte déjà ce libellé');
    const unknown = await t.as(root, { method: 'PATCH', url: '/api/guarantees/00000000-0000-4000-8000-000000000000', payload: { label: 'Nouvelle' } });
    expect(unknown.statusCode).toBe(404);
    expect(await labels()).toEqual(before);
  });

  it.each([['superadmin'], ['admin'], ['user']] as const)('refuses %s with 403 and writes nothing', async (who) => {
    const token = { superadmin, admin, user }[who];
    const before = await labels();
    const response = await t.as(token, { method: 'PATCH', url: `/api/guarantees/${guarantee['Vol']}`, payload: { label: 'Vol et tentative' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Seul l’opérateur de la plateforme peut modifier la liste des garanties');
    expect(await labels()).toEqual(before);
    const added = await t.as(token, { method: 'POST', url: '/api/guarantees', payload: { label: 'Pirate' } });
    expect(added.statusCode).toBe(403);
    expect(await labels()).toEqual(before);
  });

  it('requires a token', async () => {
    const response = await t.app.inject({ method: 'PATCH', url: `/api/guarantees/${guarantee['Vol']}`, payload: { label: 'X' } });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/guarantees', () => {
  it('adds a guarantee at the end of the list', async () => {
    const response = await t.as(root, { method: 'POST', url: '/api/guarantees', payload: { label: 'Protection juridique' } });
    expect(response.statusCode).toBe(201);
    const list = (await t.as(user, { method: 'GET', url: '/api/guarantees' })).json();
    expect(list.at(-1)).toEqual({ uuid: response.json().uuid, label: 'Protection juridique' });
    const again = await t.as(root, { method: 'POST', url: '/api/guarantees', payload: { label: 'Protection juridique' } });
    expect(again.statusCode).toBe(409);
    const [row] = await t.seed((tx) => tx.select({ n: count() }).from(guarantees).where(eq(guarantees.label, 'Protection juridique')));
    expect(row!.n).toBe(1);
  });
});

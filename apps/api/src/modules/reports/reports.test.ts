import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '../../db/schema/reports.js';
import { withTenant } from '../../db/scope.js';
import { createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { listReports } from './reports.service.js';

let t: TestContext;
let orgA: { uuid: string };
let orgB: { uuid: string };
let tokenA: string;
let tokenB: string;
let userA: { uuid: string };

beforeAll(async () => {
  t = await createTestApp();
  ({ orgA, orgB, userA } = await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: 'Transports Alpha' });
    const orgB = await createOrganization(tx, { title: 'Logistique Bêta' });
    const userA = await createUser(tx, { email: 'a@exemple.fr' });
    const userB = await createUser(tx, { email: 'b@exemple.fr' });
    await linkUser(tx, orgA.uuid, userA.uuid);
    await linkUser(tx, orgB.uuid, userB.uuid);
    return { orgA, orgB, userA };
  }));
  tokenA = await t.login('a@exemple.fr');
  tokenB = await t.login('b@exemple.fr');
});
afterAll(() => t.close());

const countReports = () => t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(reports))[0]!.n);

describe('POST /api/report', () => {
  it('stores a bug with its author and the current organization', async () => {
    const response = await t.as(tokenA, {
      method: 'POST',
      url: '/api/report',
      payload: { title: 'Bouton inactif', description: "Le bouton d'export ne répond pas.", type: 'bug' },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ title: 'Bouton inactif', type: 'bug' });
    const [row] = await t.seed((tx) => tx.select().from(reports).where(sql`${reports.uuid} = ${body.uuid}`));
    expect(row).toMatchObject({ organizationUuid: orgA.uuid, authorUuid: userA.uuid, type: 'bug' });
  });

  it('accepts a suggestion of exactly 800 characters', async () => {
    const response = await t.as(tokenB, {
      method: 'POST',
      url: '/api/report',
      payload: { title: 'Export', description: 'x'.repeat(800), type: 'suggestion' },
    });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    [{ title: 'T', description: 'x'.repeat(801), type: 'bug' }, 'description', '800 caractères'],
    [{ title: '', description: 'Texte', type: 'bug' }, 'title', 'Le titre est obligatoire'],
    [{ title: 'T', description: '   ', type: 'bug' }, 'description', 'La description est obligatoire'],
    [{ title: 'T', description: 'Texte', type: 'question' }, 'type', 'Type de signalement invalide'],
    [{ title: 'T', description: 'Texte', type: 'bug', organizationUuid: '00000000-0000-4000-8000-000000000000' }, '', 'Clé non reconnue'],
  ])('refuses %j with a French message and writes nothing', async (payload, path, message) => {
    const before = await countReports();
    const response = await t.as(tokenA, { method: 'POST', url: '/api/report', payload });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.statusCode).toBe(400);
    expect(body.details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await countReports()).toBe(before);
  });

  it('requires a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/report', payload: { title: 'T', description: 'D', type: 'bug' } });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('Authentification requise');
  });
});

describe('row-level security', () => {
  it('a query without any WHERE on organization returns only the scoped organization rows', async () => {
    await t.seed(async (tx) => {
      await tx.insert(reports).values([
        { organizationUuid: orgA.uuid, title: 'A1', description: 'a', type: 'bug' },
        { organizationUuid: orgB.uuid, title: 'B1', description: 'b', type: 'bug' },
      ]);
    });
    const seenByA = await listReports(t.database.db, orgA.uuid);
    const seenByB = await listReports(t.database.db, orgB.uuid);
    expect(seenByA.length).toBeGreaterThan(0);
    expect(seenByA.every((r) => r.organizationUuid === orgA.uuid)).toBe(true);
    expect(seenByB.every((r) => r.organizationUuid === orgB.uuid)).toBe(true);
    expect(seenByA.map((r) => r.title)).toContain('A1');
    expect(seenByA.map((r) => r.title)).not.toContain('B1');
  });

  it('the tenant role owns nothing, is not superuser, and cannot write into another organization', async () => {
    const role = await withTenant(t.database.db, orgA.uuid, async (tx) => {
      const result = (await tx.execute(sql`select current_user as name, (select rolsuper from pg_roles where rolname = current_user) as super, (select count(*)::int from pg_tables where tableowner = current_user) as owned`)) as { rows: unknown[] };
      return result.rows[0] as { name: string; super: boolean; owned: number };
    });
    expect(role).toEqual({ name: 'flotte_app', super: false, owned: 0 });
    await expect(
      withTenant(t.database.db, orgA.uuid, (tx) =>
        tx.insert(reports).values({ organizationUuid: orgB.uuid, title: 'intrus', description: 'x', type: 'bug' }),
      ),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/row-level security/) } });
  });

  it('a connection used outside any scope sees no tenant row', async () => {
    const rows = await t.database.db.select().from(reports);
    expect(rows).toEqual([]);
  });
});

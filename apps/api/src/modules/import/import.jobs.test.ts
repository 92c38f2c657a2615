import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSystem } from '../../db/scope.js';
import { drivers } from '../../db/schema/drivers.js';
import { imports } from '../../db/schema/imports.js';
import { storedFiles } from '../../db/schema/stored-files.js';
import { createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { cleanupStaleImports } from './import.service.js';
import { multipartFile } from '../../../test/multipart.js';

/** Imports' background work: a commit above 5 000 rows, the revert window, the cleanup of abandoned imports. */
let t: TestContext;
let org: string;
let admin: string;

async function preview(content: Buffer) {
  const response = await t.as(admin, { method: 'POST', url: '/api/import/driver/preview', ...multipartFile('conducteurs.csv', content) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ importId: string; suggestedMapping: Record<string, number | null> }>();
}

const driversFile = (n: number, prefix: string) =>
  Buffer.from(
    `Nom;Prénom;Téléphone\r\n${Array.from({ length: n }, (_, i) => `${prefix}${i};Jean;06 ${String(10 + Math.floor(i / 10000)).padStart(2, '0')} ${String(Math.floor(i / 100) % 100).padStart(2, '0')} ${String(i % 100).padStart(2, '0')} 00`).join('\r\n')}\r\n`,
    'latin1',
  );

beforeAll(async () => {
  t = await createTestApp({ JOBS_WORKER: 'true', JOBS_POLL_INTERVAL_SECONDS: '1' });
  ({ org } = await t.seed(async (tx) => {
    const o = await createOrganization(tx, { title: 'Transports Delta' });
    const a = await createUser(tx, { email: 'admin@delta.fr' });
    await linkUser(tx, o.uuid, a.uuid, 'ADMIN');
    return { org: o.uuid };
  }));
  admin = await t.login('admin@delta.fr');
});
afterAll(() => t.close());

describe('background commit', { timeout: 120_000 }, () => {
  it('above 5 000 rows answers 202 and the job commits, followed by GET /api/import/{id}', async () => {
    const { importId, suggestedMapping } = await preview(driversFile(5_001, 'Fond'));
    const response = await t.as(admin, { method: 'POST', url: `/api/import/${importId}/commit`, payload: { mapping: suggestedMapping } });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ importId, status: 'queued', created: 0 });
    const seen = new Set<string>();
    let state: { status: string; percent: number; counts: { created: number } | null } = { status: 'queued', percent: 0, counts: null };
    const deadline = Date.now() + 90_000;
    while (state.status !== 'committed' && state.status !== 'failed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      state = (await t.as(admin, { method: 'GET', url: `/api/import/${importId}` })).json();
      seen.add(state.status);
    }
    expect(state).toMatchObject({ status: 'committed', percent: 100, counts: { created: 5_001, updated: 0, skipped: 0 } });
    const count = await t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(drivers).where(eq(drivers.organizationUuid, org)))[0]!.n);
    expect(count).toBe(5_001);
    // A second commit of the same import: its result, nothing more.
    const again = await t.as(admin, { method: 'POST', url: `/api/import/${importId}/commit`, payload: { mapping: suggestedMapping } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'committed', created: 5_001 });
  });
});

describe('revert window and cleanup', () => {
  it('refuses a revert more than 24 h after the commit', async () => {
    const { importId, suggestedMapping } = await preview(driversFile(3, 'Vieux'));
    expect((await t.as(admin, { method: 'POST', url: `/api/import/${importId}/commit`, payload: { mapping: suggestedMapping } })).statusCode).toBe(200);
    await t.seed((tx) => tx.update(imports).set({ committedAt: new Date(Date.now() - 25 * 3600 * 1000) }).where(eq(imports.uuid, importId)));
    const status = (await t.as(admin, { method: 'GET', url: `/api/import/${importId}` })).json();
    expect(status.revertibleUntil).toBeNull();
    const response = await t.as(admin, { method: 'POST', url: `/api/import/${importId}/revert` });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("L'annulation n'est possible que dans les 24 heures qui suivent l'import");
  });

  it('removes imports previewed and never committed after a day, with their file; keeps the others', async () => {
    const stale = await preview(driversFile(2, 'Oublié'));
    const fresh = await preview(driversFile(2, 'Récent'));
    const staleRow = (await t.seed((tx) => tx.select().from(imports).where(eq(imports.uuid, stale.importId))))[0]!;
    await t.seed((tx) => tx.update(imports).set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) }).where(eq(imports.uuid, stale.importId)));
    const removed = await cleanupStaleImports({ db: t.database.db, storage: t.app.storage }, (fn) => readSystem(t.database.db, fn));
    expect(removed).toBe(1);
    expect((await t.as(admin, { method: 'GET', url: `/api/import/${stale.importId}` })).statusCode).toBe(404);
    expect((await t.as(admin, { method: 'GET', url: `/api/import/${fresh.importId}` })).json().status).toBe('previewed');
    expect(await t.seed((tx) => tx.select().from(storedFiles).where(eq(storedFiles.key, staleRow.fileKey)))).toEqual([]);
    expect(await t.app.storage.exists(staleRow.fileKey)).toBe(false);
  });
});

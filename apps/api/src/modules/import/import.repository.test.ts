import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/scope.js';
import { drivers } from '../../db/schema/drivers.js';
import { importChanges, imports } from '../../db/schema/imports.js';
import { registerCounts } from '../../db/schema/registers.js';
import { sinisters } from '../../db/schema/sinisters.js';
import { storedFiles } from '../../db/schema/stored-files.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { createOrganization } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { insertCreated, recordChanges, updateMany, WRITE_CHUNK } from './import.repository.js';

/** The commit's set-based writes (decision 027): a statement per chunk and per shape of rows, never one per row. */
let t: TestContext;
let org: string;
let other: string;

async function importRow(organizationUuid: string, entity: 'driver' | 'vehicule' | 'sinister') {
  return t.seed(async (tx) => {
    const key = `${organizationUuid}/${crypto.randomUUID()}`;
    await tx.insert(storedFiles).values({ key, organizationUuid, sizeBytes: 1 });
    const [row] = await tx.insert(imports).values({ organizationUuid, entity, fileName: 'f.csv', fileKey: key, rowCount: 1, headers: [] }).returning();
    return row!.uuid;
  });
}

const changesOf = (importUuid: string) => t.seed((tx) => tx.select().from(importChanges).where(eq(importChanges.importUuid, importUuid)));
const countOf = (organizationUuid: string, register: 'drivers' | 'vehicules' | 'sinisters') =>
  t.seed(async (tx) => (await tx.select().from(registerCounts).where(and(eq(registerCounts.organizationUuid, organizationUuid), eq(registerCounts.register, register))))[0]);

beforeAll(async () => {
  t = await createTestApp();
  ({ org, other } = await t.seed(async (tx) => ({ org: (await createOrganization(tx, { title: 'Transports Epsilon' })).uuid, other: (await createOrganization(tx, { title: 'Autre' })).uuid })));
});
afterAll(() => t?.close());

describe('insertCreated', () => {
  it('inserts rows of different shapes, records each as created with written_at = updated_at, and the counts follow', async () => {
    const importUuid = await importRow(org, 'driver');
    const writtenAt = new Date('2026-03-04T05:06:07.089Z');
    const before = await countOf(org, 'drivers');
    const chunks: number[] = [];
    await withTenant(t.database.db, org, (tx) =>
      insertCreated(
        tx,
        drivers,
        [
          { firstName: 'Élise', lastName: 'Garçon', email: null, phone: '+33612345678' },
          // A key the table does not have is dropped; an undefined one keeps the column's default.
          { firstName: 'Jean', lastName: "L'Hôte", email: 'jean@epsilon.fr', phone: undefined, notAColumn: 'x' },
          { firstName: 'Zoé', lastName: 'Ça "va"', email: null, phone: null },
        ],
        { importUuid, organizationUuid: org, writtenAt },
        (n) => chunks.push(n),
      ),
    );
    const rows = (await t.seed((tx) => tx.select().from(drivers).where(eq(drivers.organizationUuid, org)))).sort((x, y) => x.firstName.localeCompare(y.firstName, 'fr'));
    expect(rows.map((r) => [r.firstName, r.lastName, r.email, r.phone])).toEqual([
      ['Élise', 'Garçon', null, '+33612345678'],
      ['Jean', "L'Hôte", 'jean@epsilon.fr', null],
      ['Zoé', 'Ça "va"', null, null],
    ]);
    for (const r of rows) expect(r.updatedAt.getTime()).toBe(writtenAt.getTime());
    const changes = await changesOf(importUuid);
    expect(changes.map((c) => [c.action, c.before, c.writtenAt.getTime(), c.organizationUuid]).sort()).toEqual(rows.map(() => ['created', null, writtenAt.getTime(), org]));
    expect(new Set(changes.map((c) => c.recordUuid))).toEqual(new Set(rows.map((r) => r.uuid)));
    // Two shapes (with and without phone): a statement each; the progress counts every row.
    expect(chunks.at(-1)).toBe(3);
    const after = await countOf(org, 'drivers');
    expect(after?.active).toBe((before?.active ?? 0) + 3);
    expect(after!.version).toBeGreaterThan(before?.version ?? 0);
  });

  it('leaves the defaults of the columns a claim does not give (booleans, amounts, status), and generated columns alone', async () => {
    const importUuid = await importRow(org, 'sinister');
    // A generated column given a value is left out, as drizzle's insert does.
    await withTenant(t.database.db, org, (tx) =>
      insertCreated(tx, sinisters, [{ sinisterIntermediateRef: 'R-1', sinisterDate: '2025-01-12', city: 'Lyon', totalCostCents: 999 }], { importUuid, organizationUuid: org, writtenAt: new Date() }),
    );
    const [row] = await t.seed((tx) => tx.select().from(sinisters).where(and(eq(sinisters.organizationUuid, org), eq(sinisters.sinisterIntermediateRef, 'R-1'))));
    expect(row).toMatchObject({ sinisterDate: '2025-01-12', city: 'Lyon', ida: false, isDeclared: false, paidCents: 0, reserveCents: 0, totalCostCents: 0, status: 'open' });
  });

  it(`writes more than ${WRITE_CHUNK} rows by chunks, all or nothing with the transaction`, async () => {
    const importUuid = await importRow(org, 'vehicule');
    const rows = Array.from({ length: WRITE_CHUNK + 3 }, (_, i) => ({ immatriculation: `ZZ${String(i).padStart(3, '0')}YY${Math.floor(i / 1000)}`, brand: 'Renault', entryDate: '2024-01-01' }));
    const chunks: number[] = [];
    await withTenant(t.database.db, org, (tx) => insertCreated(tx, vehicules, rows, { importUuid, organizationUuid: org, writtenAt: new Date() }, (n) => chunks.push(n)));
    expect(chunks).toEqual([WRITE_CHUNK, WRITE_CHUNK + 3]);
    expect((await changesOf(importUuid)).length).toBe(WRITE_CHUNK + 3);
    expect((await countOf(org, 'vehicules'))?.active).toBe(WRITE_CHUNK + 3);
    // A failure after the inserts rolls them back, changes included.
    const failed = await importRow(org, 'vehicule');
    await expect(
      withTenant(t.database.db, org, async (tx) => {
        await insertCreated(tx, vehicules, [{ immatriculation: 'AA001AA' }], { importUuid: failed, organizationUuid: org, writtenAt: new Date() });
        throw new Error('échec voulu');
      }),
    ).rejects.toThrow('échec voulu');
    expect(await changesOf(failed)).toEqual([]);
    expect((await countOf(org, 'vehicules'))?.active).toBe(WRITE_CHUNK + 3);
  });

  it('cannot write into another organization (row-level security checks the rows)', async () => {
    const importUuid = await importRow(other, 'driver');
    await expect(
      withTenant(t.database.db, org, (tx) => insertCreated(tx, drivers, [{ firstName: 'Intrus', lastName: 'Dehors' }], { importUuid, organizationUuid: other, writtenAt: new Date() })),
    ).rejects.toThrow();
    expect(await t.seed((tx) => tx.select().from(drivers).where(eq(drivers.organizationUuid, other)))).toEqual([]);
  });
});

describe('updateMany and recordChanges', () => {
  it('sets each row its own columns (nulls included) and updated_at, leaves the others, and records the previous values', async () => {
    const importUuid = await importRow(org, 'vehicule');
    const created = await t.seed((tx) =>
      tx
        .insert(vehicules)
        .values([
          { organizationUuid: org, immatriculation: 'UP001AA', brand: 'Renault', model: 'Clio', exitDate: '2025-01-01' },
          { organizationUuid: org, immatriculation: 'UP002AA', brand: 'Peugeot', model: '208' },
          { organizationUuid: org, immatriculation: 'UP003AA', brand: 'Citroën', model: 'C3' },
        ])
        .returning(),
    );
    const [a, b, c] = created as [(typeof created)[number], (typeof created)[number], (typeof created)[number]];
    const now = new Date('2026-05-06T07:08:09.010Z');
    const progress: number[] = [];
    await withTenant(t.database.db, org, async (tx) => {
      await updateMany(
        tx,
        vehicules,
        [
          { uuid: a.uuid, set: { model: 'Clio V', exitDate: null } },
          { uuid: b.uuid, set: { brand: 'Škoda', model: undefined } },
          { uuid: c.uuid, set: { model: 'C3 Aircross' } },
        ],
        now,
        (n) => progress.push(n),
      );
      await recordChanges(tx, { importUuid, organizationUuid: org, writtenAt: now }, [
        { recordUuid: a.uuid, action: 'updated', before: { model: 'Clio', exitDate: '2025-01-01' } },
        { recordUuid: b.uuid, action: 'exited', before: { exitDate: null } },
      ]);
    });
    const rows = new Map((await t.seed((tx) => tx.select().from(vehicules).where(sql`${vehicules.uuid} in (${a.uuid}, ${b.uuid}, ${c.uuid})`))).map((r) => [r.uuid, r]));
    expect(rows.get(a.uuid)).toMatchObject({ brand: 'Renault', model: 'Clio V', exitDate: null });
    expect(rows.get(b.uuid)).toMatchObject({ brand: 'Škoda', model: '208' });
    expect(rows.get(c.uuid)).toMatchObject({ brand: 'Citroën', model: 'C3 Aircross' });
    for (const r of rows.values()) expect(r.updatedAt.getTime()).toBe(now.getTime());
    // Three shapes of change: three statements, every row counted.
    expect(progress.at(-1)).toBe(3);
    const changes = await changesOf(importUuid);
    expect(changes.map((ch) => ({ record: ch.recordUuid, action: ch.action, before: ch.before, at: ch.writtenAt.getTime() })).sort((x, y) => x.action.localeCompare(y.action))).toEqual([
      { record: b.uuid, action: 'exited', before: { exitDate: null }, at: now.getTime() },
      { record: a.uuid, action: 'updated', before: { model: 'Clio', exitDate: '2025-01-01' }, at: now.getTime() },
    ]);
  });

  it('touches no row of another organization, even given its uuid', async () => {
    const [foreign] = await t.seed((tx) => tx.insert(vehicules).values({ organizationUuid: other, immatriculation: 'XX999XX', brand: 'Dacia' }).returning());
    await withTenant(t.database.db, org, (tx) => updateMany(tx, vehicules, [{ uuid: foreign!.uuid, set: { brand: 'Volé' } }], new Date()));
    const [after] = await t.seed((tx) => tx.select().from(vehicules).where(eq(vehicules.uuid, foreign!.uuid)));
    expect(after!.brand).toBe('Dacia');
  });
});

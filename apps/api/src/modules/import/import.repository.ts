import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { drivers } from '../../db/schema/drivers.js';
import { importChanges, imports } from '../../db/schema/imports.js';
import { sinisters } from '../../db/schema/sinisters.js';
import { users } from '../../db/schema/users.js';
import { vehicules } from '../../db/schema/vehicules.js';

export type ImportRow = typeof imports.$inferSelect;
export type ImportEntityName = ImportRow['entity'];

export const TABLES = { driver: drivers, vehicule: vehicules, sinister: sinisters } as const;

export async function insertImport(tx: WriteTx, values: typeof imports.$inferInsert): Promise<ImportRow> {
  const [row] = await tx.insert(imports).values(values).returning();
  return row!;
}

export async function findImport(tx: ReadTx, uuid: string): Promise<ImportRow | null> {
  const [row] = await tx.select().from(imports).where(eq(imports.uuid, uuid)).limit(1);
  return row ?? null;
}

/** The mapping of the organization's last committed import of this entity, with the headers it pointed into. */
export async function lastMapping(tx: ReadTx, entity: ImportEntityName) {
  const [row] = await tx
    .select({ mapping: imports.mapping, headers: imports.headers })
    .from(imports)
    .where(and(eq(imports.entity, entity), isNotNull(imports.mapping), isNotNull(imports.committedAt)))
    .orderBy(desc(imports.committedAt))
    .limit(1);
  return row?.mapping ? { mapping: row.mapping, headers: row.headers } : null;
}

export async function listImports(tx: ReadTx, limit = 100) {
  return tx
    .select({ row: imports, firstName: users.firstName, lastName: users.lastName })
    .from(imports)
    .leftJoin(users, eq(users.uuid, imports.authorUuid))
    .orderBy(desc(imports.createdAt))
    .limit(limit);
}

export async function authorName(tx: ReadTx, uuid: string | null) {
  if (!uuid) return null;
  const [row] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.uuid, uuid)).limit(1);
  return row ?? null;
}

/** Moves an import from one of `from` to `to`, as one statement (two commits cannot both start). */
export async function transition(tx: WriteTx, uuid: string, from: ImportRow['status'][], values: Partial<typeof imports.$inferInsert>) {
  const rows = await tx.update(imports).set(values).where(and(eq(imports.uuid, uuid), inArray(imports.status, from))).returning();
  return rows[0] ?? null;
}

export async function updateImport(tx: WriteTx, uuid: string, values: Partial<typeof imports.$inferInsert>) {
  await tx.update(imports).set(values).where(eq(imports.uuid, uuid));
}

// ---------------------------------------------------------------- what the registers hold

export function activeDrivers(tx: ReadTx) {
  return tx
    .select({ uuid: drivers.uuid, firstName: drivers.firstName, lastName: drivers.lastName, email: drivers.email, phone: drivers.phone })
    .from(drivers)
    .where(isNull(drivers.archivedAt));
}

export function activeVehicules(tx: ReadTx) {
  return tx
    .select({
      uuid: vehicules.uuid,
      immatriculation: vehicules.immatriculation,
      brand: vehicules.brand,
      model: vehicules.model,
      type: vehicules.type,
      circulationDate: vehicules.circulationDate,
      entryDate: vehicules.entryDate,
      exitDate: vehicules.exitDate,
    })
    .from(vehicules)
    .where(and(isNull(vehicules.archivedAt), isNotNull(vehicules.immatriculation)));
}

export function activeSinisters(tx: ReadTx) {
  return tx
    .select({
      uuid: sinisters.uuid,
      sinisterIntermediateRef: sinisters.sinisterIntermediateRef,
      sinisterDate: sinisters.sinisterDate,
      city: sinisters.city,
      ida: sinisters.ida,
      hasHumanInjury: sinisters.hasHumanInjury,
      damagedVehicule: sinisters.damagedVehicule,
      isThirdImplicated: sinisters.isThirdImplicated,
      isDeclared: sinisters.isDeclared,
      responsibilityRate: sinisters.responsibilityRate,
      status: sinisters.status,
      openedAt: sinisters.openedAt,
      closedAt: sinisters.closedAt,
      paidCents: sinisters.paidCents,
      reserveCents: sinisters.reserveCents,
      description: sinisters.description,
      vehiculeUuid: sinisters.vehiculeUuid,
      driverUuid: sinisters.driverUuid,
      immatriculation: sinisters.immatriculation,
    })
    .from(sinisters)
    .where(and(isNull(sinisters.archivedAt), isNotNull(sinisters.sinisterIntermediateRef)));
}

const CHUNK = 1_000;

/** Inserts rows by chunks (the registers' statement triggers keep their counts and versions); their uuids in order. */
export async function insertMany(tx: WriteTx, table: PgTable, rows: Record<string, unknown>[], onChunk?: (done: number) => void): Promise<string[]> {
  const uuids: string[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const inserted = await tx
      .insert(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .returning({ uuid: (table as unknown as { uuid: typeof drivers.uuid }).uuid });
    uuids.push(...inserted.map((r) => r.uuid));
    onChunk?.(uuids.length);
  }
  return uuids;
}

export async function updateOne(tx: WriteTx, table: PgTable, uuid: string, values: Record<string, unknown>) {
  const key = (table as unknown as { uuid: typeof drivers.uuid }).uuid;
  await tx.update(table).set(values as never).where(eq(key, uuid));
}

export async function recordChanges(tx: WriteTx, rows: (typeof importChanges.$inferInsert)[]) {
  for (let i = 0; i < rows.length; i += CHUNK) await tx.insert(importChanges).values(rows.slice(i, i + CHUNK));
}

export function changesOf(tx: ReadTx, importUuid: string) {
  return tx.select().from(importChanges).where(eq(importChanges.importUuid, importUuid));
}

/** The rows' updated_at and a label to name them, by uuid. */
export async function currentStamps(tx: ReadTx, entity: ImportEntityName, uuids: string[]) {
  const out = new Map<string, { updatedAt: Date; label: string }>();
  for (let i = 0; i < uuids.length; i += CHUNK) {
    const part = uuids.slice(i, i + CHUNK);
    if (entity === 'driver') {
      const rows = await tx.select({ uuid: drivers.uuid, updatedAt: drivers.updatedAt, a: drivers.firstName, b: drivers.lastName }).from(drivers).where(inArray(drivers.uuid, part));
      for (const r of rows) out.set(r.uuid, { updatedAt: r.updatedAt, label: `${r.a} ${r.b}` });
    } else if (entity === 'vehicule') {
      const rows = await tx.select({ uuid: vehicules.uuid, updatedAt: vehicules.updatedAt, a: vehicules.immatriculation }).from(vehicules).where(inArray(vehicules.uuid, part));
      for (const r of rows) out.set(r.uuid, { updatedAt: r.updatedAt, label: r.a ?? '' });
    } else {
      const rows = await tx.select({ uuid: sinisters.uuid, updatedAt: sinisters.updatedAt, a: sinisters.sinisterIntermediateRef }).from(sinisters).where(inArray(sinisters.uuid, part));
      for (const r of rows) out.set(r.uuid, { updatedAt: r.updatedAt, label: r.a ?? '' });
    }
  }
  return out;
}

/** Vehicles or drivers that claims point at (a created one a later claim uses is not removed by a revert). */
export async function referencedByClaims(tx: ReadTx, entity: 'driver' | 'vehicule', uuids: string[]): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const column = entity === 'driver' ? sinisters.driverUuid : sinisters.vehiculeUuid;
  const found = new Set<string>();
  for (let i = 0; i < uuids.length; i += CHUNK) {
    const rows = await tx.selectDistinct({ uuid: column }).from(sinisters).where(inArray(column, uuids.slice(i, i + CHUNK)));
    for (const r of rows) if (r.uuid) found.add(r.uuid);
  }
  return found;
}

export async function deleteMany(tx: WriteTx, entity: ImportEntityName, uuids: string[]) {
  const table = TABLES[entity];
  for (let i = 0; i < uuids.length; i += CHUNK) await tx.delete(table).where(inArray(table.uuid, uuids.slice(i, i + CHUNK)));
}

/** Imports never committed (or failed) and older than `before`, across organizations (the cleanup job). */
export function staleImports(tx: ReadTx, before: Date) {
  return tx
    .select({ uuid: imports.uuid, organizationUuid: imports.organizationUuid, fileKey: imports.fileKey })
    .from(imports)
    .where(and(inArray(imports.status, ['previewed', 'failed']), lt(imports.createdAt, before)))
    .limit(500);
}

export async function deleteImport(tx: WriteTx, uuid: string) {
  await tx.delete(imports).where(eq(imports.uuid, uuid));
}

export { sql };

import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { drivers } from '../../db/schema/drivers.js';
import { importChanges, imports } from '../../db/schema/imports.js';
import { sinisters } from '../../db/schema/sinisters.js';
import { users } from '../../db/schema/users.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { claimColumns } from '../sinisters/sinisters.service.js';

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

/** What an import reads of a vehicle: its plate, what the file may change, its movements' dates. */
const VEHICLE_FIELDS = {
  uuid: vehicules.uuid,
  immatriculation: vehicules.immatriculation,
  brand: vehicules.brand,
  model: vehicules.model,
  type: vehicules.type,
  circulationDate: vehicules.circulationDate,
  entryDate: vehicules.entryDate,
  exitDate: vehicules.exitDate,
};

export function activeVehicules(tx: ReadTx) {
  return tx
    .select(VEHICLE_FIELDS)
    .from(vehicules)
    .where(and(isNull(vehicules.archivedAt), isNotNull(vehicules.immatriculation)));
}

/** Active claims with a reference: the list's claim columns, and the claim's own links (not the joined rows'). */
export function activeSinisters(tx: ReadTx) {
  return tx
    .select({ ...claimColumns, vehiculeUuid: sinisters.vehiculeUuid, driverUuid: sinisters.driverUuid })
    .from(sinisters)
    .where(and(isNull(sinisters.archivedAt), isNotNull(sinisters.sinisterIntermediateRef)));
}

const CHUNK = 1_000;
/** Rows per set-based statement: one JSON parameter of ≈ 1 MB, one run of the statement triggers. */
export const WRITE_CHUNK = 5_000;

type Values = Record<string, unknown>;
type Column = { name: string; getSQLType(): string };

/**
 * A table's writable columns by property name (the keys of the values the service builds), each
 * with its name in the database (the schema names columns by their keys, snake_cased by the client).
 */
function columnsOf(table: PgTable): Record<string, Column> {
  const out: Record<string, Column> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    // A generated column is never written (drizzle's insert leaves it out too).
    if (column.generated) continue;
    const name = column.keyAsName ? toSnakeCase(column.name) : column.name;
    out[key] = { name, getSQLType: () => column.getSQLType() };
  }
  return out;
}

/** A value as JSON gives it to jsonb_to_recordset (a Date as its ISO text). */
const jsonValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/**
 * Rows grouped by the columns they carry (defined values only, unknown keys dropped, in the
 * table's order): each group is one statement that names only its columns, so a column a row
 * leaves undefined keeps its default, as drizzle's insert and update do.
 */
function byColumns(table: PgTable, rows: { values: Values; extra?: Values }[]) {
  const { uuid: _uuid, organizationUuid: _org, createdAt: _created, updatedAt: _updated, ...columns } = columnsOf(table);
  const groups = new Map<string, { keys: string[]; rows: { values: Values; extra?: Values }[] }>();
  for (const row of rows) {
    const keys = Object.keys(columns).filter((k) => row.values[k] !== undefined);
    const signature = keys.join(',');
    let group = groups.get(signature);
    if (!group) groups.set(signature, (group = { keys, rows: [] }));
    group.rows.push(row);
  }
  return [...groups.values()].map((g) => ({
    columns: g.keys.map((k) => columns[k]!),
    size: g.rows.length,
    /** Rows from..to as the statement's JSON (keyed by column name), made one chunk at a time. */
    json: (from: number, to: number) =>
      g.rows.slice(from, to).map((row) => {
        const out: Values = { ...row.extra };
        for (const k of g.keys) out[columns[k]!.name] = jsonValue(row.values[k]);
        return out;
      }),
  }));
}

const ident = (name: string) => sql.identifier(name);
const list = (parts: (SQL | SQL.Aliased | ReturnType<typeof ident>)[]) => sql.join(parts as SQL[], sql`, `);
/** `r("col" type, …)`: the record's shape for jsonb_to_recordset. */
const shape = (columns: Column[], extra: SQL[] = []) => list([...extra, ...columns.map((c) => sql`${ident(c.name)} ${sql.raw(c.getSQLType())}`)]);
const json = (rows: Values[]) => sql`${JSON.stringify(rows)}::jsonb`;

export type ChangeStamp = { importUuid: string; organizationUuid: string; writtenAt: Date };

/**
 * Inserts the rows and records each as 'created' by the import, set-based: per chunk one
 * statement (INSERT … SELECT FROM jsonb_to_recordset, its uuids straight into import_changes), so
 * the registers' statement triggers (counts, versions, rollups) run once per chunk.
 * created_at and updated_at are the stamp's writtenAt (a revert compares it).
 */
export async function insertCreated(tx: WriteTx, table: PgTable, rows: Values[], stamp: ChangeStamp, onChunk?: (done: number) => void) {
  let done = 0;
  const now = sql`${stamp.writtenAt.toISOString()}::timestamptz`;
  const org = sql`${stamp.organizationUuid}::uuid`;
  for (const group of byColumns(table, rows.map((values) => ({ values })))) {
    const names = list(group.columns.map((c) => ident(c.name)));
    const selected = list(group.columns.map((c) => sql`r.${ident(c.name)}`));
    for (let i = 0; i < group.size; i += WRITE_CHUNK) {
      const part = group.json(i, i + WRITE_CHUNK);
      await tx.execute(sql`
        WITH created AS (
          INSERT INTO ${table} (organization_uuid, created_at, updated_at, ${names})
          SELECT ${org}, ${now}, ${now}, ${selected} FROM jsonb_to_recordset(${json(part)}) AS r(${shape(group.columns)})
          RETURNING uuid
        )
        INSERT INTO ${importChanges} (import_uuid, organization_uuid, record_uuid, action, before, written_at)
        SELECT ${stamp.importUuid}::uuid, ${org}, uuid, 'created', NULL, ${now} FROM created`);
      done += part.length;
      onChunk?.(done);
    }
  }
}

/**
 * Sets each row's columns (`set`, by property name) and updated_at, set-based: per group of rows
 * changing the same columns and per chunk, one UPDATE … FROM jsonb_to_recordset.
 */
export async function updateMany(tx: WriteTx, table: PgTable, rows: { uuid: string; set: Values }[], updatedAt: Date, onChunk?: (done: number) => void) {
  let done = 0;
  const now = sql`${updatedAt.toISOString()}::timestamptz`;
  for (const group of byColumns(table, rows.map((r) => ({ values: r.set, extra: { uuid: r.uuid } })))) {
    const assignments = list([...group.columns.map((c) => sql`${ident(c.name)} = r.${ident(c.name)}`), sql`updated_at = ${now}`]);
    for (let i = 0; i < group.size; i += WRITE_CHUNK) {
      const part = group.json(i, i + WRITE_CHUNK);
      await tx.execute(sql`
        UPDATE ${table} AS t SET ${assignments}
        FROM jsonb_to_recordset(${json(part)}) AS r(${shape(group.columns, [sql`uuid uuid`])})
        WHERE t.uuid = r.uuid`);
      done += part.length;
      onChunk?.(done);
    }
  }
}

/** What the import changed ('updated', 'exited': the columns' previous values), set-based by chunks. */
export async function recordChanges(tx: WriteTx, stamp: ChangeStamp, rows: { recordUuid: string; action: 'updated' | 'exited'; before: Values }[]) {
  const now = sql`${stamp.writtenAt.toISOString()}::timestamptz`;
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    const part = rows.slice(i, i + WRITE_CHUNK).map((r) => ({ record_uuid: r.recordUuid, action: r.action, before: r.before }));
    await tx.execute(sql`
      INSERT INTO ${importChanges} (import_uuid, organization_uuid, record_uuid, action, before, written_at)
      SELECT ${stamp.importUuid}::uuid, ${stamp.organizationUuid}::uuid, r.record_uuid, r.action, r.before, ${now}
      FROM jsonb_to_recordset(${json(part)}) AS r(record_uuid uuid, action text, before jsonb)`);
  }
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

/** Vehicles by uuid, as fleet movements read them (a revert tells the intermediary what it undoes). */
export async function vehiculesByUuid(tx: ReadTx, uuids: string[]) {
  const out = new Map<string, Omit<Awaited<ReturnType<typeof activeVehicules>>[number], 'uuid'>>();
  for (let i = 0; i < uuids.length; i += CHUNK) {
    const rows = await tx.select(VEHICLE_FIELDS).from(vehicules).where(inArray(vehicules.uuid, uuids.slice(i, i + CHUNK)));
    for (const { uuid, ...vehicle } of rows) out.set(uuid, vehicle);
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

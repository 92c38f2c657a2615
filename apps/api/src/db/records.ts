import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';
import type { List, ListQuery } from './list-kit.js';
import { readTenant, type ReadTx, type WriteTx } from './scope.js';

/**
 * One record of a register, read and written through its list's declaration (db/list-kit.ts): a
 * record is returned with the list's columns, as the list shows it, so one mapping to the API's
 * JSON serves the page and the record.
 */

/** One record by its key, archived rows and drafts included; null when the organization has none. */
export async function findRecord<Q extends ListQuery, Row, T extends PgTable>(tx: ReadTx, list: List<Q, Row, T>, key: string): Promise<Row | null> {
  const { declaration } = list;
  const select = tx.select(declaration.columns as Record<string, PgColumn>).from(declaration.table).$dynamic();
  const [row] = await (declaration.joins ? declaration.joins(select) : select).where(eq(declaration.key, key)).limit(1);
  return (row as Row | undefined) ?? null;
}

/** findRecord as its own read (one snapshot) for the organization. */
export function readRecord<Q extends ListQuery, Row, T extends PgTable>(db: Database, organizationUuid: string, list: List<Q, Row, T>, key: string) {
  return readTenant(db, organizationUuid, (tx) => findRecord(tx, list, key));
}

/** Inserts one record, then reads it back as the list shows it. */
export async function insertRecord<Q extends ListQuery, Row, T extends PgTable>(tx: WriteTx, list: List<Q, Row, T>, values: T['$inferInsert']): Promise<Row> {
  const { key } = list.declaration;
  const [inserted] = await tx.insert(list.table as PgTable).values(values as never).returning({ key });
  return (await findRecord(tx, list, inserted!.key as string))!;
}

/** Changes one record (and its updatedAt); the record as the list shows it, or null when the organization has none. */
export async function updateRecord<Q extends ListQuery, Row, T extends PgTable>(
  tx: WriteTx,
  list: List<Q, Row, T>,
  key: string,
  values: Partial<T['$inferInsert']>,
): Promise<Row | null> {
  const { key: column } = list.declaration;
  const stamped = 'updatedAt' in list.table ? { ...values, updatedAt: new Date() } : values;
  const rows = await tx.update(list.table as PgTable).set(stamped as never).where(eq(column, key)).returning({ key: column });
  return rows.length > 0 ? findRecord(tx, list, key) : null;
}

/** Deletes one record for good; whether the organization had it. */
export async function deleteRecord<Q extends ListQuery, Row, T extends PgTable>(tx: WriteTx, list: List<Q, Row, T>, key: string): Promise<boolean> {
  const { key: column } = list.declaration;
  const rows = await tx.delete(list.table as PgTable).where(eq(column, key)).returning({ key: column });
  return rows.length > 0;
}

import { desc } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { reports } from '../../db/schema/reports.js';

/** Runs inside a tenant transaction: organization_uuid must be the scoped one (RLS WITH CHECK). */
export async function insertReport(tx: WriteTx, values: typeof reports.$inferInsert) {
  const [row] = await tx.insert(reports).values(values).returning();
  return row!;
}

/** Every report the scope lets through: no WHERE on purpose, row-level security does the filtering. */
export async function listReports(tx: ReadTx) {
  return tx.select().from(reports).orderBy(desc(reports.createdAt));
}

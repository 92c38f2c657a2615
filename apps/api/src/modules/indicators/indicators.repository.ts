import { asc, desc, eq, sql } from 'drizzle-orm';
import { indicators } from '../../db/schema/indicators.js';
import type { ReadTx, WriteTx } from '../../db/scope.js';

export type IndicatorRow = typeof indicators.$inferSelect;

/** The organization's periods, newest first; row-level security keeps them to the scoped organization. */
export function listIndicators(tx: ReadTx) {
  return tx.select().from(indicators).orderBy(desc(indicators.startDate), desc(indicators.endDate));
}

/** The period containing the given day, if any. */
export async function findIndicatorOn(tx: ReadTx, day: string) {
  const [row] = await tx
    .select()
    .from(indicators)
    .where(sql`${indicators.startDate} <= ${day} and ${indicators.endDate} >= ${day}`)
    .orderBy(desc(indicators.startDate))
    .limit(1);
  return row ?? null;
}

/**
 * Serialises the writes of one organization's periods: two concurrent saves could each see no
 * overlap and together create one. The lock ends with the transaction.
 */
export async function lockOrganizationPeriods(tx: WriteTx, organizationUuid: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'indicators:' + organizationUuid}, 0))`);
}

export async function insertIndicator(tx: WriteTx, values: typeof indicators.$inferInsert) {
  const [row] = await tx.insert(indicators).values(values).returning();
  return row!;
}

export async function updateIndicator(tx: WriteTx, uuid: string, values: Partial<typeof indicators.$inferInsert>) {
  const [row] = await tx
    .update(indicators)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(indicators.uuid, uuid))
    .returning();
  return row ?? null;
}

export async function deleteIndicator(tx: WriteTx, uuid: string) {
  const rows = await tx.delete(indicators).where(eq(indicators.uuid, uuid)).returning({ uuid: indicators.uuid });
  return rows.length > 0;
}

/** Links every period to the one before it (by start date): the chain follows the dates. */
export async function rechain(tx: WriteTx) {
  await tx.execute(sql`
    update ${indicators} i set previous_indicator_uuid = p.previous
    from (select uuid, lag(uuid) over (order by start_date, end_date) as previous from ${indicators}) p
    where p.uuid = i.uuid and i.previous_indicator_uuid is distinct from p.previous`);
}

export function listIndicatorsAscending(tx: ReadTx) {
  return tx.select().from(indicators).orderBy(asc(indicators.startDate), asc(indicators.endDate));
}

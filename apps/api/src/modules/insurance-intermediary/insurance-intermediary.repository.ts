import { desc, eq, lte, sql } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { insuranceIntermediaries } from '../../db/schema/insurance.js';
import { organizations } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';

export type IntermediaryRow = typeof insuranceIntermediaries.$inferSelect;

/** Every intermediary the scope lets through, latest start first: row-level security filters. */
export function listIntermediaries(tx: ReadTx) {
  return tx.select().from(insuranceIntermediaries).orderBy(desc(insuranceIntermediaries.startDate), desc(insuranceIntermediaries.createdAt));
}

/**
 * The latest intermediary starting today or before, by the calendar in France: one added this
 * morning (it starts today at noon by default, SPEC 9) is the one to tell from now on.
 */
export async function currentIntermediary(tx: ReadTx, now: Date) {
  const parisDay = (instant: unknown) => sql`(${instant} at time zone 'Europe/Paris')::date`;
  const [row] = await tx
    .select()
    .from(insuranceIntermediaries)
    .where(lte(parisDay(insuranceIntermediaries.startDate), parisDay(sql`${now.toISOString()}::timestamptz`)))
    .orderBy(desc(insuranceIntermediaries.startDate), desc(insuranceIntermediaries.createdAt))
    .limit(1);
  return row ?? null;
}

export async function insertIntermediary(tx: WriteTx, values: typeof insuranceIntermediaries.$inferInsert) {
  const [row] = await tx.insert(insuranceIntermediaries).values(values).returning();
  return row!;
}

/** The scoped organization's title, for the e-mail. */
export async function currentOrganizationTitle(tx: ReadTx) {
  const [row] = await tx.select({ title: organizations.title }).from(organizations).where(eq(organizations.uuid, sql`app_current_org()`)).limit(1);
  return row?.title ?? null;
}

/** The name the e-mail signs with: the member who made the change. */
export async function userName(tx: ReadTx, userUuid: string) {
  const [row] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.uuid, userUuid)).limit(1);
  return row ? [row.firstName, row.lastName].filter(Boolean).join(' ').trim() || null : null;
}

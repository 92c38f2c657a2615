import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { billingCheckouts, billingInvoices, billingPlans, billingSubscriptions } from '../../db/schema/billing.js';
import { environments } from '../../db/schema/environments.js';
import { organizations } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';

export type PlanRow = typeof billingPlans.$inferSelect;
export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type CheckoutRow = typeof billingCheckouts.$inferSelect;

/** Subscription states that give the plan's features (past_due: Stripe is still retrying the payment). */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due'] as const;

export function listPlans(tx: ReadTx) {
  return tx.select().from(billingPlans).orderBy(asc(billingPlans.position), asc(billingPlans.id));
}

export async function findPlan(tx: ReadTx, id: string) {
  const [row] = await tx.select().from(billingPlans).where(eq(billingPlans.id, id)).limit(1);
  return row ?? null;
}

/** The organization and the environment that bills it, if any (directory tables: system scope). */
export async function organizationBilling(tx: ReadTx, organizationUuid: string) {
  const [row] = await tx
    .select({ uuid: organizations.uuid, environmentUuid: organizations.environmentUuid, environmentTitle: environments.title })
    .from(organizations)
    .leftJoin(environments, eq(environments.uuid, organizations.environmentUuid))
    .where(eq(organizations.uuid, organizationUuid))
    .limit(1);
  return row ?? null;
}

/** The scoped organization's current subscription: a live one first, else the latest. */
export async function currentSubscription(tx: ReadTx) {
  const [row] = await tx
    .select()
    .from(billingSubscriptions)
    .orderBy(sql`(${billingSubscriptions.status} in ('active', 'trialing', 'past_due')) desc`, desc(billingSubscriptions.updatedAt))
    .limit(1);
  return row ?? null;
}

/** The scoped organization's current subscription (as currentSubscription) and its plan, in one read. */
export async function currentSubscriptionWithPlan(tx: ReadTx) {
  const [row] = await tx
    .select({ subscription: billingSubscriptions, plan: billingPlans })
    .from(billingSubscriptions)
    .leftJoin(billingPlans, eq(billingPlans.id, billingSubscriptions.planId))
    .orderBy(sql`(${billingSubscriptions.status} in ('active', 'trialing', 'past_due')) desc`, desc(billingSubscriptions.updatedAt))
    .limit(1);
  return row ?? null;
}

export async function insertCheckout(tx: WriteTx, values: typeof billingCheckouts.$inferInsert) {
  const [row] = await tx.insert(billingCheckouts).values(values).returning();
  return row!;
}

export async function findCheckout(tx: ReadTx, sessionId: string) {
  const [row] = await tx.select().from(billingCheckouts).where(eq(billingCheckouts.sessionId, sessionId)).limit(1);
  return row ?? null;
}

export function listInvoices(tx: ReadTx) {
  return tx.select().from(billingInvoices).where(inArray(billingInvoices.status, ['open', 'paid', 'void', 'uncollectible'])).orderBy(desc(billingInvoices.issuedAt), desc(billingInvoices.invoiceId));
}

export async function userEmail(tx: ReadTx, userUuid: string) {
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.uuid, userUuid)).limit(1);
  return row?.email ?? null;
}

/** The fleet a subscription is billed for: vehicles with a plate, not archived, not gone. */
export const ACTIVE_VEHICLES = sql`archived_at is null and immatriculation is not null and (exit_date is null or exit_date > (now() at time zone 'Europe/Paris')::date)`;

export async function activeVehicleCount(tx: ReadTx): Promise<number> {
  const result = (await tx.execute(sql`select count(*)::int as n from vehicules where ${ACTIVE_VEHICLES}`)) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

export async function findInvoice(tx: ReadTx, uuid: string) {
  const [row] = await tx.select().from(billingInvoices).where(eq(billingInvoices.uuid, uuid)).limit(1);
  return row ?? null;
}

export async function organizationTitle(tx: ReadTx, uuid: string) {
  const [row] = await tx.select({ title: organizations.title }).from(organizations).where(eq(organizations.uuid, uuid)).limit(1);
  return row?.title ?? null;
}

/** System scope: the plan's name of a subscription. */
export async function subscriptionPlanName(tx: ReadTx, subscriptionId: string) {
  const [row] = await tx
    .select({ name: billingPlans.name })
    .from(billingSubscriptions)
    .innerJoin(billingPlans, eq(billingPlans.id, billingSubscriptions.planId))
    .where(eq(billingSubscriptions.subscriptionId, subscriptionId))
    .limit(1);
  return row?.name ?? null;
}

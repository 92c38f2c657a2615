import { ttcCents } from '@flotte/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { withSystem, type WriteTx } from '../../db/scope.js';
import { billingCheckouts, billingEvents, billingInvoices, billingPlans, billingSubscriptions } from '../../db/schema/billing.js';
import { organizations } from '../../db/schema/organizations.js';

/**
 * The only code that changes an organization's subscription, invoices and checkouts (decision
 * 044): it applies one provider event, Stripe-shaped whichever provider sent it (the embedded
 * provider builds the same objects). Each event id is applied once (billing_events); an event
 * older than the state it would change is recorded and ignored, so events arriving out of order
 * end in the state of the latest one.
 */
export type BillingEvent = { id: string; type: string; created: number; data: { object: unknown } };
export type ApplyResult = 'applied' | 'duplicate' | 'stale' | 'ignored';

const metadata = z.record(z.string(), z.string()).nullish();
const stamp = z.number().int().nullish();

const SubscriptionObject = z.object({
  id: z.string().min(1),
  customer: z.string().nullish(),
  status: z.enum(['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused']),
  metadata,
  cancel_at: stamp,
  items: z.object({
    data: z.array(
      z.object({
        id: z.string(),
        quantity: z.number().int().nullish(),
        current_period_start: stamp,
        current_period_end: stamp,
        price: z.object({ recurring: z.object({ interval: z.string() }).nullish() }).nullish(),
      }),
    ),
  }),
});

const InvoiceObject = z.object({
  id: z.string().min(1),
  customer: z.string().nullish(),
  number: z.string().nullish(),
  status: z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']).nullish(),
  currency: z.string().nullish(),
  total: z.number().int(),
  total_excluding_tax: z.number().int().nullish(),
  created: z.number().int(),
  period_start: stamp,
  period_end: stamp,
  invoice_pdf: z.string().nullish(),
  metadata,
  lines: z.object({ data: z.array(z.object({ period: z.object({ start: z.number().int(), end: z.number().int() }).nullish() })) }).nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: z.string().nullish(), metadata }).nullish() }).nullish(),
});

const CheckoutObject = z.object({ id: z.string().min(1), status: z.enum(['open', 'complete', 'expired']).nullish() });

/** Subscription states by how far they are: on two events of the same second, the further one wins. */
const SUBSCRIPTION_RANK: Record<string, number> = { incomplete: 0, trialing: 1, active: 2, paused: 3, past_due: 3, unpaid: 4, incomplete_expired: 5, canceled: 5 };
/** Invoice states only move forward (Stripe's own lifecycle): an older state never comes back. */
const INVOICE_RANK: Record<string, number> = { draft: 0, open: 1, uncollectible: 2, paid: 3, void: 3 };

const date = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? null : new Date(seconds * 1000));

export type ApplyOptions = { provider: 'stripe' | 'embedded'; logger?: { warn(obj: object, msg?: string): void } };

/** Applies one verified event in its own system transaction. */
export function applyBillingEvent(db: Database, event: BillingEvent, options: ApplyOptions): Promise<ApplyResult> {
  return withSystem(db, (tx) => applyBillingEventIn(tx, event, options));
}

export async function applyBillingEventIn(tx: WriteTx, event: BillingEvent, options: ApplyOptions): Promise<ApplyResult> {
  // The event's id first: a second delivery waits here for the first one's commit, then finds it.
  const [recorded] = await tx.insert(billingEvents).values({ eventId: event.id, type: event.type }).onConflictDoNothing().returning({ id: billingEvents.eventId });
  if (!recorded) return 'duplicate';
  let result: { result: ApplyResult; organizationUuid?: string | null };
  if (event.type.startsWith('customer.subscription.')) result = await applySubscription(tx, event, options);
  else if (event.type.startsWith('invoice.')) result = await applyInvoice(tx, event, options);
  else if (event.type.startsWith('checkout.session.')) result = await applyCheckout(tx, event);
  else result = { result: 'ignored' };
  if (result.organizationUuid) await tx.update(billingEvents).set({ organizationUuid: result.organizationUuid }).where(eq(billingEvents.eventId, event.id));
  return result.result;
}

/** The organization's uuid if it exists (an event may name one deleted since, or none). */
async function knownOrganization(tx: WriteTx, uuid: string | null | undefined): Promise<string | null> {
  if (!uuid || !z.uuid().safeParse(uuid).success) return null;
  const [row] = await tx.select({ uuid: organizations.uuid }).from(organizations).where(eq(organizations.uuid, uuid)).limit(1);
  return row?.uuid ?? null;
}

async function applySubscription(tx: WriteTx, event: BillingEvent, { provider, logger }: ApplyOptions) {
  const parsed = SubscriptionObject.safeParse(event.data.object);
  if (!parsed.success) {
    logger?.warn({ eventId: event.id, type: event.type }, 'facturation : abonnement illisible, événement ignoré');
    return { result: 'ignored' as const };
  }
  const object = parsed.data;
  const [existing] = await tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.subscriptionId, object.id)).for('update').limit(1);
  const status = event.type === 'customer.subscription.deleted' ? 'canceled' : object.status;
  if (existing) {
    const older = event.created < existing.eventAt;
    const sameSecondBehind = event.created === existing.eventAt && (SUBSCRIPTION_RANK[status] ?? 0) < (SUBSCRIPTION_RANK[existing.status] ?? 0);
    if (older || sameSecondBehind || existing.status === 'canceled') return { result: 'stale' as const, organizationUuid: existing.organizationUuid };
  }
  const organizationUuid = await knownOrganization(tx, existing?.organizationUuid ?? object.metadata?.organizationUuid);
  if (!organizationUuid) {
    logger?.warn({ eventId: event.id }, 'facturation : abonnement sans organisation connue, ignoré');
    return { result: 'ignored' as const };
  }
  const planId = object.metadata?.planId ?? existing?.planId;
  const [plan] = planId ? await tx.select({ id: billingPlans.id }).from(billingPlans).where(eq(billingPlans.id, planId)).limit(1) : [];
  if (!plan) {
    logger?.warn({ eventId: event.id, planId }, 'facturation : offre inconnue, abonnement ignoré');
    return { result: 'ignored' as const };
  }
  const item = object.items.data[0];
  const interval = item?.price?.recurring?.interval === 'year' || object.metadata?.interval === 'year' ? 'year' : 'month';
  const values = {
    organizationUuid,
    provider,
    subscriptionId: object.id,
    customerId: object.customer ?? existing?.customerId ?? null,
    itemId: item?.id ?? existing?.itemId ?? null,
    planId: plan.id,
    interval,
    status,
    quantity: item?.quantity ?? existing?.quantity ?? 1,
    currentPeriodStart: date(item?.current_period_start),
    currentPeriodEnd: date(item?.current_period_end),
    cancelAt: date(object.cancel_at),
    eventAt: event.created,
    updatedAt: new Date(),
  };
  if (existing) await tx.update(billingSubscriptions).set(values).where(eq(billingSubscriptions.uuid, existing.uuid));
  else await tx.insert(billingSubscriptions).values(values);
  return { result: 'applied' as const, organizationUuid };
}

async function applyInvoice(tx: WriteTx, event: BillingEvent, { provider, logger }: ApplyOptions) {
  const parsed = InvoiceObject.safeParse(event.data.object);
  if (!parsed.success) {
    logger?.warn({ eventId: event.id, type: event.type }, 'facturation : facture illisible, événement ignoré');
    return { result: 'ignored' as const };
  }
  const object = parsed.data;
  const status = object.status ?? (event.type === 'invoice.paid' ? 'paid' : 'open');
  const [existing] = await tx.select().from(billingInvoices).where(eq(billingInvoices.invoiceId, object.id)).for('update').limit(1);
  if (existing) {
    const rank = INVOICE_RANK[status] ?? 0;
    const held = INVOICE_RANK[existing.status] ?? 0;
    if (rank < held || (rank === held && event.created < existing.eventAt)) return { result: 'stale' as const, organizationUuid: existing.organizationUuid };
  }
  const subscriptionId = object.parent?.subscription_details?.subscription ?? existing?.subscriptionId ?? null;
  let candidate = existing?.organizationUuid ?? object.parent?.subscription_details?.metadata?.organizationUuid ?? object.metadata?.organizationUuid ?? null;
  if (!candidate && (subscriptionId || object.customer)) {
    const [known] = await tx
      .select({ organizationUuid: billingSubscriptions.organizationUuid })
      .from(billingSubscriptions)
      .where(subscriptionId ? eq(billingSubscriptions.subscriptionId, subscriptionId) : eq(billingSubscriptions.customerId, object.customer!))
      .limit(1);
    candidate = known?.organizationUuid ?? null;
  }
  const organizationUuid = await knownOrganization(tx, candidate);
  if (!organizationUuid) {
    logger?.warn({ eventId: event.id }, 'facturation : facture sans organisation connue, ignorée');
    return { result: 'ignored' as const };
  }
  const ht = object.total_excluding_tax ?? object.total;
  const line = object.lines?.data.find((l) => l.period)?.period;
  const values = {
    organizationUuid,
    provider,
    invoiceId: object.id,
    subscriptionId,
    number: object.number ?? null,
    status,
    amountHtCents: ht,
    // Stripe with French VAT configured gives the total with tax; without it, 20 % is added here.
    amountTtcCents: object.total > ht ? object.total : ttcCents(ht),
    currency: object.currency ?? 'eur',
    periodStart: date(line?.start ?? object.period_start),
    periodEnd: date(line?.end ?? object.period_end),
    issuedAt: date(object.created)!,
    pdfUrl: object.invoice_pdf ?? existing?.pdfUrl ?? null,
    eventAt: event.created,
  };
  if (existing) await tx.update(billingInvoices).set(values).where(eq(billingInvoices.uuid, existing.uuid));
  else await tx.insert(billingInvoices).values(values);
  return { result: 'applied' as const, organizationUuid };
}

async function applyCheckout(tx: WriteTx, event: BillingEvent) {
  const parsed = CheckoutObject.safeParse(event.data.object);
  if (!parsed.success) return { result: 'ignored' as const };
  const status = event.type === 'checkout.session.expired' ? 'expired' : event.type === 'checkout.session.completed' ? 'complete' : parsed.data.status;
  if (status !== 'complete' && status !== 'expired') return { result: 'ignored' as const };
  // open → complete or expired, once: a late event never reopens nor flips a finished checkout.
  const [row] = await tx
    .update(billingCheckouts)
    .set({ status })
    .where(sql`${billingCheckouts.sessionId} = ${parsed.data.id} and ${billingCheckouts.status} = 'open'`)
    .returning({ organizationUuid: billingCheckouts.organizationUuid });
  return row ? { result: 'applied' as const, organizationUuid: row.organizationUuid } : { result: 'stale' as const };
}

import { randomBytes } from 'node:crypto';
import { ttcCents } from '@flotte/contract';
import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { readSystem, withSystem, type WriteTx } from '../../db/scope.js';
import { billingCheckouts, billingPlans, billingSubscriptions } from '../../db/schema/billing.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { type BillingProvider, WebhookSignatureError } from './billing.js';
import { applyBillingEventIn, type BillingEvent } from './events.js';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The end of a period starting at `start`: one calendar month or year later. */
export function periodEnd(start: Date, interval: 'month' | 'year'): Date {
  const end = new Date(start);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

export interface EmbeddedBilling extends BillingProvider {
  readonly kind: 'embedded';
  /** The embedded checkout page's payment: the events Stripe would send, applied through events.ts. */
  pay(sessionId: string, organizationUuid: string, now?: Date): Promise<void>;
}

/**
 * The provider without Stripe (decision 044): checkouts, subscriptions and invoices stay in the
 * database; the checkout page is the app's own (/parameters/plans/checkout?session=…), and paying
 * there produces the events Stripe would send for a paid subscription — checkout completed,
 * subscription created, invoice paid — applied by the same code as Stripe's webhooks. No money
 * moves: it is the offline and demo provider.
 */
export function createEmbeddedBilling(db: Database): EmbeddedBilling {
  const apply = (tx: WriteTx, event: BillingEvent) => applyBillingEventIn(tx, event, { provider: 'embedded' });
  return {
    kind: 'embedded',

    async createCheckout() {
      const sessionId = id('emb_cs');
      return { sessionId, url: `/parameters/plans/checkout?session=${sessionId}` };
    },

    async readCheckout(sessionId) {
      const [row] = await readSystem(db, (tx) => tx.select({ status: billingCheckouts.status }).from(billingCheckouts).where(eq(billingCheckouts.sessionId, sessionId)).limit(1));
      if (!row) throw new NotFoundError('Paiement introuvable');
      const status = row.status as 'open' | 'complete' | 'expired';
      return { status, paid: status === 'complete' };
    },

    async updateQuantity(subscription, quantity) {
      await withSystem(db, async (tx) => {
        const [row] = await tx.select().from(billingSubscriptions).where(eq(billingSubscriptions.subscriptionId, subscription.subscriptionId)).limit(1);
        if (!row) return;
        const now = new Date();
        await apply(tx, {
          id: id('emb_evt'),
          type: 'customer.subscription.updated',
          created: Math.max(seconds(now), row.eventAt),
          data: { object: subscriptionObject(row.subscriptionId, row.customerId, row.itemId, row.status, row.organizationUuid, row.planId, row.interval as 'month' | 'year', quantity, row.currentPeriodStart ?? now) },
        });
      });
    },

    verifyWebhook() {
      throw new WebhookSignatureError('Aucun fournisseur de paiement externe configuré');
    },

    async pay(sessionId, organizationUuid, now = new Date()) {
      await withSystem(db, async (tx) => {
        const [checkout] = await tx
          .select()
          .from(billingCheckouts)
          .where(and(eq(billingCheckouts.sessionId, sessionId), eq(billingCheckouts.organizationUuid, organizationUuid), eq(billingCheckouts.provider, 'embedded')))
          .for('update')
          .limit(1);
        if (!checkout) throw new NotFoundError('Paiement introuvable');
        if (checkout.status !== 'open') throw new ConflictError(checkout.status === 'complete' ? 'Ce paiement a déjà été effectué' : 'Ce paiement a expiré : choisissez à nouveau une offre');
        const [plan] = await tx.select().from(billingPlans).where(eq(billingPlans.id, checkout.planId)).limit(1);
        const interval = checkout.interval as 'month' | 'year';
        const unit = interval === 'year' ? plan!.yearlyMonthlyCents * 12 : plan!.monthlyCents;
        const created = seconds(now);
        const customerId = `emb_cus_${organizationUuid.replaceAll('-', '')}`;
        // A new plan replaces the one the organization had.
        const previous = await tx
          .select()
          .from(billingSubscriptions)
          .where(and(eq(billingSubscriptions.organizationUuid, organizationUuid), eq(billingSubscriptions.provider, 'embedded'), ne(billingSubscriptions.status, 'canceled')));
        for (const old of previous) {
          await apply(tx, {
            id: id('emb_evt'),
            type: 'customer.subscription.deleted',
            created: Math.max(created, old.eventAt),
            data: { object: subscriptionObject(old.subscriptionId, old.customerId, old.itemId, 'canceled', organizationUuid, old.planId, old.interval as 'month' | 'year', old.quantity, old.currentPeriodStart ?? now) },
          });
        }
        const subscriptionId = id('emb_sub');
        const subscription = subscriptionObject(subscriptionId, customerId, id('emb_si'), 'active', organizationUuid, checkout.planId, interval, checkout.quantity, now);
        const ht = unit * checkout.quantity;
        const year = now.getUTCFullYear();
        const invoice = {
          id: id('emb_in'),
          customer: customerId,
          number: `FA-${year}-${randomBytes(3).toString('hex').toUpperCase()}`,
          status: 'paid',
          currency: 'eur',
          total_excluding_tax: ht,
          total: ttcCents(ht),
          created,
          invoice_pdf: null,
          lines: { data: [{ period: { start: created, end: seconds(periodEnd(now, interval)) } }] },
          parent: { subscription_details: { subscription: subscriptionId, metadata: subscription.metadata } },
        };
        await apply(tx, { id: id('emb_evt'), type: 'checkout.session.completed', created, data: { object: { id: sessionId, status: 'complete' } } });
        await apply(tx, { id: id('emb_evt'), type: 'customer.subscription.created', created, data: { object: subscription } });
        await apply(tx, { id: id('emb_evt'), type: 'invoice.paid', created, data: { object: invoice } });
      });
    },
  };
}

function subscriptionObject(
  subscriptionId: string,
  customerId: string | null,
  itemId: string | null,
  status: string,
  organizationUuid: string,
  planId: string,
  interval: 'month' | 'year',
  quantity: number,
  start: Date,
) {
  return {
    id: subscriptionId,
    customer: customerId,
    status,
    metadata: { organizationUuid, planId, interval },
    items: { data: [{ id: itemId ?? id('emb_si'), quantity, current_period_start: seconds(start), current_period_end: seconds(periodEnd(start, interval)), price: { recurring: { interval } } }] },
  };
}

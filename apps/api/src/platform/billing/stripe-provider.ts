import Stripe from 'stripe';
import type { BillingConfig } from '../../config.js';
import { type BillingProvider, WebhookSignatureError } from './billing.js';
import type { BillingEvent } from './events.js';

/** How long a webhook's signature is accepted after it was made (Stripe's own default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

type StripeConfig = Extract<BillingConfig, { kind: 'stripe' }>;

/**
 * Stripe through its official package. The plans stay in our catalogue: a checkout sends the
 * price inline (price_data), so no product needs creating at Stripe first. The organization, the
 * plan and the interval travel in the subscription's metadata, which every later event carries.
 */
export function createStripeBilling(config: StripeConfig): BillingProvider {
  const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api ? { host: api.hostname, port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)), protocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
  });
  return {
    kind: 'stripe',

    async createCheckout(request) {
      const metadata = { organizationUuid: request.organizationUuid, planId: request.plan.id, interval: request.interval };
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        locale: 'fr',
        client_reference_id: request.organizationUuid,
        ...(request.customerId ? { customer: request.customerId } : request.customerEmail ? { customer_email: request.customerEmail } : {}),
        line_items: [
          {
            quantity: request.quantity,
            price_data: {
              currency: 'eur',
              unit_amount: request.unitAmountCents,
              tax_behavior: 'exclusive',
              recurring: { interval: request.interval },
              product_data: { name: `FlotteAssur ${request.plan.name}`, description: request.plan.description, metadata: { planId: request.plan.id } },
            },
          },
        ],
        metadata,
        subscription_data: { metadata },
        success_url: `${request.successUrl}${request.successUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: request.cancelUrl,
      }, request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : undefined);
      if (!session.url) throw new Error('Stripe: session de paiement sans adresse');
      return { sessionId: session.id, url: session.url };
    },

    async readCheckout(sessionId) {
      const session = await stripe.checkout.sessions.retrieve(sessionId);
      const status: 'open' | 'complete' | 'expired' = session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open';
      return { status, paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required' };
    },

    async updateQuantity(subscription, quantity) {
      if (subscription.itemId) {
        await stripe.subscriptionItems.update(subscription.itemId, { quantity, proration_behavior: 'create_prorations' });
        return;
      }
      const current = await stripe.subscriptions.retrieve(subscription.subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error('Stripe: abonnement sans ligne');
      await stripe.subscriptionItems.update(item.id, { quantity, proration_behavior: 'create_prorations' });
    },

    verifyWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('Signature Stripe absente');
      try {
        const event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
        return event as unknown as BillingEvent;
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'Signature Stripe invalide');
      }
    },
  };
}

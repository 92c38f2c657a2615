import type { BillingConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import { createEmbeddedBilling } from './embedded-provider.js';
import type { BillingEvent } from './events.js';
import { createStripeBilling } from './stripe-provider.js';

/**
 * How the application takes payment (decision 044): one interface, two providers — Stripe through
 * its official package when STRIPE_SECRET_KEY is set, otherwise an embedded provider that keeps
 * everything in the database and completes the checkout on a page of the app. Neither changes a
 * subscription or an invoice itself: Stripe sends signed events to POST /api/stripe/webhook, the
 * embedded provider builds the same events; both go through events.ts.
 */
export interface BillingProvider {
  readonly kind: 'stripe' | 'embedded';
  /** Starts a checkout: the provider's session id and the page where the customer pays. */
  createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /** What the provider says of a checkout now (the confirmation page's reading). */
  readCheckout(sessionId: string): Promise<{ status: 'open' | 'complete' | 'expired'; paid: boolean }>;
  /** Reports a new quantity (the fleet's active vehicles); the subscription row changes when its event comes back. */
  updateQuantity(subscription: { subscriptionId: string; itemId: string | null }, quantity: number): Promise<void>;
  /** A webhook's event if its signature holds (within 300 s); throws WebhookSignatureError otherwise. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): BillingEvent;
}

export type CheckoutRequest = {
  organizationUuid: string;
  customerEmail: string | null;
  /** The customer the organization already has at the provider, if any. */
  customerId: string | null;
  plan: { id: string; name: string; description: string };
  interval: 'month' | 'year';
  /** Cents HT per vehicle for one period (a month, or a year). */
  unitAmountCents: number;
  quantity: number;
  /** Absolute URLs of the app: where the provider sends the customer back. */
  successUrl: string;
  cancelUrl: string;
  /**
   * The caller's Idempotency-Key, made its own to the organization and user (decision 050): the
   * provider creates one session for it, even when our row of the first was lost to a crash.
   */
  idempotencyKey: string | null;
};

export class WebhookSignatureError extends Error {}

export function createBilling(config: BillingConfig, db: Database): BillingProvider {
  return config.kind === 'stripe' ? createStripeBilling(config) : createEmbeddedBilling(db);
}

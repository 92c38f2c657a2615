import { formatEuros } from './format.js';
import { requiredText } from './primitives.js';
import { z } from './zod.js';

/**
 * Billing (issue 17, decision 044): plans priced per vehicle per month (HT), a yearly option, the
 * menu features each plan unlocks; an organization outside any environment subscribes itself, an
 * organization inside one is billed through its environment (its broker).
 */

/** French VAT applied to every invoice (TTC = HT × 1,20). */
export const VAT_RATE = 0.2;

/** The menu features a plan unlocks: the sidebar's entries locked 'À venir' without them. */
export const BILLING_FEATURES = ['documents', 'alerts'] as const;
export type BillingFeature = (typeof BILLING_FEATURES)[number];
export const BILLING_FEATURE_LABELS: Record<BillingFeature, string> = {
  documents: 'Gestion documentaire',
  alerts: 'Alertes prévention',
};
/** Every feature: what an organization billed through its environment has. */
export const ALL_BILLING_FEATURES: readonly BillingFeature[] = BILLING_FEATURES;

export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export const PlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Euros HT per vehicle per month, paid monthly. */
  monthlyPrice: z.number(),
  /** Euros HT per vehicle per month, paid by the year. */
  yearlyMonthlyPrice: z.number(),
  features: z.array(z.enum(BILLING_FEATURES)),
});
export type Plan = z.infer<typeof PlanSchema>;
export const PlanListSchema = z.array(PlanSchema);

export const SUBSCRIPTION_STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  incomplete: 'Paiement en attente',
  incomplete_expired: 'Paiement expiré',
  trialing: 'Essai',
  active: 'Actif',
  past_due: 'Paiement en retard',
  unpaid: 'Impayé',
  canceled: 'Résilié',
  paused: 'Suspendu',
};

export const PlanSubscriptionSchema = z.object({
  planId: z.string(),
  interval: z.enum(BILLING_INTERVALS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  quantity: z.number().int(),
  currentPeriodEnd: z.iso.datetime({ offset: true }).nullable(),
});
export type PlanSubscription = z.infer<typeof PlanSubscriptionSchema>;

/**
 * GET /api/stripe/current-plan: the plan the current organization has. `source` says who pays:
 * the organization itself, its environment (then every feature), or nobody yet (no plan).
 */
export const CurrentPlanSchema = z.object({
  source: z.enum(['organization', 'environment', 'none']),
  plan: PlanSchema.nullable(),
  subscription: PlanSubscriptionSchema.nullable(),
  features: z.array(z.enum(BILLING_FEATURES)),
  /** Whether the caller may choose and pay a plan (an ADMIN of an organization outside any environment). */
  canPay: z.boolean(),
  provider: z.enum(['stripe', 'embedded']),
});
export type CurrentPlan = z.infer<typeof CurrentPlanSchema>;

/** GET /api/stripe/environment/current-plan: the environment that bills the organization, or null. */
export const EnvironmentPlanSchema = z
  .object({
    environment: z.object({ uuid: z.uuid(), title: z.string() }),
    features: z.array(z.enum(BILLING_FEATURES)),
  })
  .nullable();
export type EnvironmentPlan = z.infer<typeof EnvironmentPlanSchema>;

export const PlanIdParamsSchema = z.strictObject({
  id: z.string().trim().min(1, { error: 'Offre inconnue' }).max(60, { error: 'Offre inconnue' }).regex(/^[a-z0-9_-]+$/, { error: 'Offre inconnue' }),
});

export const CheckoutBodySchema = z.strictObject({
  planId: requiredText(60, 'L’offre'),
  interval: z.enum(BILLING_INTERVALS, { error: 'Choisissez un paiement mensuel ou annuel' }),
});
export type CheckoutBody = z.infer<typeof CheckoutBodySchema>;

export const CHECKOUT_STATUSES = ['open', 'complete', 'expired'] as const;
export const CheckoutSchema = z.object({
  sessionId: z.string(),
  /** Where to pay: the provider's hosted page, or the app's embedded checkout page. */
  url: z.string(),
  provider: z.enum(['stripe', 'embedded']),
  status: z.enum(CHECKOUT_STATUSES),
  /** Whether the provider reports the payment made (Stripe's payment_status 'paid'). */
  paid: z.boolean(),
  plan: PlanSchema,
  interval: z.enum(BILLING_INTERVALS),
  quantity: z.number().int(),
  /** Euros HT for one period (month or year) of the quantity. */
  amountHt: z.number(),
  amountTtc: z.number(),
});
export type Checkout = z.infer<typeof CheckoutSchema>;

export const CheckoutParamsSchema = z.strictObject({
  sessionId: z.string().trim().min(1, { error: 'Paiement introuvable' }).max(255, { error: 'Paiement introuvable' }).regex(/^[A-Za-z0-9_-]+$/, { error: 'Paiement introuvable' }),
});

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Brouillon',
  open: 'À payer',
  paid: 'Payée',
  void: 'Annulée',
  uncollectible: 'Irrécouvrable',
};

export const InvoiceSchema = z.object({
  uuid: z.uuid(),
  number: z.string().nullable(),
  status: z.enum(INVOICE_STATUSES),
  issuedAt: z.iso.datetime({ offset: true }),
  periodStart: z.iso.datetime({ offset: true }).nullable(),
  periodEnd: z.iso.datetime({ offset: true }).nullable(),
  amountHt: z.number(),
  amountTtc: z.number(),
  pdfUrl: z.string().nullable(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;
export const InvoiceListSchema = z.array(InvoiceSchema);

/** TTC in cents from HT in cents, VAT at 20 %, rounded once to the cent. */
export function ttcCents(htCents: number): number {
  return Math.round(htCents * (1 + VAT_RATE));
}

/** `12,00 € HT / véhicule / mois`. */
export function formatPlanPrice(euros: number): string {
  return `${formatEuros(euros)} HT / véhicule / mois`;
}

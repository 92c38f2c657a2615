import {
  ALL_BILLING_FEATURES,
  type BillingFeature,
  type Checkout,
  type CheckoutBody,
  type CurrentPlan,
  type EnvironmentPlan,
  type Invoice,
  type Plan,
  type SubscriptionStatus,
  ttcCents,
} from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { readSystem, readTenant, withTenant } from '../../db/scope.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, requireOrganization } from '../../lib/auth-context.js';
import type { BillingProvider } from '../../platform/billing/billing.js';
import type { EmbeddedBilling } from '../../platform/billing/embedded-provider.js';
import { applyBillingEvent, type ApplyResult } from '../../platform/billing/events.js';
import * as repo from './billing.repository.js';
import { invoicePdf } from './invoice.pdf.js';

const euros = (cents: number) => cents / 100;
const iso = (date: Date | null) => (date ? date.toISOString() : null);

function toPlan(row: repo.PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    monthlyPrice: euros(row.monthlyCents),
    yearlyMonthlyPrice: euros(row.yearlyMonthlyCents),
    features: row.features as BillingFeature[],
  };
}

/** Only the organization's own administrator pays (not a superadmin nor ROOT acting in it). */
const isMemberAdmin = (ctx: AuthContext) => ctx.roles.includes('ADMIN');

function requirePayer(ctx: AuthContext): string {
  const organizationUuid = requireOrganization(ctx);
  if (!isMemberAdmin(ctx)) throw new ForbiddenError("Seul un administrateur de l'organisation peut gérer son abonnement");
  return organizationUuid;
}

export async function listPlans(db: Database): Promise<Plan[]> {
  return readSystem(db, async (tx) => (await repo.listPlans(tx)).map(toPlan));
}

export async function getPlan(db: Database, id: string): Promise<Plan> {
  const row = await readSystem(db, (tx) => repo.findPlan(tx, id));
  if (!row) throw new NotFoundError('Offre introuvable');
  return toPlan(row);
}

async function billingOf(db: Database, organizationUuid: string) {
  const organization = await readSystem(db, (tx) => repo.organizationBilling(tx, organizationUuid));
  if (!organization) throw new NotFoundError('Organisation introuvable');
  return organization;
}

/**
 * What an organization's plan is made of (decision 044), the one place its rule is read: inside an
 * environment, every feature (its broker pays); outside, its current subscription and, when that
 * subscription is live, its plan and the plan's features — none otherwise. Two reads: the
 * organization (directory, system scope) and the subscription with its plan (its own scope).
 */
async function organizationPlan(db: Database, organizationUuid: string) {
  const organization = await readSystem(db, (tx) => repo.organizationBilling(tx, organizationUuid));
  if (!organization) return null;
  if (organization.environmentUuid) return { inEnvironment: true as const, subscription: null, plan: null, features: [...ALL_BILLING_FEATURES] };
  const current = await readTenant(db, organizationUuid, (tx) => repo.currentSubscriptionWithPlan(tx));
  const live = current !== null && (repo.LIVE_STATUSES as readonly string[]).includes(current.subscription.status);
  const plan = live ? current.plan : null;
  return { inEnvironment: false as const, subscription: current?.subscription ?? null, plan, features: plan ? (plan.features as BillingFeature[]) : [] };
}

/**
 * The plan of the current organization (SPEC section 4): inside an environment, every feature
 * (its broker pays, GET /api/stripe/environment/current-plan); outside, its own subscription's plan.
 */
export async function currentPlan(db: Database, billing: BillingProvider, ctx: AuthContext): Promise<CurrentPlan> {
  const state = await organizationPlan(db, requireOrganization(ctx));
  if (!state) throw new NotFoundError('Organisation introuvable');
  if (state.inEnvironment) {
    return { source: 'environment', plan: null, subscription: null, features: state.features, canPay: false, provider: billing.kind };
  }
  const { subscription, plan } = state;
  return {
    source: plan ? 'organization' : 'none',
    plan: plan ? toPlan(plan) : null,
    subscription: subscription
      ? {
          planId: subscription.planId,
          interval: subscription.interval as 'month' | 'year',
          status: subscription.status as SubscriptionStatus,
          quantity: subscription.quantity,
          currentPeriodEnd: iso(subscription.currentPeriodEnd),
        }
      : null,
    features: state.features,
    canPay: isMemberAdmin(ctx),
    provider: billing.kind,
  };
}

/** The features an organization has (the feature gate, feature-gate.ts): see organizationPlan. */
export async function organizationFeatures(db: Database, organizationUuid: string): Promise<readonly BillingFeature[]> {
  const state = await organizationPlan(db, organizationUuid);
  return state ? state.features : ALL_BILLING_FEATURES;
}

/** The environment that bills the current organization, or null when it pays for itself. */
export async function environmentPlan(db: Database, ctx: AuthContext): Promise<EnvironmentPlan> {
  const organization = await billingOf(db, requireOrganization(ctx));
  if (!organization.environmentUuid) return null;
  return { environment: { uuid: organization.environmentUuid, title: organization.environmentTitle ?? '' }, features: [...ALL_BILLING_FEATURES] };
}

function unitAmountCents(plan: repo.PlanRow, interval: 'month' | 'year') {
  return interval === 'year' ? plan.yearlyMonthlyCents * 12 : plan.monthlyCents;
}

async function toCheckout(db: Database, row: repo.CheckoutRow, state: { status: 'open' | 'complete' | 'expired'; paid: boolean }): Promise<Checkout> {
  const plan = await readSystem(db, (tx) => repo.findPlan(tx, row.planId));
  const interval = row.interval as 'month' | 'year';
  const ht = unitAmountCents(plan!, interval) * row.quantity;
  return {
    sessionId: row.sessionId,
    url: row.url,
    provider: row.provider as 'stripe' | 'embedded',
    status: state.status,
    paid: state.paid,
    plan: toPlan(plan!),
    interval,
    quantity: row.quantity,
    amountHt: euros(ht),
    amountTtc: euros(ttcCents(ht)),
  };
}

/** Starts a checkout for a plan: the provider's hosted page (Stripe) or the app's own page (embedded). */
export async function createCheckout(
  db: Database,
  billing: BillingProvider,
  ctx: AuthContext,
  body: CheckoutBody,
  baseUrl: string,
  idempotencyKey: string | null = null,
): Promise<Checkout> {
  const organizationUuid = requirePayer(ctx);
  const organization = await billingOf(db, organizationUuid);
  if (organization.environmentUuid) throw new ConflictError(`Votre organisation est facturée par son espace (${organization.environmentTitle ?? 'votre courtier'}) : aucun paiement à faire ici`);
  const plan = await readSystem(db, (tx) => repo.findPlan(tx, body.planId));
  if (!plan) throw new BadRequestError('Offre inconnue', [{ path: 'planId', message: 'Offre inconnue' }]);
  const { vehicles, current, email } = await readTenant(db, organizationUuid, async (tx) => ({
    vehicles: await repo.activeVehicleCount(tx),
    current: await repo.currentSubscription(tx),
    email: await repo.userEmail(tx, ctx.userUuid),
  }));
  const quantity = Math.max(1, vehicles);
  const session = await billing.createCheckout({
    organizationUuid,
    customerEmail: email,
    customerId: current?.provider === billing.kind ? current.customerId : null,
    plan: { id: plan.id, name: plan.name, description: plan.description },
    interval: body.interval,
    unitAmountCents: unitAmountCents(plan, body.interval),
    quantity,
    successUrl: `${baseUrl}/parameters/plans/confirmation`,
    cancelUrl: `${baseUrl}/parameters/plans`,
    idempotencyKey,
  });
  const row = await withTenant(db, organizationUuid, (tx) =>
    repo.insertCheckout(tx, {
      organizationUuid,
      provider: billing.kind,
      sessionId: session.sessionId,
      planId: plan.id,
      interval: body.interval,
      quantity,
      url: session.url,
      createdByUuid: ctx.userUuid,
    }),
  );
  return toCheckout(db, row, { status: 'open', paid: false });
}

async function ownCheckout(db: Database, organizationUuid: string, sessionId: string) {
  const row = await readTenant(db, organizationUuid, (tx) => repo.findCheckout(tx, sessionId));
  if (!row) throw new NotFoundError('Paiement introuvable');
  return row;
}

/** A checkout of the organization as its provider reports it now (the confirmation page). */
export async function readCheckout(db: Database, billing: BillingProvider, ctx: AuthContext, sessionId: string): Promise<Checkout> {
  const organizationUuid = requirePayer(ctx);
  const row = await ownCheckout(db, organizationUuid, sessionId);
  const state = row.provider === billing.kind ? await billing.readCheckout(sessionId) : { status: row.status as 'open' | 'complete' | 'expired', paid: row.status === 'complete' };
  return toCheckout(db, row, state);
}

/** The embedded checkout page's « Payer »: only with the embedded provider. */
export async function payEmbedded(db: Database, billing: BillingProvider, ctx: AuthContext, sessionId: string): Promise<Checkout> {
  const organizationUuid = requirePayer(ctx);
  const row = await ownCheckout(db, organizationUuid, sessionId);
  if (billing.kind !== 'embedded' || row.provider !== 'embedded') throw new NotFoundError('Paiement introuvable');
  await (billing as EmbeddedBilling).pay(sessionId, organizationUuid);
  return readCheckout(db, billing, ctx, sessionId);
}

export async function listInvoices(db: Database, ctx: AuthContext): Promise<Invoice[]> {
  const organizationUuid = requirePayer(ctx);
  const rows = await readTenant(db, organizationUuid, (tx) => repo.listInvoices(tx));
  return rows.map((row) => ({
    uuid: row.uuid,
    number: row.number,
    status: row.status as Invoice['status'],
    issuedAt: row.issuedAt.toISOString(),
    periodStart: iso(row.periodStart),
    periodEnd: iso(row.periodEnd),
    amountHt: euros(row.amountHtCents),
    amountTtc: euros(row.amountTtcCents),
    // The embedded provider's invoices are drawn here; Stripe's have their own PDF.
    pdfUrl: row.pdfUrl ?? (row.provider === 'embedded' ? `/api/stripe/invoices/${row.uuid}/pdf` : null),
  }));
}

/** The PDF of an embedded provider's invoice (its organization's ADMIN; another organization's: 404). */
export async function invoicePdfFile(db: Database, ctx: AuthContext, uuid: string): Promise<{ fileName: string; pdf: Buffer }> {
  const organizationUuid = requirePayer(ctx);
  const row = await readTenant(db, organizationUuid, (tx) => repo.findInvoice(tx, uuid));
  if (!row || row.provider !== 'embedded' || row.status === 'draft') throw new NotFoundError('Facture introuvable');
  const { title, planName } = await readSystem(db, async (tx) => ({
    title: (await repo.organizationTitle(tx, organizationUuid)) ?? '',
    planName: row.subscriptionId ? await repo.subscriptionPlanName(tx, row.subscriptionId) : null,
  }));
  const number = row.number ?? row.invoiceId;
  const pdf = await invoicePdf({
    number,
    organizationTitle: title,
    planName,
    issuedAt: row.issuedAt,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    amountHtCents: row.amountHtCents,
    amountTtcCents: row.amountTtcCents,
    status: row.status,
  });
  return { fileName: `facture-${number.replace(/[^A-Za-z0-9-]/g, '')}.pdf`, pdf };
}

/** POST /api/stripe/webhook: a signed event from Stripe, applied once. */
export async function receiveWebhook(db: Database, billing: BillingProvider, rawBody: Buffer, signature: string | undefined, logger: { warn(obj: object, msg?: string): void }): Promise<ApplyResult> {
  if (billing.kind !== 'stripe') throw new NotFoundError('Aucun fournisseur de paiement externe configuré');
  let event;
  try {
    event = billing.verifyWebhook(rawBody, signature);
  } catch {
    throw new BadRequestError('Signature du webhook invalide');
  }
  return applyBillingEvent(db, event, { provider: 'stripe', logger });
}

import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe } from '../../../test/fake-stripe.js';
import { openBilling } from '../../../test/fixtures/billing.js';
import type { TestContext } from '../../../test/test-app.js';
import { reportFleetUsage } from '../../platform/billing/usage.js';

const WEBHOOK_SECRET = 'whsec_testsecret0123456789';
const stripe = new Stripe('sk_test_fake');

let t: TestContext;
let tokens: Awaited<ReturnType<typeof openBilling>>['tokens'];
let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let gamma: string;
let delta: string;

beforeAll(async () => {
  fake = await startFakeStripe();
  const world = await openBilling({ STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url });
  ({ t, tokens } = world);
  gamma = world.gamma.uuid;
  delta = world.delta.uuid;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
const rows = async <T>(query: ReturnType<typeof sql>) => t.seed(async (tx) => ((await tx.execute(query)) as unknown as { rows: T[] }).rows);
const NOW = () => Math.floor(Date.now() / 1000);

let eventCounter = 0;
function event(type: string, object: Record<string, unknown>, created = NOW(), id = `evt_${++eventCounter}_${type}`) {
  return { id, object: 'event', type, created, livemode: false, api_version: '2025-01-01', data: { object } };
}
/** Delivers an event as Stripe does: the JSON body signed with the webhook secret (the package's own test helper). */
function deliver(body: object | string, options: { secret?: string; timestamp?: number; signature?: string | null } = {}) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const signature =
    options.signature === null
      ? undefined
      : (options.signature ?? stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, ...(options.timestamp ? { timestamp: options.timestamp } : {}) }));
  return t.app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, payload });
}
function subscription(id: string, status: string, organizationUuid: string, extra: { quantity?: number; planId?: string } = {}) {
  return {
    id,
    object: 'subscription',
    customer: `cus_${organizationUuid.slice(0, 8)}`,
    status,
    metadata: { organizationUuid, planId: extra.planId ?? 'pro', interval: 'month' },
    items: { object: 'list', data: [{ id: `si_${id}`, quantity: extra.quantity ?? 2, current_period_start: NOW(), current_period_end: NOW() + 30 * 86_400, price: { recurring: { interval: 'month' } } }] },
  };
}
function invoice(id: string, status: string, subscriptionId: string, organizationUuid: string, total = 2880) {
  return {
    id,
    object: 'invoice',
    customer: `cus_${organizationUuid.slice(0, 8)}`,
    number: `INV-${id}`,
    status,
    currency: 'eur',
    total,
    total_excluding_tax: 2400,
    created: NOW(),
    invoice_pdf: `https://pay.stripe.com/invoice/${id}/pdf`,
    lines: { data: [{ period: { start: NOW(), end: NOW() + 30 * 86_400 } }] },
    parent: { subscription_details: { subscription: subscriptionId, metadata: { organizationUuid } } },
  };
}
const subscriptionOf = async (id: string) => (await rows<{ status: string; quantity: number }>(sql`select status, quantity from billing_subscriptions where subscription_id = ${id}`))[0];
const invoiceOf = async (id: string) => (await rows<{ status: string }>(sql`select status from billing_invoices where invoice_id = ${id}`))[0];

describe('checkout through Stripe (the package pointed at a local server answering as Stripe)', () => {
  let sessionId: string;

  it('creates a Checkout session with the plan’s price inline, the fleet as quantity and the organization in the metadata', async () => {
    const response = await t.as(tokens.adminG, { method: 'POST', url: '/api/stripe/checkout', payload: { planId: 'pro', interval: 'year' } });
    expect(response.statusCode).toBe(201);
    const checkout = response.json();
    sessionId = checkout.sessionId;
    expect(checkout).toMatchObject({ provider: 'stripe', status: 'open', quantity: 2, url: `https://checkout.stripe.com/c/pay/${sessionId}`, amountHt: 240, amountTtc: 288 });
    const call = fake.calls.find((c) => c.path === '/v1/checkout/sessions' && c.method === 'POST')!;
    expect(call.form).toMatchObject({
      mode: 'subscription',
      locale: 'fr',
      client_reference_id: gamma,
      customer_email: 'admin@gamma.fr',
      'line_items[0][quantity]': '2',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '12000',
      'line_items[0][price_data][recurring][interval]': 'year',
      'subscription_data[metadata][organizationUuid]': gamma,
      'subscription_data[metadata][planId]': 'pro',
      cancel_url: 'http://localhost:80/parameters/plans',
    });
    expect(call.form.success_url).toBe('http://localhost:80/parameters/plans/confirmation?session_id={CHECKOUT_SESSION_ID}');
    expect((await get(tokens.adminG, '/api/stripe/current-plan')).json()).toMatchObject({ source: 'none', provider: 'stripe' });
  });

  it('the confirmation reads the session at Stripe; the subscription waits for its signed event', async () => {
    fake.complete(sessionId);
    expect((await get(tokens.adminG, `/api/stripe/checkout/${sessionId}`)).json()).toMatchObject({ status: 'complete', paid: true });
    expect((await get(tokens.adminD, `/api/stripe/checkout/${sessionId}`)).statusCode).toBe(404);
    expect((await get(tokens.adminG, '/api/stripe/current-plan')).json().source).toBe('none');
  });

  it('hands Stripe a key of its own for the caller’s Idempotency-Key: after a crash lost our records, the retry gets the same session', async () => {
    const key = 'offre-pro-mensuelle-1';
    const start = (idempotencyKey: string) =>
      t.as(tokens.adminG, { method: 'POST', url: '/api/stripe/checkout', headers: { 'idempotency-key': idempotencyKey }, payload: { planId: 'pro', interval: 'month' } });
    const lastCreation = () => fake.calls.filter((c) => c.path === '/v1/checkout/sessions' && c.method === 'POST').at(-1)!;
    const first = await start(key);
    expect(first.statusCode).toBe(201);
    const sent = lastCreation().idempotencyKey;
    // The organization's and user's own (two callers' equal keys stay apart), never the key as typed.
    expect(sent).toMatch(/^flotte-checkout-[0-9a-f]{64}$/);
    // kill -9 after Stripe made the session, before our rows were kept: neither the key nor the checkout is here.
    await t.seed((tx) => tx.execute(sql`delete from idempotency_keys where key = ${key}`));
    await t.seed((tx) => tx.execute(sql`delete from billing_checkouts where session_id = ${first.json().sessionId}`));
    const retried = await start(key);
    expect(retried.statusCode).toBe(201);
    expect(lastCreation().idempotencyKey).toBe(sent);
    expect(retried.json().sessionId).toBe(first.json().sessionId);
    // Another key: another session.
    const other = await start('offre-pro-mensuelle-2');
    expect(lastCreation().idempotencyKey).not.toBe(sent);
    expect(other.json().sessionId).not.toBe(first.json().sessionId);
  });

  it('has no embedded payment with Stripe (404)', async () => {
    expect((await t.as(tokens.adminG, { method: 'POST', url: `/api/stripe/checkout/${sessionId}/pay` })).statusCode).toBe(404);
  });
});

describe('signed webhooks', () => {
  it('refuses a bad signature, a missing one, another secret and a signature older than 300 s (400), applying nothing', async () => {
    const body = event('customer.subscription.created', subscription('sub_bad', 'active', gamma));
    expect((await deliver(body, { signature: 't=123,v1=deadbeef' })).statusCode).toBe(400);
    expect((await deliver(body, { signature: null })).statusCode).toBe(400);
    expect((await deliver(body, { secret: 'whsec_another0123' })).statusCode).toBe(400);
    const old = await deliver(body, { timestamp: NOW() - 301 });
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toBe('Signature du webhook invalide');
    // A body changed after signing.
    const payload = JSON.stringify(body);
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await deliver(payload.replace('"active"', '"canceled"'), { signature })).statusCode).toBe(400);
    expect(await subscriptionOf('sub_bad')).toBeUndefined();
    expect((await rows(sql`select 1 from billing_events where event_id = ${body.id}`)).length).toBe(0);
  });

  it('accepts a signature 299 s old', async () => {
    const response = await deliver(event('customer.subscription.created', subscription('sub_recent', 'incomplete', delta)), { timestamp: NOW() - 299 });
    expect(response.json()).toEqual({ received: true, result: 'applied' });
  });

  it('applies the subscription and its paid invoice; the organization gets its plan', async () => {
    expect((await deliver(event('customer.subscription.created', subscription('sub_g', 'active', gamma)))).json().result).toBe('applied');
    expect((await deliver(event('invoice.paid', invoice('in_g1', 'paid', 'sub_g', gamma)))).json().result).toBe('applied');
    expect((await get(tokens.userG, '/api/stripe/current-plan')).json()).toMatchObject({ source: 'organization', plan: { id: 'pro' }, features: ['documents', 'alerts'], subscription: { status: 'active', quantity: 2 } });
    expect((await get(tokens.adminG, '/api/stripe/invoices')).json()).toEqual([
      expect.objectContaining({ number: 'INV-in_g1', status: 'paid', amountHt: 24, amountTtc: 28.8, pdfUrl: 'https://pay.stripe.com/invoice/in_g1/pdf' }),
    ]);
    // Another organization sees none of it.
    expect((await get(tokens.adminD, '/api/stripe/invoices')).json()).toEqual([]);
  });

  it('applies a replayed event once', async () => {
    const body = event('customer.subscription.updated', subscription('sub_g', 'active', gamma, { quantity: 5 }));
    expect((await deliver(body)).json().result).toBe('applied');
    await t.seed((tx) => tx.execute(sql`update billing_subscriptions set quantity = 4 where subscription_id = 'sub_g'`));
    expect((await deliver(body)).json().result).toBe('duplicate');
    expect((await subscriptionOf('sub_g'))!.quantity).toBe(4);
    await t.seed((tx) => tx.execute(sql`update billing_subscriptions set quantity = 5 where subscription_id = 'sub_g'`));
  });

  it('applies once the same event delivered twice at the same time', async () => {
    const body = event('invoice.paid', invoice('in_twice', 'paid', 'sub_g', gamma));
    const results = await Promise.all([deliver(body), deliver(body)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(results.map((r) => r.json().result).sort()).toEqual(['applied', 'duplicate']);
    expect(await rows(sql`select 1 from billing_invoices where invoice_id = 'in_twice'`)).toHaveLength(1);
    await t.seed((tx) => tx.execute(sql`delete from billing_invoices where invoice_id = 'in_twice'`));
  });

  it('ends in the latest state when events arrive out of order', async () => {
    const t0 = NOW();
    // updated (active, later) arrives before created (incomplete, earlier).
    expect((await deliver(event('customer.subscription.updated', subscription('sub_o', 'active', delta), t0 + 5))).json().result).toBe('applied');
    expect((await deliver(event('customer.subscription.created', subscription('sub_o', 'incomplete', delta), t0))).json().result).toBe('stale');
    expect((await subscriptionOf('sub_o'))!.status).toBe('active');
    // The same second: the further state wins whatever the order.
    expect((await deliver(event('customer.subscription.updated', subscription('sub_o', 'past_due', delta), t0 + 9))).json().result).toBe('applied');
    expect((await deliver(event('customer.subscription.updated', subscription('sub_o', 'active', delta), t0 + 9))).json().result).toBe('stale');
    expect((await subscriptionOf('sub_o'))!.status).toBe('past_due');
  });

  it('keeps a late event after a newer one from undoing it: a paid invoice stays paid, a canceled subscription canceled', async () => {
    expect((await deliver(event('invoice.paid', invoice('in_late', 'paid', 'sub_g', gamma)))).json().result).toBe('applied');
    expect((await deliver(event('invoice.finalized', invoice('in_late', 'open', 'sub_g', gamma), NOW() + 60))).json().result).toBe('stale');
    expect((await deliver(event('invoice.created', invoice('in_late', 'draft', 'sub_g', gamma)))).json().result).toBe('stale');
    expect((await invoiceOf('in_late'))!.status).toBe('paid');
    // Draft invoices are not in the history.
    expect((await deliver(event('invoice.created', invoice('in_draft', 'draft', 'sub_g', gamma)))).json().result).toBe('applied');
    expect((await get(tokens.adminG, '/api/stripe/invoices')).json().map((i: { number: string }) => i.number).sort()).toEqual(['INV-in_g1', 'INV-in_late']);

    expect((await deliver(event('customer.subscription.deleted', subscription('sub_recent', 'canceled', delta)))).json().result).toBe('applied');
    expect((await deliver(event('customer.subscription.updated', subscription('sub_recent', 'active', delta), NOW() + 60))).json().result).toBe('stale');
    expect((await subscriptionOf('sub_recent'))!.status).toBe('canceled');
  });

  it('finds the organization of an invoice without metadata through its subscription', async () => {
    const body = invoice('in_nometa', 'open', 'sub_g', gamma);
    body.parent = { subscription_details: { subscription: 'sub_g', metadata: {} as { organizationUuid: string } } };
    expect((await deliver(event('invoice.finalized', body))).json().result).toBe('applied');
    expect((await rows<{ organization_uuid: string }>(sql`select organization_uuid from billing_invoices where invoice_id = 'in_nometa'`))[0]!.organization_uuid).toBe(gamma);
  });

  it('ignores, with 200, an event for no known organization, an unknown plan, an unhandled type or an unreadable object', async () => {
    expect((await deliver(event('customer.subscription.created', subscription('sub_x', 'active', '00000000-0000-4000-8000-000000000000')))).json().result).toBe('ignored');
    expect((await deliver(event('customer.subscription.created', subscription('sub_y', 'active', gamma, { planId: 'platine' })))).json().result).toBe('ignored');
    expect((await deliver(event('customer.created', { id: 'cus_1' }))).json().result).toBe('ignored');
    expect((await deliver(event('invoice.paid', { id: 'in_broken' }))).json().result).toBe('ignored');
    expect(await subscriptionOf('sub_x')).toBeUndefined();
    expect(await subscriptionOf('sub_y')).toBeUndefined();
  });

  it('completes the checkout once: a late expiry does not flip it', async () => {
    const [checkout] = await rows<{ session_id: string }>(sql`select session_id from billing_checkouts limit 1`);
    const id = checkout!.session_id;
    expect((await deliver(event('checkout.session.completed', { id, object: 'checkout.session', status: 'complete' }))).json().result).toBe('applied');
    expect((await deliver(event('checkout.session.expired', { id, object: 'checkout.session', status: 'expired' }))).json().result).toBe('stale');
    expect((await rows<{ status: string }>(sql`select status from billing_checkouts where session_id = ${id}`))[0]!.status).toBe('complete');
  });
});

describe('the daily usage report through Stripe', () => {
  it('sends each changed quantity to Stripe; the row moves only when Stripe’s event comes back; a failure does not stop the others', async () => {
    fake.calls.length = 0;
    // sub_g (gamma: 2 active vehicles, held at 5) and sub_o (delta: no vehicle, quantity 2, past_due → 1).
    fake.failNextCall();
    const report = await reportFleetUsage(t.app.db, t.app.billing);
    expect(report).toEqual({ subscriptions: 2, updated: 1, failed: 1 });
    const updates = fake.calls.filter((c) => c.path.startsWith('/v1/subscription_items/'));
    expect(updates).toHaveLength(2);
    expect(updates[1]!.form).toMatchObject({ proration_behavior: 'create_prorations' });
    expect((await subscriptionOf('sub_g'))!.quantity).toBe(5);
    const second = await reportFleetUsage(t.app.db, t.app.billing);
    expect(second).toEqual({ subscriptions: 2, updated: 2, failed: 0 });
    expect(fake.calls.filter((c) => c.path === '/v1/subscription_items/si_sub_g').at(-1)!.form.quantity).toBe('2');
    expect(fake.calls.filter((c) => c.path === '/v1/subscription_items/si_sub_o').at(-1)!.form.quantity).toBe('1');
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBilling } from '../../../test/fixtures/billing.js';
import { pdfText, spaced } from '../../../test/pdf-text.js';
import type { TestContext } from '../../../test/test-app.js';
import { createVehicules, subscribeToPlan } from '../../seed/factories.js';
import { reportFleetUsage } from '../../platform/billing/usage.js';

let t: TestContext;
let tokens: Awaited<ReturnType<typeof openBilling>>['tokens'];
let gammaUuid: string;

beforeAll(async () => {
  const world = await openBilling();
  ({ t, tokens } = world);
  gammaUuid = world.gamma.uuid;
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
const post = (token: string, url: string, payload?: object) => t.as(token, { method: 'POST', url, ...(payload ? { payload } : {}) });
const count = (table: string) => t.seed(async (tx) => ((await tx.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: { n: number }[] }).rows[0]!.n);

describe('plans', () => {
  it('lists the seeded plans with their HT prices per vehicle per month and their features, to every member', async () => {
    const response = await get(tokens.userG, '/api/stripe/plans');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({ id: 'essentiel', name: 'Essentiel', monthlyPrice: 9, yearlyMonthlyPrice: 7.5, features: ['documents'] }),
      expect.objectContaining({ id: 'pro', name: 'Pro', monthlyPrice: 12, yearlyMonthlyPrice: 10, features: ['documents', 'alerts'] }),
    ]);
    expect((await get(tokens.adminA, '/api/stripe/plans')).statusCode).toBe(200);
  });

  it('reads one plan by its id (GET /api/stripe/product/{id}); an unknown one is 404, a malformed one 400', async () => {
    expect((await get(tokens.userG, '/api/stripe/product/pro')).json()).toMatchObject({ id: 'pro', monthlyPrice: 12 });
    const unknown = await get(tokens.userG, '/api/stripe/product/platine');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Offre introuvable');
    expect((await get(tokens.userG, '/api/stripe/product/PRO%20!')).statusCode).toBe(400);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/stripe/current-plan' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/stripe/plans' })).statusCode).toBe(401);
  });
});

describe('the current plan', () => {
  it('is none for an organization outside any environment without subscription; only its ADMIN may pay', async () => {
    const admin = (await get(tokens.adminG, '/api/stripe/current-plan')).json();
    expect(admin).toEqual({ source: 'none', plan: null, subscription: null, features: [], canPay: true, provider: 'embedded' });
    expect((await get(tokens.userG, '/api/stripe/current-plan')).json()).toMatchObject({ source: 'none', canPay: false });
    // ROOT acting in the organization is not its administrator: it does not pay for it.
    expect((await get(tokens.root, '/api/stripe/current-plan')).json()).toMatchObject({ source: 'none', canPay: false });
  });

  it('is the environment inside one: every feature, nothing to pay; GET /api/stripe/environment/current-plan names it', async () => {
    expect((await get(tokens.adminA, '/api/stripe/current-plan')).json()).toMatchObject({ source: 'environment', features: ['documents', 'alerts'], canPay: false });
    expect((await get(tokens.superA, '/api/stripe/environment/current-plan')).json()).toMatchObject({ environment: { title: 'Cabinet Lefèvre' }, features: ['documents', 'alerts'] });
    expect((await get(tokens.adminG, '/api/stripe/environment/current-plan')).json()).toBeNull();
  });

  it('is refused to a caller without organization (403)', async () => {
    expect((await get(tokens.orphan, '/api/stripe/current-plan')).statusCode).toBe(403);
    expect((await get(tokens.orphan, '/api/stripe/environment/current-plan')).statusCode).toBe(403);
  });
});

describe('the features of the plan: the API refuses what the menu locks (decision 044)', () => {
  const DOCUMENTS_LOCKED = 'La gestion documentaire n’est pas incluse dans l’offre de votre organisation : un administrateur peut en choisir une dans Paramètres, section « Abonnement ».';
  const ALERTS_LOCKED = 'Les alertes prévention ne sont pas incluses dans l’offre de votre organisation : un administrateur peut en choisir une dans Paramètres, section « Abonnement ».';
  const documentsCalls = (token: string) => [
    get(token, '/api/document/ged/paginated'),
    get(token, '/api/document/expiring'),
    get(token, '/api/document/ancestors/00000000-0000-4000-8000-000000000000'),
    post(token, '/api/document/folder', { folderName: 'Contrats' }),
  ];
  const alertsCalls = (token: string) => [get(token, '/api/alert'), get(token, '/api/alert/unread-count'), post(token, '/api/alert/read-all')];
  const statuses = async (calls: Promise<{ statusCode: number }>[]) => (await Promise.all(calls)).map((response) => response.statusCode);

  it('refuses the document management and the alerts to an organization without a plan, every role, in French, writing nothing', async () => {
    for (const token of [tokens.adminG, tokens.userG]) {
      const documents = await Promise.all(documentsCalls(token));
      for (const response of documents) {
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(DOCUMENTS_LOCKED);
      }
      const alerts = await Promise.all(alertsCalls(token));
      for (const response of alerts) {
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(ALERTS_LOCKED);
      }
    }
    expect(await count('documents')).toBe(0);
    // What the plan does not lock: the records' files and the media library.
    expect((await get(tokens.adminG, '/api/document/media')).statusCode).toBe(200);
  });

  it('gives them to an organization inside an environment (its broker pays) and to ROOT, without a plan', async () => {
    expect(await statuses([...documentsCalls(tokens.adminA), ...alertsCalls(tokens.adminA)])).toEqual([200, 200, 404, 201, 200, 200, 200]);
    // ROOT, the operator, acting in Gamma (which has no plan).
    expect(await statuses([get(tokens.root, '/api/document/ged/paginated'), get(tokens.root, '/api/alert'), get(tokens.root, '/api/alert/unread-count')])).toEqual([200, 200, 200]);
  });

  it('follows the live subscription: Essentiel opens the documents, Pro the alerts too, a cancelled one neither', async () => {
    const delta = (await t.seed((tx) => tx.execute(sql`select uuid from organizations where title = 'Delta Services'`))) as unknown as { rows: { uuid: string }[] };
    const deltaUuid = delta.rows[0]!.uuid;
    const documentsThenAlerts = () => statuses([get(tokens.adminD, '/api/document/ged/paginated'), get(tokens.adminD, '/api/alert')]);
    expect(await documentsThenAlerts()).toEqual([403, 403]);
    try {
      await t.seed((tx) => subscribeToPlan(tx, deltaUuid, 'essentiel'));
      expect(await documentsThenAlerts()).toEqual([200, 403]);
      await t.seed((tx) => tx.execute(sql`update billing_subscriptions set plan_id = 'pro' where organization_uuid = ${deltaUuid}`));
      expect(await documentsThenAlerts()).toEqual([200, 200]);
      await t.seed((tx) => tx.execute(sql`update billing_subscriptions set status = 'canceled' where organization_uuid = ${deltaUuid}`));
      expect(await documentsThenAlerts()).toEqual([403, 403]);
    } finally {
      await t.seed((tx) => tx.execute(sql`delete from billing_subscriptions where organization_uuid = ${deltaUuid}`));
    }
  });
});

describe('checkout and payment on the embedded provider', () => {
  let sessionId: string;

  it('refuses a plain member, ROOT, an organization billed by its environment, a caller without organization: nothing written', async () => {
    const before = await count('billing_checkouts');
    const member = await post(tokens.userG, '/api/stripe/checkout', { planId: 'pro', interval: 'month' });
    expect(member.statusCode).toBe(403);
    expect(member.json().message).toBe("Seul un administrateur de l'organisation peut gérer son abonnement");
    expect((await post(tokens.root, '/api/stripe/checkout', { planId: 'pro', interval: 'month' })).statusCode).toBe(403);
    expect((await post(tokens.orphan, '/api/stripe/checkout', { planId: 'pro', interval: 'month' })).statusCode).toBe(403);
    const inEnvironment = await post(tokens.adminA, '/api/stripe/checkout', { planId: 'pro', interval: 'month' });
    expect(inEnvironment.statusCode).toBe(409);
    expect(inEnvironment.json().message).toContain('facturée par son espace (Cabinet Lefèvre)');
    expect(await count('billing_checkouts')).toBe(before);
  });

  it('refuses an unknown plan or interval with a French message (400), writing nothing', async () => {
    const before = await count('billing_checkouts');
    const plan = await post(tokens.adminG, '/api/stripe/checkout', { planId: 'platine', interval: 'month' });
    expect(plan.statusCode).toBe(400);
    expect(plan.json()).toMatchObject({ message: 'Offre inconnue', details: [{ path: 'planId', message: 'Offre inconnue' }] });
    const interval = await post(tokens.adminG, '/api/stripe/checkout', { planId: 'pro', interval: 'week' });
    expect(interval.statusCode).toBe(400);
    expect(JSON.stringify(interval.json())).toContain('Choisissez un paiement mensuel ou annuel');
    expect((await post(tokens.adminG, '/api/stripe/checkout', { planId: 'pro', interval: 'month', extra: 1 })).statusCode).toBe(400);
    const missing = await post(tokens.adminG, '/api/stripe/checkout', { interval: 'month' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([{ path: 'planId', message: 'L’offre est obligatoire' }]);
    expect((await post(tokens.adminG, '/api/stripe/checkout', { planId: 'pro\u0000', interval: 'month' })).statusCode).toBe(400);
    expect(await count('billing_checkouts')).toBe(before);
  });

  it('starts a checkout for the fleet’s active vehicles on the app’s own page', async () => {
    const response = await post(tokens.adminG, '/api/stripe/checkout', { planId: 'pro', interval: 'month' });
    expect(response.statusCode).toBe(201);
    const checkout = response.json();
    sessionId = checkout.sessionId;
    expect(sessionId).toMatch(/^emb_cs_[0-9a-f]{24}$/);
    // 2 vehicles: the archived one, the draft and the one gone in 2020 are not billed.
    expect(checkout).toMatchObject({ provider: 'embedded', status: 'open', paid: false, interval: 'month', quantity: 2, amountHt: 24, amountTtc: 28.8, plan: { id: 'pro' } });
    expect(checkout.url).toBe(`/parameters/plans/checkout?session=${sessionId}`);
    // Starting a checkout changes no subscription.
    expect((await get(tokens.adminG, '/api/stripe/current-plan')).json().source).toBe('none');
  });

  it('reads the checkout to its organization’s admin only: another organization’s is 404, a member 403', async () => {
    expect((await get(tokens.adminG, `/api/stripe/checkout/${sessionId}`)).json()).toMatchObject({ status: 'open', paid: false });
    expect((await get(tokens.adminD, `/api/stripe/checkout/${sessionId}`)).statusCode).toBe(404);
    expect((await get(tokens.userG, `/api/stripe/checkout/${sessionId}`)).statusCode).toBe(403);
    expect((await get(tokens.adminG, '/api/stripe/checkout/emb_cs_unknown')).statusCode).toBe(404);
    expect((await get(tokens.adminG, '/api/stripe/checkout/a%2Fb')).statusCode).toBe(400);
  });

  it('pays: another organization’s admin gets 404 and a member 403, changing nothing', async () => {
    expect((await post(tokens.adminD, `/api/stripe/checkout/${sessionId}/pay`)).statusCode).toBe(404);
    expect((await post(tokens.userG, `/api/stripe/checkout/${sessionId}/pay`)).statusCode).toBe(403);
    expect(await count('billing_subscriptions')).toBe(0);
    expect(await count('billing_invoices')).toBe(0);
  });

  it('pays on the embedded page: the checkout completes, the subscription is active, an invoice is paid (HT and TTC)', async () => {
    const paid = await post(tokens.adminG, `/api/stripe/checkout/${sessionId}/pay`);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'complete', paid: true });
    const current = (await get(tokens.userG, '/api/stripe/current-plan')).json();
    expect(current).toMatchObject({ source: 'organization', plan: { id: 'pro' }, features: ['documents', 'alerts'], subscription: { planId: 'pro', interval: 'month', status: 'active', quantity: 2 } });
    const invoices = (await get(tokens.adminG, '/api/stripe/invoices')).json();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'paid', amountHt: 24, amountTtc: 28.8, number: expect.stringMatching(/^FA-\d{4}-[0-9A-F]{6}$/) });
    const start = new Date(invoices[0].periodStart);
    const end = new Date(invoices[0].periodEnd);
    expect(Math.round((end.getTime() - start.getTime()) / 86_400_000)).toBeGreaterThanOrEqual(28);
    // The same state changes as Stripe's: three events recorded, each once.
    expect(await count('billing_events')).toBe(3);
  });

  it('refuses to pay the same checkout twice (409)', async () => {
    const again = await post(tokens.adminG, `/api/stripe/checkout/${sessionId}/pay`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Ce paiement a déjà été effectué');
    expect(await count('billing_invoices')).toBe(1);
  });

  it('draws an embedded invoice as a PDF for its organization’s admin; a member 403, another organization 404', async () => {
    const [invoice] = (await get(tokens.adminG, '/api/stripe/invoices')).json();
    expect(invoice.pdfUrl).toBe(`/api/stripe/invoices/${invoice.uuid}/pdf`);
    const response = await get(tokens.adminG, invoice.pdfUrl);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="facture-${invoice.number}.pdf"`);
    const { text } = await pdfText(response.rawPayload);
    const flat = spaced(text).replace(/\u00a0/g, ' ');
    expect(flat).toContain(`Facture ${invoice.number}`);
    expect(flat).toContain('Client : Gamma Livraisons');
    expect(flat).toContain('Abonnement FlotteAssur Pro');
    expect(flat).toContain('Montant HT : 24,00 €');
    expect(flat).toContain('TVA (20 %) : 4,80 €');
    expect(flat).toContain('Montant TTC : 28,80 €');
    expect((await get(tokens.userG, invoice.pdfUrl)).statusCode).toBe(403);
    expect((await get(tokens.adminD, invoice.pdfUrl)).statusCode).toBe(404);
    expect((await get(tokens.adminG, '/api/stripe/invoices/not-a-uuid/pdf')).statusCode).toBe(400);
  });

  it('shows the payment history to the admin only; another organization sees none of it', async () => {
    expect((await get(tokens.userG, '/api/stripe/invoices')).statusCode).toBe(403);
    expect((await get(tokens.adminD, '/api/stripe/invoices')).json()).toEqual([]);
    expect((await get(tokens.adminD, '/api/stripe/current-plan')).json().source).toBe('none');
  });

  it('a new plan, paid by the year, replaces the previous subscription', async () => {
    const checkout = (await post(tokens.adminG, '/api/stripe/checkout', { planId: 'essentiel', interval: 'year' })).json();
    expect(checkout).toMatchObject({ quantity: 2, amountHt: 180, amountTtc: 216 });
    await post(tokens.adminG, `/api/stripe/checkout/${checkout.sessionId}/pay`);
    const current = (await get(tokens.adminG, '/api/stripe/current-plan')).json();
    expect(current).toMatchObject({ plan: { id: 'essentiel' }, features: ['documents'], subscription: { interval: 'year', status: 'active' } });
    const statuses = await t.seed(async (tx) => ((await tx.execute(sql`select plan_id, status from billing_subscriptions order by plan_id`)) as unknown as { rows: unknown[] }).rows);
    expect(statuses).toEqual([
      { plan_id: 'essentiel', status: 'active' },
      { plan_id: 'pro', status: 'canceled' },
    ]);
    expect((await get(tokens.adminG, '/api/stripe/invoices')).json().map((i: { amountHt: number }) => i.amountHt).sort()).toEqual([180, 24]);
  });

  it('the daily usage report sets the quantity to the active vehicles, through an event', async () => {
    await t.seed((tx) => createVehicules(tx, gammaUuid, [{ immatriculation: 'QR345ST' }]));
    const report = await reportFleetUsage(t.app.db, t.app.billing);
    expect(report).toEqual({ subscriptions: 1, updated: 1, failed: 0 });
    expect((await get(tokens.adminG, '/api/stripe/current-plan')).json().subscription.quantity).toBe(3);
    // Nothing changed since: nothing sent.
    expect(await reportFleetUsage(t.app.db, t.app.billing)).toEqual({ subscriptions: 1, updated: 0, failed: 0 });
  });

  it('has no webhook without Stripe (404)', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, payload: '{}' });
    expect(response.statusCode).toBe(404);
  });
});

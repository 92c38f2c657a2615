import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Checkout, CurrentPlan, Invoice, Plan } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser, ORG_A } from '../../../test/fixtures';
import { mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import { CheckoutPage } from './checkout-page';
import { ConfirmationPage } from './confirmation-page';
import { PaymentHistoryPage } from './payment-history-page';
import { PlanFeature } from './plan-feature';
import { PlansPage } from './plans-page';

const PLANS: Plan[] = [
  { id: 'essentiel', name: 'Essentiel', description: 'Le suivi de la flotte.', monthlyPrice: 9, yearlyMonthlyPrice: 7.5, features: ['documents'] },
  { id: 'pro', name: 'Pro', description: 'Tout Essentiel, plus les alertes.', monthlyPrice: 12, yearlyMonthlyPrice: 10, features: ['documents', 'alerts'] },
];
const NONE: CurrentPlan = { source: 'none', plan: null, subscription: null, features: [], canPay: true, provider: 'embedded' };
const PRO: CurrentPlan = {
  source: 'organization',
  plan: PLANS[1]!,
  subscription: { planId: 'pro', interval: 'month', status: 'active', quantity: 3, currentPeriodEnd: '2026-12-26T10:00:00.000Z' },
  features: ['documents', 'alerts'],
  canPay: true,
  provider: 'embedded',
};
const CHECKOUT: Checkout = {
  sessionId: 'emb_cs_1',
  url: '/parameters/plans/checkout?session=emb_cs_1',
  provider: 'embedded',
  status: 'open',
  paid: false,
  plan: PLANS[1]!,
  interval: 'month',
  quantity: 2,
  amountHt: 24,
  amountTtc: 28.8,
};
const text = (element: Element | null) => element?.textContent?.replace(/\s/g, ' ');

function renderAt(path: string, routes: MockRoute[]) {
  const { calls } = mockFetch(routes);
  authStore.setSession('token', makeUser());
  const rendered = renderRoutes(
    [
      { path: '/parameters/plans', element: <PlansPage /> },
      { path: '/parameters/plans/checkout', element: <CheckoutPage /> },
      { path: '/parameters/plans/confirmation', element: <ConfirmationPage /> },
      { path: '/parameters/payment-history', element: <PaymentHistoryPage /> },
    ],
    path,
  );
  return { ...rendered, calls };
}

describe('/parameters/plans', () => {
  it('shows each plan’s price in French format and its features; an admin chooses one', async () => {
    renderAt('/parameters/plans', [
      { path: '/api/stripe/plans', body: PLANS },
      { path: '/api/stripe/current-plan', body: NONE },
    ]);
    const pro = await screen.findByRole('article', { name: 'Pro' });
    expect(text(within(pro).getByText(/HT \/ véhicule \/ mois/))).toBe('12,00 € HT / véhicule / mois');
    expect(within(pro).getByText('Alertes prévention')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Essentiel' })).queryByText('Alertes prévention')).not.toBeInTheDocument();
    expect(within(pro).getByRole('link', { name: 'Choisir l’offre Pro' })).toHaveAttribute('href', '/parameters/plans/checkout?plan=pro&interval=month');
    await userEvent.click(screen.getByRole('button', { name: 'Paiement annuel' }));
    expect(text(within(pro).getByText(/HT \/ véhicule \/ mois/))).toBe('10,00 € HT / véhicule / mois');
    expect(within(pro).getByRole('link', { name: 'Choisir l’offre Pro' })).toHaveAttribute('href', '/parameters/plans/checkout?plan=pro&interval=year');
    expect(screen.queryByText('Offre actuelle')).not.toBeInTheDocument();
  });

  it('marks the current plan', async () => {
    renderAt('/parameters/plans', [
      { path: '/api/stripe/plans', body: PLANS },
      { path: '/api/stripe/current-plan', body: PRO },
    ]);
    const pro = await screen.findByRole('article', { name: /Pro/ });
    expect(await within(pro).findByText('Offre actuelle')).toBeInTheDocument();
    expect(screen.getByText(/Abonnement Pro : actif, 3 véhicules, jusqu’au 26\/12\/2026/)).toBeInTheDocument();
  });

  it('tells a member who may not pay, without any choice', async () => {
    renderAt('/parameters/plans', [
      { path: '/api/stripe/plans', body: PLANS },
      { path: '/api/stripe/current-plan', body: { ...NONE, canPay: false } },
    ]);
    expect(await screen.findByText('Seul un administrateur de l’organisation peut choisir une offre et consulter les paiements.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Choisir/ })).not.toBeInTheDocument();
  });

  it('tells an organization billed by its environment that everything is included', async () => {
    renderAt('/parameters/plans', [
      { path: '/api/stripe/plans', body: PLANS },
      { path: '/api/stripe/current-plan', body: { ...NONE, source: 'environment', features: ['documents', 'alerts'], canPay: false } },
      { path: '/api/stripe/environment/current-plan', body: { environment: { uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0e01', title: 'Courtage Demo' }, features: ['documents', 'alerts'] } },
    ]);
    expect(await screen.findByText(/facturée par son espace « Courtage Demo »/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Choisir/ })).not.toBeInTheDocument();
  });
});

describe('checkout and confirmation', () => {
  it('starts the embedded checkout, pays it and shows the confirmation', async () => {
    let paid = false;
    const { router, calls } = renderAt('/parameters/plans/checkout?plan=pro&interval=month', [
      { path: '/api/stripe/plans', body: PLANS },
      { method: 'POST', path: '/api/stripe/checkout', status: 201, body: CHECKOUT },
      { path: '/api/stripe/checkout/emb_cs_1', respond: () => ({ body: paid ? { ...CHECKOUT, status: 'complete', paid: true } : CHECKOUT }) },
      {
        method: 'POST',
        path: '/api/stripe/checkout/emb_cs_1/pay',
        respond: () => {
          paid = true;
          return { body: { ...CHECKOUT, status: 'complete', paid: true } };
        },
      },
      { path: '/api/stripe/current-plan', body: PRO },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Procéder au paiement' }));
    await waitFor(() => expect(router.state.location.search).toBe('?session=emb_cs_1'));
    expect(JSON.parse(await calls.find((c) => c.method === 'POST')!.clone().text())).toEqual({ planId: 'pro', interval: 'month' });
    expect(text(await screen.findByText('Total TTC par mois'))).toBe('Total TTC par mois');
    expect(text(screen.getByText('Total HT par mois').nextElementSibling)).toBe('24,00 €');
    expect(text(screen.getByText('TVA (20 %)').nextElementSibling)).toBe('4,80 €');
    await userEvent.click(screen.getByRole('button', { name: /Payer 28,80/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/parameters/plans/confirmation'));
    expect(await screen.findByRole('heading', { name: 'Paiement confirmé' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir l’historique des paiements' })).toHaveAttribute('href', '/parameters/payment-history');
  });

  it('waits on the confirmation while the provider has not reported the payment', async () => {
    renderAt('/parameters/plans/confirmation?session_id=emb_cs_1', [{ path: '/api/stripe/checkout/emb_cs_1', body: CHECKOUT }]);
    expect(await screen.findByText('Paiement en cours de confirmation…')).toBeInTheDocument();
  });
});

describe('/parameters/payment-history', () => {
  it('lists the invoices: date, period, HT, TTC, status and PDF', async () => {
    const invoice: Invoice = {
      uuid: 'a0000000-0000-4000-8000-000000000001',
      number: 'FA-2026-00A1B2',
      status: 'paid',
      issuedAt: '2026-11-26T10:00:00.000Z',
      periodStart: '2026-11-26T10:00:00.000Z',
      periodEnd: '2026-12-26T10:00:00.000Z',
      amountHt: 24,
      amountTtc: 28.8,
      pdfUrl: 'https://pay.stripe.com/invoice/in_1/pdf',
    };
    renderAt('/parameters/payment-history', [{ path: '/api/stripe/invoices', body: [invoice] }]);
    const table = await screen.findByRole('table', { name: 'Factures' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(text(row)).toContain('26/11/2026');
    expect(text(row)).toContain('du 26/11/2026 au 26/12/2026');
    expect(text(row)).toContain('24,00 €');
    expect(text(row)).toContain('28,80 €');
    expect(text(row)).toContain('Payée');
    expect(within(row).getByRole('link', { name: 'PDF FA-2026-00A1B2' })).toHaveAttribute('href', 'https://pay.stripe.com/invoice/in_1/pdf');
  });

  it('downloads an embedded invoice’s PDF through the API', async () => {
    const invoice: Invoice = {
      uuid: 'a0000000-0000-4000-8000-000000000002',
      number: 'FA-2026-00C3D4',
      status: 'paid',
      issuedAt: '2026-11-26T10:00:00.000Z',
      periodStart: null,
      periodEnd: null,
      amountHt: 12,
      amountTtc: 14.4,
      pdfUrl: '/api/stripe/invoices/a0000000-0000-4000-8000-000000000002/pdf',
    };
    const { calls } = renderAt('/parameters/payment-history', [
      { path: '/api/stripe/invoices', body: [invoice] },
      { path: invoice.pdfUrl!, body: new Uint8Array([37, 80, 68, 70]), headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="facture-FA-2026-00C3D4.pdf"' } },
    ]);
    URL.createObjectURL = () => 'blob:facture';
    URL.revokeObjectURL = () => undefined;
    await userEvent.click(await screen.findByRole('button', { name: 'PDF FA-2026-00C3D4' }));
    await waitFor(() => expect(calls.some((c) => new URL(c.url).pathname === invoice.pdfUrl)).toBe(true));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('tells a member the history is the administrator’s', async () => {
    renderAt('/parameters/payment-history', [{ path: '/api/stripe/invoices', status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'Seul un administrateur' } }]);
    expect(await screen.findByText('Seul un administrateur de l’organisation peut choisir une offre et consulter les paiements.')).toBeInTheDocument();
  });
});

describe('<PlanFeature /> (a page a plan unlocks, opened by its address)', () => {
  const billedAlone = (roles: ('ADMIN' | 'USER')[] = ['ADMIN']) =>
    makeUser({ roles, currentOrganizationUser: { uuid: '7e000000-0000-4000-8000-0000000000a1', organization: { ...ORG_A, environment: null } } });
  function renderFeature(user: ReturnType<typeof makeUser>, routes: MockRoute[]) {
    const { calls } = mockFetch(routes);
    authStore.setSession('token', user);
    renderRoutes(
      [
        {
          path: '/ged',
          element: (
            <PlanFeature feature="documents">
              <h1>La GED</h1>
            </PlanFeature>
          ),
        },
      ],
      '/ged',
    );
    return calls;
  }

  it('says what the page is and where to choose an offer, instead of the page, while the plan lacks it', async () => {
    renderFeature(billedAlone(), [{ path: '/api/stripe/current-plan', body: NONE }]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Gestion documentaire' })).toBeInTheDocument();
    expect(screen.getByText(/La gestion documentaire est incluse dans les offres Essentiel et Pro\. Choisissez une offre pour en profiter\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir les offres' })).toHaveAttribute('href', '/parameters/plans');
    expect(screen.queryByText('La GED')).not.toBeInTheDocument();
  });

  it('tells a member that an administrator chooses the offer', async () => {
    renderFeature(billedAlone(['USER']), [{ path: '/api/stripe/current-plan', body: { ...NONE, canPay: false } }]);
    expect(await screen.findByText(/Un administrateur de votre organisation peut en choisir une\./)).toBeInTheDocument();
  });

  it('shows the page once the plan includes it', async () => {
    renderFeature(billedAlone(), [{ path: '/api/stripe/current-plan', body: PRO }]);
    expect(await screen.findByRole('heading', { name: 'La GED' })).toBeInTheDocument();
  });

  it('shows the page at once to an organization inside an environment, without asking its plan', async () => {
    const calls = renderFeature(makeUser(), []);
    expect(screen.getByRole('heading', { name: 'La GED' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

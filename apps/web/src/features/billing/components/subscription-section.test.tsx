import { screen } from '@testing-library/react';
import type { CurrentPlan } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { SubscriptionSection } from './subscription-section';

function renderSection(plan: CurrentPlan) {
  mockFetch([{ path: '/api/stripe/current-plan', body: plan }]);
  authStore.setSession('token', makeUser());
  return renderWithProviders(<SubscriptionSection />);
}

describe('the Abonnement section of /parameters', () => {
  it('shows the plan, its price and the way to the plans and the history', async () => {
    renderSection({
      source: 'organization',
      plan: { id: 'pro', name: 'Pro', description: '', monthlyPrice: 12, yearlyMonthlyPrice: 10, features: ['documents', 'alerts'] },
      subscription: { planId: 'pro', interval: 'year', status: 'active', quantity: 4, currentPeriodEnd: '2027-11-26T10:00:00.000Z' },
      features: ['documents', 'alerts'],
      canPay: true,
      provider: 'embedded',
    });
    const summary = await screen.findByText(/Abonnement/, { selector: 'p' });
    expect(summary.textContent?.replace(/\s/g, ' ')).toBe('Abonnement Pro (actif) — 10,00 € HT / véhicule / mois, 4 véhicules, jusqu’au 26/11/2027.');
    expect(screen.getByRole('link', { name: 'Voir les offres' })).toHaveAttribute('href', '/parameters/plans');
    expect(screen.getByRole('link', { name: 'Historique des paiements' })).toHaveAttribute('href', '/parameters/payment-history');
  });

  it('says what no plan leaves to come, without the history for a member', async () => {
    renderSection({ source: 'none', plan: null, subscription: null, features: [], canPay: false, provider: 'embedded' });
    expect(await screen.findByText(/Aucune offre souscrite/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir les offres' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Historique des paiements' })).not.toBeInTheDocument();
  });

  it('inside an environment: everything included, nothing to choose', async () => {
    renderSection({ source: 'environment', plan: null, subscription: null, features: ['documents', 'alerts'], canPay: false, provider: 'embedded' });
    expect(await screen.findByText(/facturée par son espace/)).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});

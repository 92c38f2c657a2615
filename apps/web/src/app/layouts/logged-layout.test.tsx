import { screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../lib/auth-store';
import { makeLink, makeUser, ORG_A, ORG_B, page } from '../../test/fixtures';
import { mockFetch } from '../../test/mock-fetch';
import { renderRoutes } from '../../test/render';
import LoggedLayout from './logged-layout';

const BILLED_BY_ENVIRONMENT = { source: 'environment', plan: null, subscription: null, features: ['documents', 'alerts'], canPay: false, provider: 'embedded' };

function renderShell(user = makeUser(), links = [makeLink(user, ORG_A, '7e000000-0000-4000-8000-0000000000a1')], unreadAlerts = 0, currentPlan: object = BILLED_BY_ENVIRONMENT) {
  const { calls } = mockFetch([
    { path: '/api/stripe/current-plan', body: currentPlan },
    { path: '/api/alert/unread-count', body: { count: unreadAlerts } },
    { path: '/api/organization-user', body: page(links) },
    { path: '/api/organization/environment', body: page([ORG_A, ORG_B]) },
    { path: '/api/environment/current', status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Aucun environnement' } },
  ]);
  authStore.setSession('token', user);
  return { ...renderRoutes([{ element: <LoggedLayout />, children: [{ path: 'dashboard', element: <h1>Page</h1> }] }], '/dashboard'), calls };
}

describe('logged layout', () => {
  it('asks a user who has not accepted the terms in force to accept them', async () => {
    renderShell(makeUser({ cguAcceptedVersion: '2025-01-01' }));
    expect(await screen.findByRole('dialog', { name: 'Nos conditions d’utilisation évoluent' })).toBeInTheDocument();
  });

  it('does not ask a user who accepted the terms in force', async () => {
    renderShell();
    await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  /** A user whose organization is outside any space: it pays for itself (an organization in a space has every feature, and its plan is not asked). */
  const billedAlone = () => makeUser({ currentOrganizationUser: { uuid: '7e000000-0000-4000-8000-0000000000a1', organization: { ...ORG_A, environment: null } } });

  it('locks « Gestion documentaire » and « Alertes prévention » (À venir) while the organization’s own plan lacks them', async () => {
    renderShell(billedAlone(), undefined, 0, { source: 'none', plan: null, subscription: null, features: [], canPay: true, provider: 'embedded' });
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    await waitFor(() => expect(within(nav).getAllByText('À venir')).toHaveLength(2));
    const locked = within(nav).getAllByRole('listitem').filter((item) => item.getAttribute('aria-disabled') === 'true');
    expect(locked.map((item) => item.textContent?.replace('À venir', '').trim())).toEqual(['Gestion documentaire', 'Alertes prévention']);
    expect(within(nav).queryByRole('link', { name: 'Gestion documentaire' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Véhicules' })).toBeInTheDocument();
  });

  it('asks the unread alerts’ count only once the plan is known to include the alerts (the API refuses it otherwise)', async () => {
    const locked = renderShell(billedAlone(), undefined, 3, { source: 'none', plan: null, subscription: null, features: [], canPay: true, provider: 'embedded' });
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    await waitFor(() => expect(within(nav).getAllByText('À venir')).toHaveLength(2));
    expect(locked.calls.map((call) => new URL(call.url).pathname)).not.toContain('/api/alert/unread-count');
    locked.unmount();

    const pro = { id: 'pro', name: 'Pro', description: '', monthlyPrice: 12, yearlyMonthlyPrice: 10, features: ['documents', 'alerts'] };
    renderShell(billedAlone(), undefined, 3, {
      source: 'organization',
      plan: pro,
      subscription: { planId: 'pro', interval: 'month', status: 'active', quantity: 2, currentPeriodEnd: null },
      features: ['documents', 'alerts'],
      canPay: true,
      provider: 'embedded',
    });
    const paid = await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(await within(paid).findByRole('link', { name: /Alertes prévention.*3/ })).toHaveAttribute('href', '/alerts');
  });

  it('opens what the plan unlocks: Essentiel opens the documents, not the alerts', async () => {
    const essentiel = { id: 'essentiel', name: 'Essentiel', description: '', monthlyPrice: 9, yearlyMonthlyPrice: 7.5, features: ['documents'] };
    renderShell(billedAlone(), undefined, 0, {
      source: 'organization',
      plan: essentiel,
      subscription: { planId: 'essentiel', interval: 'month', status: 'active', quantity: 2, currentPeriodEnd: null },
      features: ['documents'],
      canPay: true,
      provider: 'embedded',
    });
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    await waitFor(() => expect(within(nav).getAllByText('À venir')).toHaveLength(1));
    expect(within(nav).getByRole('link', { name: 'Gestion documentaire' })).toHaveAttribute('href', '/ged');
    expect(within(nav).queryByRole('link', { name: /Alertes prévention/ })).not.toBeInTheDocument();
  });

  it('lists the menu in SPEC order, every entry navigable now that the alerts have shipped', async () => {
    renderShell();
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    const items = within(nav).getAllByRole('listitem');
    expect(items.map((item) => item.textContent?.replace('À venir', '').trim())).toEqual([
      'Tableau de bord',
      'Sinistres',
      'Conducteurs',
      'Véhicules',
      'Gestion documentaire',
      'Alertes prévention',
      'Paramètres',
    ]);
    expect(within(nav).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Tableau de bord', '/dashboard'],
      ['Sinistres', '/sinisters'],
      ['Conducteurs', '/drivers'],
      ['Véhicules', '/vehicules'],
      ['Gestion documentaire', '/ged'],
      ['Alertes prévention', '/alerts'],
      ['Paramètres', '/parameters'],
    ]);
    expect(items.filter((item) => item.getAttribute('aria-disabled') === 'true')).toEqual([]);
    expect(within(nav).queryByText('À venir')).not.toBeInTheDocument();
    expect(screen.queryByText('Superadmin')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Menu root' })).not.toBeInTheDocument();
  });

  it('shows a static organization block for a single organization link', async () => {
    renderShell();
    expect(await screen.findByText('Transports Martin')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /changer d'organisation/i })).not.toBeInTheDocument();
  });

  it('shows the user name and best role, and the account link', async () => {
    renderShell();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: /Claire Dupont/ }));
    expect(screen.getAllByText('Administrateur').length).toBeGreaterThan(0);
    expect(await screen.findByRole('menuitem', { name: 'Paramètres compte' })).toHaveAttribute('href', '/account');
    expect(screen.getByRole('menuitem', { name: 'Se déconnecter' })).toBeInTheDocument();
  });

  it('shows the number of unread prevention alerts beside their entry, loaded after the menu', async () => {
    renderShell(makeUser(), undefined, 3);
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    const badge = await within(nav).findByLabelText('3 alertes non lues');
    expect(badge).toHaveTextContent('3');
    expect(within(nav).getByRole('link', { name: /Alertes prévention/ })).toContainElement(badge);
  });

  it('shows no badge when every alert is read', async () => {
    renderShell();
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(nav).queryByTestId('unread-alerts-badge')).not.toBeInTheDocument();
  });

  it('gives a superadmin its menu (organizations, alerts management and settings open) and a dropdown of the environment organizations', async () => {
    const superadmin = makeUser({ roles: ['SUPERADMIN'] });
    renderShell(superadmin);
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).getByText('Superadmin')).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Gestion alertes' })).toHaveAttribute('href', '/superadmin/alerts');
    expect(within(nav).getByRole('link', { name: 'Gestion organisations' })).toHaveAttribute('href', '/superadmin/organization');
    const settings = within(nav).getAllByRole('link', { name: 'Paramètres' }).map((link) => link.getAttribute('href'));
    expect(settings).toContain('/superadmin/settings');
    expect(within(nav).queryAllByText('À venir')).toHaveLength(0);
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: /changer d'organisation/i }));
    expect(await screen.findByRole('menuitem', { name: /Ambulances Durand/ })).toBeInTheDocument();
  });

  it('gives a ROOT user the root icon menu', async () => {
    renderShell(makeUser({ roles: ['ROOT'] }));
    const rootNav = await screen.findByRole('navigation', { name: 'Menu root' });
    expect(within(rootNav).getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute('href', '/dashboard');
    expect(within(rootNav).getByRole('link', { name: 'Espaces' })).toHaveAttribute('href', '/root/spaces');
  });

  it('welcomes a superadmin without organization with the environment title', async () => {
    // A superadmin on an empty environment (SPEC 2); another user without organization goes to the onboarding (decision 033).
    renderShell(
      makeUser({
        roles: ['SUPERADMIN'],
        currentOrganizationUser: null,
        currentEnvironmentUser: { uuid: '9a000000-0000-4000-8000-000000000001', environment: { uuid: ORG_A.environment!.uuid, title: 'Courtage Demo' } },
      }),
      [],
    );
    expect(await screen.findByText('Courtage Demo')).toBeInTheDocument();
    expect(
      screen.getByText('Bienvenue sur votre environnement, nous vous invitons à ajouter une première organisation.'),
    ).toBeInTheDocument();
  });

  it('opens and closes the mobile menu with a labelled button', async () => {
    renderShell();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Ouvrir le menu' }));
    const close = await screen.findByRole('button', { name: 'Fermer le menu' });
    await ui.click(close);
    await waitForElementToBeRemoved(() => screen.queryByRole('button', { name: 'Fermer le menu' }));
    expect(screen.getByRole('button', { name: 'Ouvrir le menu' })).toBeInTheDocument();
  });

  it('opens the support dialog from Aide et support', async () => {
    renderShell();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Aide et support' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aide et support' });
    expect(within(dialog).getByRole('button', { name: /Signaler un bug/ })).toBeInTheDocument();
  });
});

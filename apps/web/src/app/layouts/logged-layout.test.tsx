import { screen, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../lib/auth-store';
import { makeLink, makeUser, ORG_A, ORG_B, page } from '../../test/fixtures';
import { mockFetch } from '../../test/mock-fetch';
import { renderRoutes } from '../../test/render';
import LoggedLayout from './logged-layout';

function renderShell(user = makeUser(), links = [makeLink(user, ORG_A, '7e000000-0000-4000-8000-0000000000a1')]) {
  mockFetch([
    { path: '/api/organization-user', body: page(links) },
    { path: '/api/organization/environment', body: page([ORG_A, ORG_B]) },
    { path: '/api/environment/current', status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Aucun environnement' } },
  ]);
  authStore.setSession('token', user);
  return renderRoutes([{ element: <LoggedLayout />, children: [{ path: 'dashboard', element: <h1>Page</h1> }] }], '/dashboard');
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

  it('lists the menu in SPEC order, the registers navigable, the others locked with À venir', async () => {
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
      ['Paramètres', '/parameters'],
    ]);
    const locked = items.filter((item) => item.getAttribute('aria-disabled') === 'true');
    expect(locked).toHaveLength(2);
    for (const item of locked) expect(item).toHaveTextContent('À venir');
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

  it('gives a superadmin its menu, locked for now, and a dropdown of the environment organizations', async () => {
    const superadmin = makeUser({ roles: ['SUPERADMIN'] });
    renderShell(superadmin);
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).getByText('Superadmin')).toBeInTheDocument();
    for (const label of ['Gestion organisations', 'Gestion alertes']) {
      expect(within(nav).getByText(label).closest('li')).toHaveAttribute('aria-disabled', 'true');
    }
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

  it('welcomes a user without organization with the environment title', async () => {
    renderShell(
      makeUser({
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

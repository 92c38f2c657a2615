import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStore } from '../lib/auth-store';
import { makeLink, makeUser, ORG_A, page } from '../test/fixtures';
import { apiErrorBody, mockFetch } from '../test/mock-fetch';
import { renderRoutes } from '../test/render';
import { routes } from './router';

const user = makeUser();
const organizationUsers = { path: '/api/organization-user', body: page([makeLink(user, ORG_A, '7e000000-0000-4000-8000-0000000000a1')]) };

describe('routes', () => {
  it('answers an unknown route with the 404 page', async () => {
    renderRoutes(routes, '/nimporte-quoi');
    expect(await screen.findByRole('heading', { name: 'This page could not be found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
    await waitFor(() => expect(document.title).toBe('Page introuvable — FlotteAssur'));
  });

  it('sends a visitor without session through /refresh to the login page, keeping the destination', async () => {
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/auth/refresh-token', status: 401, body: apiErrorBody(401, 'Session expirée') },
      { method: 'POST', path: '/api/auth/login', body: { tokens: { access_token: 'token-1' }, user } },
      organizationUsers,
    ]);
    const { router } = renderRoutes(routes, '/dashboard?from=mail');

    // First visit: the refresh and login chunks are transformed on the fly, hence the timeout.
    expect(await screen.findByRole('heading', { name: 'Connexion' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(new URLSearchParams(router.state.location.search).get('route')).toBe('/dashboard?from=mail');
    expect(calls.some((c) => c.url.endsWith('/api/auth/refresh-token'))).toBe(true);
    await waitFor(() => expect(document.title).toBe('Connexion — FlotteAssur'));

    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText(/Adresse e-mail/), 'claire.dupont@demo.fr');
    await ui.type(screen.getByLabelText(/^Mot de passe/), 'Demo1234!');
    await ui.click(screen.getByRole('button', { name: 'Se connecter' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/dashboard?from=mail');
    expect(authStore.getState().token).toBe('token-1');
  });

  it('restores the session from the refresh cookie and returns to the page', async () => {
    mockFetch([
      { method: 'POST', path: '/api/auth/refresh-token', body: { tokens: { access_token: 'token-2' } } },
      { path: '/api/auth/me', body: user },
      organizationUsers,
    ]);
    const { router } = renderRoutes(routes, '/account');

    expect(await screen.findByRole('heading', { level: 1, name: 'Paramètres compte' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account');
    expect(screen.getByLabelText(/Téléphone/)).toHaveValue('06 12 34 56 78');
  });

  it('sends a logged-in user from the login page to the dashboard', async () => {
    mockFetch([organizationUsers]);
    authStore.setSession('token-3', user);
    const { router } = renderRoutes(routes, '/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(screen.getByText('Transports Martin', { selector: 'strong' })).toBeInTheDocument();
  });

  it('logs out: clears the session and goes back to the login page', async () => {
    const { calls } = mockFetch([organizationUsers, { method: 'POST', path: '/api/auth/logout', status: 204 }]);
    authStore.setSession('token-4', user);
    const { router } = renderRoutes(routes, '/dashboard');
    const ui = userEvent.setup();

    await ui.click(await screen.findByRole('button', { name: /Claire Dupont/ }));
    await ui.click(await screen.findByRole('menuitem', { name: 'Se déconnecter' }));

    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('');
    expect(authStore.getState()).toMatchObject({ token: null, user: null });
    const logout = calls.find((c) => c.url.endsWith('/api/auth/logout'));
    expect(logout?.headers.get('x-requested-with')).toBe('flotteassur');
  });

  it('shows French field errors from the contract and the API message on the login page', async () => {
    mockFetch([
      {
        method: 'POST',
        path: '/api/auth/login',
        status: 401,
        body: apiErrorBody(401, 'Adresse e-mail ou mot de passe incorrect'),
      },
    ]);
    renderRoutes(routes, '/');
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText("L'adresse e-mail est obligatoire")).toBeInTheDocument();
    expect(screen.getByText('Le mot de passe est obligatoire')).toBeInTheDocument();

    await ui.type(screen.getByLabelText(/Adresse e-mail/), 'claire.dupont@demo.fr');
    await ui.type(screen.getByLabelText(/^Mot de passe/), 'mauvais');
    await ui.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Adresse e-mail ou mot de passe incorrect');
  });

  it('opens the registers from the menu, the drivers list among them', async () => {
    mockFetch([
      organizationUsers,
      { path: '/api/driver', body: { data: [], page: 1, nbOfPages: 0, total: 0, nbOfArchived: 0, nbInActivity: 0 } },
    ]);
    authStore.setSession('token-5', user);
    const { router } = renderRoutes(routes, '/dashboard');
    const ui = userEvent.setup();
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });

    await ui.click(within(nav).getByRole('link', { name: 'Conducteurs' }));
    // First visit: the route chunk is transformed on the fly, hence the timeout.
    expect(await screen.findByRole('heading', { level: 1, name: 'Conducteurs' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/drivers');
    expect(await screen.findByText('Aucun conducteur pour le moment. Ajoutez votre premier conducteur.')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Conducteurs — FlotteAssur'));

    await ui.click(within(nav).getByRole('link', { name: 'Véhicules' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Véhicules' }, { timeout: 5000 })).toBeInTheDocument();
    await ui.click(within(nav).getByRole('link', { name: 'Sinistres' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sinistres' }, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sinistres — FlotteAssur'));
  });

  it('offers links to password recovery and account creation', async () => {
    renderRoutes(routes, '/');
    expect(await screen.findByRole('link', { name: 'Mot de passe oublié ?' })).toHaveAttribute('href', '/recover');
    expect(screen.getByRole('link', { name: 'Créer un compte' })).toHaveAttribute('href', '/signup');
  });
});

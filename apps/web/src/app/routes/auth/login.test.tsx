import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import LoginRoute from './login';

const user = makeUser();

/** The login page alone, without the app's providers: it must need neither MUI nor TanStack Query. */
function renderLogin(path = '/') {
  const router = createMemoryRouter(
    [
      { path: '/', element: <LoginRoute /> },
      { path: '/dashboard', element: <h1>Tableau de bord</h1> },
      { path: '/vehicules', element: <h1>Véhicules</h1> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { router, ui: userEvent.setup() };
}

const emailField = () => screen.getByLabelText(/Adresse e-mail/);
const passwordField = () => screen.getByLabelText(/^Mot de passe/);
const submit = () => screen.getByRole('button', { name: 'Se connecter' });

describe('login page', () => {
  it('shows the page: heading, fields with their autocomplete, links, the e-mail focused', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Connexion' })).toBeInTheDocument();
    expect(screen.getByText('Connectez-vous pour accéder à votre espace.')).toBeInTheDocument();
    expect(emailField()).toHaveFocus();
    expect(emailField()).toHaveAttribute('autocomplete', 'email');
    expect(passwordField()).toHaveAttribute('autocomplete', 'current-password');
    expect(passwordField()).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Mot de passe oublié ?' })).toHaveAttribute('href', '/recover');
    expect(screen.getByRole('link', { name: 'Créer un compte' })).toHaveAttribute('href', '/signup');
    expect(screen.getByText('La gestion de votre flotte et de son assurance, simplement.')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByText(`© ${new Date().getFullYear()} FlotteAssur`)).toBeInTheDocument();
  });

  it('shows and hides the password', async () => {
    const { ui } = renderLogin();
    await ui.click(screen.getByRole('button', { name: 'Afficher le mot de passe' }));
    expect(passwordField()).toHaveAttribute('type', 'text');
    await ui.click(screen.getByRole('button', { name: 'Masquer le mot de passe' }));
    expect(passwordField()).toHaveAttribute('type', 'password');
  });

  it('checks the fields before sending, with the contract’s messages tied to the fields', async () => {
    const { fetchMock } = mockFetch([]);
    const { ui } = renderLogin();

    await ui.click(submit());
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    expect(emailField()).toHaveAccessibleDescription("L'adresse e-mail est obligatoire");
    expect(passwordField()).toHaveAccessibleDescription('Le mot de passe est obligatoire');
    expect(emailField()).toHaveFocus();

    await ui.type(emailField(), 'claire@demo');
    expect(emailField()).toHaveAccessibleDescription('Adresse e-mail invalide');
    await ui.type(emailField(), '.fr');
    expect(emailField()).not.toHaveAttribute('aria-invalid');
    expect(emailField()).not.toHaveAttribute('aria-describedby');

    await ui.click(submit());
    expect(passwordField()).toHaveFocus();
    await ui.click(passwordField());
    await ui.paste('x'.repeat(201));
    expect(passwordField()).toHaveAccessibleDescription('Le mot de passe : 200 caractères maximum');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('logs in: sends the e-mail as the contract outputs it, stores the session, goes to ?route=', async () => {
    const { calls } = mockFetch([{ method: 'POST', path: '/api/auth/login', body: { tokens: { access_token: 'token-1' }, user } }]);
    const { router, ui } = renderLogin('/?route=%2Fvehicules%3Fpage%3D2');

    await ui.type(emailField(), '  Claire.Dupont@Demo.FR ');
    await ui.type(passwordField(), ' Demo1234! ');
    await ui.click(submit());

    expect(await screen.findByRole('heading', { name: 'Véhicules' })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/vehicules?page=2');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(authStore.getState()).toMatchObject({ token: 'token-1', user, loggedOut: false });
    expect(calls).toHaveLength(1);
    expect(await calls[0]!.json()).toEqual({ email: 'claire.dupont@demo.fr', password: ' Demo1234! ' });
    expect(calls[0]!.headers.get('x-requested-with')).toBe('flotteassur');
  });

  it('sends a logged-in user to the ?route= target', async () => {
    authStore.setSession('token-2', user);
    const { router } = renderLogin('/?route=%2Fvehicules');
    expect(await screen.findByRole('heading', { name: 'Véhicules' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/vehicules');
  });

  it('sends a logged-in user to the dashboard when ?route= leaves the site', async () => {
    authStore.setSession('token-2', user);
    const { router } = renderLogin('/?route=%2F%2Fevil.example');
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shows the API’s message in the alert and its details on the fields', async () => {
    mockFetch([
      {
        method: 'POST',
        path: '/api/auth/login',
        status: 400,
        body: apiErrorBody(400, 'Données invalides', [
          { path: 'email', message: 'Adresse e-mail refusée par le serveur' },
          { path: 'organization', message: 'ignorée' },
        ]),
      },
    ]);
    const { ui, router } = renderLogin();
    await ui.type(emailField(), 'claire.dupont@demo.fr');
    await ui.type(passwordField(), 'Demo1234!');
    await ui.click(submit());

    expect(await screen.findByRole('alert')).toHaveTextContent('Données invalides');
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    expect(emailField()).toHaveAccessibleDescription('Adresse e-mail refusée par le serveur');
    expect(passwordField()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('ignorée')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(authStore.getState().token).toBeNull();

    // Typing in the field checks it again: the server's error on it goes.
    await ui.type(emailField(), 'x');
    expect(emailField()).not.toHaveAttribute('aria-invalid');
  });

  it('shows a 429’s message', async () => {
    mockFetch([
      {
        method: 'POST',
        path: '/api/auth/login',
        status: 429,
        headers: { 'retry-after': '60' },
        body: apiErrorBody(429, 'Trop de tentatives de connexion. Réessayez dans une minute.'),
      },
    ]);
    const { ui } = renderLogin();
    await ui.type(emailField(), 'claire.dupont@demo.fr');
    await ui.type(passwordField(), 'Demo1234!');
    await ui.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Trop de tentatives de connexion. Réessayez dans une minute.');
  });

  it('says when the server cannot be reached, and when its answer is not a login', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockRejectedValueOnce(new TypeError('Failed to fetch'));
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ tokens: {} }), { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { ui } = renderLogin();
    await ui.type(emailField(), 'claire.dupont@demo.fr');
    await ui.type(passwordField(), 'Demo1234!');

    await ui.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Impossible de joindre le serveur. Vérifiez votre connexion puis réessayez.');

    await ui.click(submit());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Réponse inattendue du serveur. Veuillez réessayer.'));
    expect(warn).toHaveBeenCalled();
    expect(authStore.getState().token).toBeNull();
  });

  it('shows the loading state while sending and sends once however often it is clicked', async () => {
    let answer!: (response: Response) => void;
    const fetchMock = vi.fn<typeof fetch>(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const { ui } = renderLogin();
    await ui.type(emailField(), 'claire.dupont@demo.fr');
    await ui.type(passwordField(), 'Demo1234!');

    await ui.click(submit());
    expect(submit()).toBeDisabled();
    expect(submit()).toHaveAttribute('aria-busy', 'true');
    await ui.click(submit());
    await ui.type(passwordField(), '{Enter}');
    expect(fetchMock).toHaveBeenCalledTimes(1);

    answer(new Response(JSON.stringify({ tokens: { access_token: 'token-3' }, user }), { status: 200, headers: { 'content-type': 'application/json' } }));
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(authStore.getState().token).toBe('token-3');
  });
});

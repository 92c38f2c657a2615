import { CGU_VERSION, EMAIL_NOT_CONFIRMED_MESSAGE, SIGNUP_LINK_INVALID_MESSAGE, SIGNUP_REQUESTED_MESSAGE } from '@flotte/contract';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from '../../../features/auth/components/login-form';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import SignupRoute from './signup';
import SignupConfirmationRoute from './signup-confirmation';

afterEach(() => {
  vi.unstubAllGlobals();
  authStore.clear('logout');
});

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <LoginForm onSuccess={() => undefined} onChallenge={() => undefined} /> },
      { path: '/signup', element: <SignupRoute /> },
      { path: '/signup/confirmation', element: <SignupConfirmationRoute /> },
      { path: '/onboarding', element: <h1>Accueil</h1> },
      { path: '/cgu', element: <h1>CGU</h1> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { router, ui: userEvent.setup() };
}

const bodyOf = async (request: Request) => (await request.clone().json()) as Record<string, unknown>;
const PASSWORD = 'Une flotte bien rangée 2026';

async function fill(ui: ReturnType<typeof userEvent.setup>, { password = PASSWORD, cgu = true } = {}) {
  await ui.type(screen.getByLabelText(/Prénom/), 'Léa');
  await ui.type(screen.getByLabelText(/^Nom/), 'Moreau');
  await ui.type(screen.getByLabelText(/Adresse e-mail/), 'Lea.Moreau@Exemple.fr');
  await ui.type(screen.getByLabelText(/^Mot de passe/), password);
  if (cgu) await ui.click(screen.getByRole('checkbox', { name: /conditions générales/ }));
}

describe('signup', () => {
  it('sends the names, the address, the password and the CGU version in force, then explains what to do', async () => {
    const { calls } = mockFetch([{ method: 'POST', path: '/api/auth/signup', status: 202, body: { message: SIGNUP_REQUESTED_MESSAGE } }]);
    const { ui, router } = renderAt('/signup');
    expect(screen.getByRole('link', { name: 'conditions générales d’utilisation' })).toHaveAttribute('href', '/cgu');
    await fill(ui);
    expect(screen.getByText(/Robustesse : Excellent/)).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Vérifiez votre messagerie' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?email=lea.moreau%40exemple.fr');
    expect(await bodyOf(calls[0]!)).toEqual({ firstName: 'Léa', lastName: 'Moreau', email: 'lea.moreau@exemple.fr', password: PASSWORD, cguVersion: CGU_VERSION });
    expect(screen.getByText('lea.moreau@exemple.fr')).toBeInTheDocument();
    expect(screen.getByText(/courriers indésirables/)).toBeInTheDocument();
  });

  it('checks every field before sending: a weak password and an unticked CGU are refused in French', async () => {
    const { calls } = mockFetch([]);
    const { ui } = renderAt('/signup');
    await ui.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    expect(await screen.findByText('Le prénom est obligatoire')).toBeInTheDocument();
    expect(screen.getByText("L'adresse e-mail est obligatoire")).toBeInTheDocument();
    expect(screen.getByText('Acceptez les conditions générales d’utilisation pour créer votre compte')).toBeInTheDocument();
    await fill(ui, { password: 'azerty123456', cgu: false });
    expect(screen.getByText(/Robustesse : Trop courant/)).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    expect(await screen.findByText('Ce mot de passe figure parmi les plus utilisés : choisissez-en un autre')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows the API’s limit (429) and its field errors', async () => {
    mockFetch([
      {
        method: 'POST',
        path: '/api/auth/signup',
        respond: (_request, call) =>
          call === 1
            ? { status: 400, body: apiErrorBody(400, 'Données invalides', [{ path: 'cguVersion', message: 'Ces conditions ne sont plus les dernières : rechargez la page pour lire la version en vigueur.' }]) }
            : { status: 429, body: apiErrorBody(429, 'Trop de demandes pour cette adresse. Réessayez dans 28 minutes.'), headers: { 'retry-after': '1680' } },
      },
    ]);
    const { ui } = renderAt('/signup');
    await fill(ui);
    await ui.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    expect(await screen.findByText(/Ces conditions ne sont plus les dernières/)).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    expect(await screen.findByText('Trop de demandes pour cette adresse. Réessayez dans 28 minutes.')).toBeInTheDocument();
  });
});

describe('signup confirmation', () => {
  it('resends the e-mail to the address given, and shows the limit', async () => {
    const { calls } = mockFetch([
      {
        method: 'POST',
        path: '/api/auth/signup/resend',
        respond: (_request, call) =>
          call === 1 ? { status: 202, body: { message: SIGNUP_REQUESTED_MESSAGE } } : { status: 429, body: apiErrorBody(429, 'Trop de demandes pour cette adresse. Réessayez dans 29 minutes.') },
      },
    ]);
    const { ui } = renderAt('/signup/confirmation?email=lea%40exemple.fr');
    await ui.click(screen.getByRole('button', { name: 'Renvoyer l’e-mail' }));
    expect(await screen.findByText(SIGNUP_REQUESTED_MESSAGE)).toBeInTheDocument();
    expect(await bodyOf(calls[0]!)).toEqual({ email: 'lea@exemple.fr' });
    await ui.click(screen.getByRole('button', { name: 'Renvoyer l’e-mail' }));
    expect(await screen.findByText('Trop de demandes pour cette adresse. Réessayez dans 29 minutes.')).toBeInTheDocument();
  });

  it('opens the link once: signs in and goes on to the onboarding', async () => {
    const user = makeUser({ roles: ['USER'], currentOrganizationUser: null, onboardingStep: 'welcome' });
    const { calls } = mockFetch([{ method: 'POST', path: '/api/auth/signup/confirm', body: { tokens: { access_token: 'jeton-acces' }, user } }]);
    const { router } = renderAt('/signup/confirmation?token=jeton-0123456789');
    expect(await screen.findByRole('heading', { level: 1, name: 'Accueil' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/onboarding');
    expect(calls).toHaveLength(1);
    expect(await bodyOf(calls[0]!)).toEqual({ token: 'jeton-0123456789' });
    expect(authStore.getState()).toMatchObject({ token: 'jeton-acces', user: { email: user.email } });
  });

  it('an expired or used link: the one French message, and the way to a new one', async () => {
    mockFetch([
      { method: 'POST', path: '/api/auth/signup/confirm', status: 400, body: apiErrorBody(400, SIGNUP_LINK_INVALID_MESSAGE, [{ path: 'token', message: SIGNUP_LINK_INVALID_MESSAGE }]) },
      { method: 'POST', path: '/api/auth/signup/resend', status: 202, body: { message: SIGNUP_REQUESTED_MESSAGE } },
    ]);
    const { ui } = renderAt('/signup/confirmation?token=jeton-perime');
    expect(await screen.findByText(SIGNUP_LINK_INVALID_MESSAGE)).toBeInTheDocument();
    expect(authStore.getState().token).toBeNull();
    await ui.type(screen.getByLabelText(/Adresse e-mail/), 'lea@exemple.fr');
    await ui.click(screen.getByRole('button', { name: 'Renvoyer l’e-mail' }));
    expect(await screen.findByText(SIGNUP_REQUESTED_MESSAGE)).toBeInTheDocument();
  });
});

describe('login of an unconfirmed account', () => {
  it('says so and offers to resend the link, with the address', async () => {
    mockFetch([{ method: 'POST', path: '/api/auth/login', status: 403, body: apiErrorBody(403, EMAIL_NOT_CONFIRMED_MESSAGE, [{ path: 'email', message: EMAIL_NOT_CONFIRMED_MESSAGE }]) }]);
    const { ui, router } = renderAt('/');
    await ui.type(screen.getByLabelText(/Adresse e-mail/), 'lea@exemple.fr');
    await ui.type(screen.getByLabelText(/Mot de passe/), PASSWORD);
    await ui.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText(EMAIL_NOT_CONFIRMED_MESSAGE)).toBeInTheDocument();
    await ui.click(screen.getByRole('link', { name: 'Renvoyer l’e-mail de confirmation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup/confirmation'));
    expect(screen.getByLabelText(/Adresse e-mail/)).toHaveValue('lea@exemple.fr');
    expect(authStore.getState().token).toBeNull();
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import LoginRoute from '../../../app/routes/auth/login';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';

const user = makeUser();
const challenge = { challenge: 'defi-1', mode: 'code', expiresAt: '2026-11-26T10:05:00.000Z' };
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h1v1H0z"/></svg>';

function renderLogin() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <LoginRoute /> },
      { path: '/dashboard', element: <h1>Tableau de bord</h1> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return { router, ui: userEvent.setup() };
}

async function passPassword(ui: ReturnType<typeof userEvent.setup>) {
  await ui.type(screen.getByLabelText(/Adresse e-mail/), 'claire.dupont@demo.fr');
  await ui.type(screen.getByLabelText(/^Mot de passe/), 'Demo1234!');
  await ui.click(screen.getByRole('button', { name: 'Se connecter' }));
}

afterEach(() => authStore.reset());

describe('login: the second step of two-factor sign-in', () => {
  it('asks for the code after the password, then opens the session with « Se souvenir de cet appareil »', async () => {
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/auth/login', body: challenge },
      { method: 'POST', path: '/api/auth/login/totp', body: { tokens: { access_token: 'token-2fa' }, user } },
    ]);
    const { ui, router } = renderLogin();
    await passPassword(ui);

    expect(await screen.findByRole('heading', { level: 1, name: 'Double authentification' })).toBeInTheDocument();
    expect(authStore.getState().token).toBeNull();
    const code = await screen.findByLabelText(/^Code de vérification/);
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');

    // Checked before sending, in French.
    await ui.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(code).toHaveAccessibleDescription('Le code est obligatoire');
    await ui.type(code, '12a');
    expect(code).toHaveAccessibleDescription('Code invalide : 6 chiffres attendus');
    expect(calls).toHaveLength(1);

    await ui.clear(code);
    await ui.type(code, '123 456');
    await ui.click(screen.getByRole('checkbox', { name: 'Se souvenir de cet appareil pendant 30 jours' }));
    await ui.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(authStore.getState()).toMatchObject({ token: 'token-2fa', user });
    expect(await calls[1]!.json()).toEqual({ challenge: 'defi-1', code: '123 456', rememberDevice: true });
  });

  it('takes a recovery code instead, and shows a wrong one on the field', async () => {
    let tries = 0;
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/auth/login', body: challenge },
      {
        method: 'POST',
        path: '/api/auth/login/totp',
        respond: () =>
          tries++ === 0
            ? { status: 400, body: apiErrorBody(400, 'Code de secours incorrect ou déjà utilisé.', [{ path: 'recoveryCode', message: 'Code de secours incorrect ou déjà utilisé.' }]) }
            : { body: { tokens: { access_token: 'token-secours' }, user } },
      },
    ]);
    const { ui } = renderLogin();
    await passPassword(ui);
    await ui.click(await screen.findByRole('button', { name: 'Utiliser un code de secours' }));
    const field = screen.getByLabelText(/^Code de secours/);
    expect(field).toHaveFocus();
    await ui.type(field, 'abcde-2345');
    await ui.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(field).toHaveAccessibleDescription('Code de secours invalide : 10 lettres ou chiffres attendus (ex. abcde-23456)');
    await ui.type(field, '6');
    await ui.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Code de secours incorrect ou déjà utilisé.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Code de secours/)).toHaveAttribute('aria-invalid', 'true');
    expect(authStore.getState().token).toBeNull();

    await ui.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(await calls[2]!.json()).toEqual({ challenge: 'defi-1', recoveryCode: 'abcde-23456', rememberDevice: false });
  });

  it('shows an expired challenge’s message and goes back to the password', async () => {
    mockFetch([
      { method: 'POST', path: '/api/auth/login', body: challenge },
      { method: 'POST', path: '/api/auth/login/totp', status: 401, body: apiErrorBody(401, 'Étape de connexion invalide ou expirée : saisissez à nouveau votre mot de passe.') },
    ]);
    const { ui } = renderLogin();
    await passPassword(ui);
    await ui.type(await screen.findByLabelText(/^Code de vérification/), '123456');
    await ui.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Étape de connexion invalide ou expirée');
    await ui.click(screen.getByRole('button', { name: 'Retour à la connexion' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Connexion' })).toBeInTheDocument();
  });

  it('makes a superadmin whose environment requires it set it up: QR code, key, code, then the recovery codes before the session', async () => {
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/auth/login', body: { ...challenge, mode: 'setup' } },
      { method: 'POST', path: '/api/auth/login/totp/setup', body: { secret: 'ABCD EFGH IJKL', otpauthUrl: 'otpauth://totp/x', qrCodeSvg: SVG } },
      {
        method: 'POST',
        path: '/api/auth/login/totp',
        body: { tokens: { access_token: 'token-setup' }, user, recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'] },
      },
    ]);
    const { ui } = renderLogin();
    await passPassword(ui);
    expect(await screen.findByRole('img', { name: 'QR code à scanner avec votre application d’authentification' })).toHaveAttribute('src', expect.stringContaining('data:image/svg+xml'));
    expect(screen.getByText('ABCD EFGH IJKL')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Utiliser un code de secours' })).not.toBeInTheDocument();
    await ui.type(screen.getByLabelText(/^Code de vérification/), '654321');
    await ui.click(screen.getByRole('button', { name: 'Activer et se connecter' }));

    expect(await screen.findByRole('list', { name: 'Codes de secours' })).toHaveTextContent('aaaaa-bbbbb');
    expect(screen.getByRole('button', { name: 'Télécharger (.txt)' })).toBeInTheDocument();
    expect(authStore.getState().token).toBeNull();
    await ui.click(screen.getByRole('button', { name: 'J’ai noté mes codes, continuer' }));
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(authStore.getState().token).toBe('token-setup');
    expect(await calls[1]!.json()).toEqual({ challenge: 'defi-1' });
  });
});

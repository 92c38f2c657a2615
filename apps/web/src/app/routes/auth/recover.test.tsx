import { RECOVERY_LINK_INVALID_MESSAGE, RECOVERY_REQUESTED_MESSAGE, passwordStrength } from '@flotte/contract';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import RecoverRoute from './recover';
import RecoverConfirmationRoute from './recover-confirmation';
import RecoverEmailRoute from './recover-email';
import RecoverPasswordRoute from './recover-password';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderRecovery(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <h1>Connexion</h1> },
      { path: '/recover', element: <RecoverRoute /> },
      { path: '/recover/email', element: <RecoverEmailRoute /> },
      { path: '/recover/password', element: <RecoverPasswordRoute /> },
      { path: '/recover/confirmation', element: <RecoverConfirmationRoute /> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { router, ui: userEvent.setup() };
}

const bodyOf = async (request: Request) => (await request.clone().json()) as Record<string, unknown>;

describe('password recovery: the e-mail', () => {
  it('/recover leads to /recover/email, keeping a given address', async () => {
    const { router } = renderRecovery('/recover?email=jeanne%40exemple.fr');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mot de passe oublié' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recover/email');
    expect(screen.getByLabelText(/Adresse e-mail/)).toHaveValue('jeanne@exemple.fr');
  });

  it('sends the address and says what the API says, whatever the address; the link can be sent again', async () => {
    const { calls } = mockFetch([{ method: 'POST', path: '/api/auth/recover', status: 202, body: { message: RECOVERY_REQUESTED_MESSAGE } }]);
    const { ui } = renderRecovery('/recover/email');
    await ui.type(screen.getByLabelText(/Adresse e-mail/), 'Jeanne@Exemple.fr');
    await ui.click(screen.getByRole('button', { name: 'Recevoir le lien' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Vérifiez votre messagerie' })).toBeInTheDocument();
    expect(screen.getByText(RECOVERY_REQUESTED_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText('jeanne@exemple.fr')).toBeInTheDocument();
    expect(await bodyOf(calls[0]!)).toEqual({ email: 'jeanne@exemple.fr' });
    await ui.click(screen.getByRole('button', { name: 'Renvoyer le lien' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(screen.getByRole('link', { name: 'Retour à la connexion' })).toHaveAttribute('href', '/');
  });

  it('checks the address before sending, and shows the limit the API sets (429) in French', async () => {
    const limited = 'Trop de demandes de réinitialisation. Réessayez dans 28 minutes.';
    const { calls } = mockFetch([{ method: 'POST', path: '/api/auth/recover', status: 429, body: apiErrorBody(429, limited), headers: { 'retry-after': '1680' } }]);
    const { ui } = renderRecovery('/recover/email');
    await ui.click(screen.getByRole('button', { name: 'Recevoir le lien' }));
    expect(await screen.findByText("L'adresse e-mail est obligatoire")).toBeInTheDocument();
    await ui.type(screen.getByLabelText(/Adresse e-mail/), 'pas-une-adresse');
    await ui.click(screen.getByRole('button', { name: 'Recevoir le lien' }));
    expect(await screen.findByText('Adresse e-mail invalide')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await ui.clear(screen.getByLabelText(/Adresse e-mail/));
    await ui.type(screen.getByLabelText(/Adresse e-mail/), 'jeanne@exemple.fr');
    await ui.click(screen.getByRole('button', { name: 'Recevoir le lien' }));
    expect(await screen.findByText(limited)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Mot de passe oublié' })).toBeInTheDocument();
  });
});

describe('password recovery: the new password', () => {
  const TOKEN = 'jeton-de-test-0123456789';
  const PASSWORD = 'Une phrase bien à moi 2026';

  it('checks the link, shows whose account it opens, measures the password, and leads to the confirmation', async () => {
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/auth/recover/check', body: { email: 'j•••••@exemple.fr', expiresAt: '2026-11-26T10:00:00.000Z' } },
      { method: 'POST', path: '/api/auth/recover/password', status: 204 },
    ]);
    const { ui, router } = renderRecovery(`/recover/password?token=${TOKEN}`);
    expect(await screen.findByText('j•••••@exemple.fr')).toBeInTheDocument();
    expect(await bodyOf(calls[0]!)).toEqual({ token: TOKEN });

    const field = screen.getByLabelText(/^Nouveau mot de passe/);
    await ui.type(field, 'court');
    expect(screen.getByText(/Robustesse : Trop court/)).toBeInTheDocument();
    await ui.clear(field);
    await ui.type(field, PASSWORD);
    expect(screen.getByText(`Robustesse : ${passwordStrength(PASSWORD).label}`)).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Afficher le mot de passe' }));
    expect(field).toHaveAttribute('type', 'text');

    await ui.type(screen.getByLabelText(/^Confirmez le mot de passe/), 'Autre chose encore 12');
    await ui.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByText('Les deux mots de passe ne sont pas identiques')).toBeInTheDocument();
    expect(calls).toHaveLength(1);

    await ui.clear(screen.getByLabelText(/^Confirmez le mot de passe/));
    await ui.type(screen.getByLabelText(/^Confirmez le mot de passe/), PASSWORD);
    await ui.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Mot de passe modifié' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/recover/confirmation');
    expect(await bodyOf(calls[1]!)).toEqual({ token: TOKEN, password: PASSWORD, confirmation: PASSWORD });
    expect(screen.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/');
  });

  it('refuses a common password before sending it', async () => {
    const { calls } = mockFetch([{ method: 'POST', path: '/api/auth/recover/check', body: { email: 'j•••@exemple.fr', expiresAt: '2026-11-26T10:00:00.000Z' } }]);
    const { ui } = renderRecovery(`/recover/password?token=${TOKEN}`);
    await ui.type(await screen.findByLabelText(/^Nouveau mot de passe/), 'azerty123456');
    expect(screen.getByText(/Robustesse : Trop courant/)).toBeInTheDocument();
    await ui.type(screen.getByLabelText(/^Confirmez le mot de passe/), 'azerty123456');
    await ui.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByText('Ce mot de passe figure parmi les plus utilisés : choisissez-en un autre')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it('says a dead link is dead, and offers a new one', async () => {
    mockFetch([{ method: 'POST', path: '/api/auth/recover/check', status: 400, body: apiErrorBody(400, RECOVERY_LINK_INVALID_MESSAGE, [{ path: 'token', message: RECOVERY_LINK_INVALID_MESSAGE }]) }]);
    renderRecovery(`/recover/password?token=${TOKEN}`);
    expect(await screen.findByText(RECOVERY_LINK_INVALID_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' })).toHaveAttribute('href', '/recover/email');
    expect(screen.queryByLabelText(/^Nouveau mot de passe/)).not.toBeInTheDocument();
  });

  it('without a token, asks nothing and offers a new link', async () => {
    const { calls } = mockFetch([]);
    renderRecovery('/recover/password');
    expect(await screen.findByText(RECOVERY_LINK_INVALID_MESSAGE)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('a link spent meanwhile (used from another tab) turns the form into the dead-link message', async () => {
    mockFetch([
      { method: 'POST', path: '/api/auth/recover/check', body: { email: 'j•••@exemple.fr', expiresAt: '2026-11-26T10:00:00.000Z' } },
      { method: 'POST', path: '/api/auth/recover/password', status: 400, body: apiErrorBody(400, RECOVERY_LINK_INVALID_MESSAGE, [{ path: 'token', message: RECOVERY_LINK_INVALID_MESSAGE }]) },
    ]);
    const { ui } = renderRecovery(`/recover/password?token=${TOKEN}`);
    await ui.type(await screen.findByLabelText(/^Nouveau mot de passe/), PASSWORD);
    await ui.type(screen.getByLabelText(/^Confirmez le mot de passe/), PASSWORD);
    await ui.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByText(RECOVERY_LINK_INVALID_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' })).toBeInTheDocument();
  });
});

describe('password strength', () => {
  it('grades from too short to excellent, and names the common ones', () => {
    expect(passwordStrength('court')).toMatchObject({ score: 0, label: 'Trop court', hint: 'Encore 7 caractères au moins.' });
    expect(passwordStrength('MotDePasse12')).toMatchObject({ score: 0, label: 'Trop courant' });
    expect(passwordStrength('aaaaaaaaaaaaaaaaaaaa')).toMatchObject({ score: 1, label: 'Faible' });
    expect(passwordStrength('abcdefghijkl').score).toBeLessThanOrEqual(2);
    expect(passwordStrength('Une phrase bien à moi 2026')).toMatchObject({ score: 4, label: 'Excellent', hint: null });
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { snackbar } from '../../../components/snackbar/snackbar';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { PasswordForm } from './password-form';

const NEW_PASSWORD = 'Trois mots et un chiffre 7';

function renderForm() {
  authStore.setSession('ancien-jeton', makeUser());
  renderWithProviders(
    <>
      <PasswordForm />
      <SnackbarHost />
    </>,
  );
  return userEvent.setup();
}

afterEach(() => {
  snackbar.hide();
  authStore.reset();
});

describe('<PasswordForm />', () => {
  it('changes the password, keeps this session with the new token, and says other sessions ended', async () => {
    const { calls } = mockFetch([{ method: 'POST', path: '/api/auth/password', body: { tokens: { access_token: 'nouveau-jeton' } } }]);
    const ui = renderForm();
    await ui.type(screen.getByLabelText(/^Mot de passe actuel/), 'Demo1234!');
    await ui.type(screen.getByLabelText(/^Nouveau mot de passe/), NEW_PASSWORD);
    expect(screen.getByText('Robustesse : Excellent')).toBeInTheDocument();
    await ui.type(screen.getByLabelText(/^Confirmez le nouveau mot de passe/), NEW_PASSWORD);
    await ui.click(screen.getByRole('button', { name: 'Changer le mot de passe' }));
    expect(await screen.findByText('Mot de passe modifié')).toBeInTheDocument();
    expect(screen.getByText('Vos sessions sur les autres appareils ont été fermées.')).toBeInTheDocument();
    expect(await calls[0]!.json()).toEqual({ currentPassword: 'Demo1234!', newPassword: NEW_PASSWORD });
    expect(authStore.getState().token).toBe('nouveau-jeton');
    expect(screen.getByLabelText(/^Mot de passe actuel/)).toHaveValue('');
  });

  it('checks before sending: the confirmation, the length, a new password that is the current one', async () => {
    const { calls } = mockFetch([]);
    const ui = renderForm();
    await ui.click(screen.getByRole('button', { name: 'Changer le mot de passe' }));
    expect(await screen.findByText('Le mot de passe actuel est obligatoire')).toBeInTheDocument();
    await ui.type(screen.getByLabelText(/^Mot de passe actuel/), NEW_PASSWORD);
    await ui.type(screen.getByLabelText(/^Nouveau mot de passe/), NEW_PASSWORD);
    await ui.type(screen.getByLabelText(/^Confirmez le nouveau mot de passe/), 'autre chose encore');
    await ui.click(screen.getByRole('button', { name: 'Changer le mot de passe' }));
    expect(await screen.findByText('Les deux mots de passe ne sont pas identiques')).toBeInTheDocument();
    expect(screen.getByText("Le nouveau mot de passe doit être différent de l'actuel")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('puts a wrong current password under its field, in French', async () => {
    const wrong = 'Mot de passe actuel incorrect';
    mockFetch([{ method: 'POST', path: '/api/auth/password', status: 400, body: apiErrorBody(400, wrong, [{ path: 'currentPassword', message: wrong }]) }]);
    const ui = renderForm();
    await ui.type(screen.getByLabelText(/^Mot de passe actuel/), 'pas le bon');
    await ui.type(screen.getByLabelText(/^Nouveau mot de passe/), NEW_PASSWORD);
    await ui.type(screen.getByLabelText(/^Confirmez le nouveau mot de passe/), NEW_PASSWORD);
    await ui.click(screen.getByRole('button', { name: 'Changer le mot de passe' }));
    expect(await screen.findByText('Mot de passe inchangé')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Mot de passe actuel/)).toHaveAccessibleDescription(wrong);
    expect(authStore.getState().token).toBe('ancien-jeton');
  });
});

import { emailChangeRequestedMessage } from '@flotte/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { snackbar } from '../../../components/snackbar/snackbar';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { EmailConfirmation } from './email-confirmation';
import { EmailSection } from './email-section';

afterEach(() => {
  snackbar.hide();
  authStore.reset();
});

describe('<EmailSection />', () => {
  it('sends the new address with the password and says where the link went', async () => {
    const me = makeUser();
    authStore.setSession('jeton', me);
    const { calls } = mockFetch([{ method: 'POST', path: '/api/user/email', status: 202, body: { message: emailChangeRequestedMessage('nouvelle@exemple.fr') } }]);
    renderWithProviders(<EmailSection user={me} />);
    expect(screen.getByText(me.email)).toBeInTheDocument();
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText(/Nouvelle adresse e-mail/), 'Nouvelle@Exemple.fr');
    await ui.type(screen.getByLabelText(/Mot de passe actuel/), 'Demo1234!');
    await ui.click(screen.getByRole('button', { name: 'Changer d’adresse' }));
    expect(await screen.findByText(emailChangeRequestedMessage('nouvelle@exemple.fr'))).toBeInTheDocument();
    expect(await calls[0]!.json()).toEqual({ newEmail: 'nouvelle@exemple.fr', currentPassword: 'Demo1234!' });
    expect(screen.getByLabelText(/Mot de passe actuel/)).toHaveValue('');
  });

  it('checks before sending, and puts a wrong password under its field', async () => {
    const me = makeUser();
    authStore.setSession('jeton', me);
    const wrong = 'Mot de passe actuel incorrect';
    const { calls } = mockFetch([{ method: 'POST', path: '/api/user/email', status: 400, body: apiErrorBody(400, wrong, [{ path: 'currentPassword', message: wrong }]) }]);
    renderWithProviders(
      <>
        <EmailSection user={me} />
        <SnackbarHost />
      </>,
    );
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText(/Nouvelle adresse e-mail/), 'pas-une-adresse');
    await ui.click(screen.getByRole('button', { name: 'Changer d’adresse' }));
    expect(await screen.findByText('Adresse e-mail invalide')).toBeInTheDocument();
    expect(screen.getByText('Le mot de passe actuel est obligatoire')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await ui.clear(screen.getByLabelText(/Nouvelle adresse e-mail/));
    await ui.type(screen.getByLabelText(/Nouvelle adresse e-mail/), 'nouvelle@exemple.fr');
    await ui.type(screen.getByLabelText(/Mot de passe actuel/), 'pas le bon');
    await ui.click(screen.getByRole('button', { name: 'Changer d’adresse' }));
    expect(await screen.findByText('Adresse inchangée')).toBeInTheDocument();
    expect(screen.getByLabelText(/Mot de passe actuel/)).toHaveAccessibleDescription(wrong);
  });
});

describe('<EmailConfirmation />', () => {
  it('confirms the link of /account?emailToken=…, stores the new address and clears the parameter', async () => {
    const me = makeUser();
    authStore.setSession('jeton', me);
    const { calls } = mockFetch([{ method: 'POST', path: '/api/user/email/confirm', body: { ...me, email: 'nouvelle@exemple.fr' } }]);
    const { router } = renderWithProviders(<EmailConfirmation />, '/account?emailToken=abc_DEF-123');
    expect(await screen.findByText('C’est fait : vous vous connectez désormais avec nouvelle@exemple.fr.')).toBeInTheDocument();
    expect(await calls[0]!.json()).toEqual({ token: 'abc_DEF-123' });
    expect(calls).toHaveLength(1);
    expect(authStore.getState().user?.email).toBe('nouvelle@exemple.fr');
    expect(router.state.location.search).toBe('');
  });

  it('tells a used or expired link in French', async () => {
    authStore.setSession('jeton', makeUser());
    const invalid = 'Ce lien de changement d’adresse est invalide ou a expiré';
    mockFetch([{ method: 'POST', path: '/api/user/email/confirm', status: 400, body: apiErrorBody(400, invalid) }]);
    renderWithProviders(<EmailConfirmation />, '/account?emailToken=vieux');
    expect(await screen.findByText(invalid)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(invalid);
  });
});

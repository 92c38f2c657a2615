import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { DeleteAccountSection } from './delete-account-section';

afterEach(() => authStore.reset());

async function openDialog() {
  const me = makeUser();
  authStore.setSession('jeton', me);
  const view = renderWithProviders(<DeleteAccountSection user={me} />, '/account');
  const ui = userEvent.setup();
  await ui.click(screen.getByRole('button', { name: 'Supprimer mon compte' }));
  const dialog = await screen.findByRole('dialog', { name: 'Supprimer définitivement votre compte ?' });
  return { ...view, me, ui, dialog };
}

describe('<DeleteAccountSection />', () => {
  it('asks for the password and the word SUPPRIMER before sending', async () => {
    const { calls } = mockFetch([]);
    const { ui, dialog } = await openDialog();
    await ui.type(within(dialog).getByLabelText(/Tapez SUPPRIMER/), 'supprimer');
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer mon compte' }));
    expect(await within(dialog).findByText('Le mot de passe actuel est obligatoire')).toBeInTheDocument();
    expect(within(dialog).getByText('Tapez SUPPRIMER pour confirmer', { selector: 'p' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows the refusal of the last administrator, naming the organization, and keeps the session', async () => {
    const refusal = 'Vous êtes le seul administrateur de « Transports Martin » : nommez d’abord un autre administrateur, puis supprimez votre compte.';
    const { me, ui, dialog } = await openDialog();
    mockFetch([{ method: 'DELETE', path: `/api/user/${me.uuid}`, status: 409, body: apiErrorBody(409, refusal) }]);
    await ui.type(within(dialog).getByLabelText(/Mot de passe actuel/), 'Demo1234!');
    await ui.type(within(dialog).getByLabelText(/Tapez SUPPRIMER/), 'SUPPRIMER');
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer mon compte' }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(authStore.getState().token).toBe('jeton');
  });

  it('deletes the account, forgets the session and goes to the login page', async () => {
    const { me, ui, dialog, router } = await openDialog();
    const { calls } = mockFetch([{ method: 'DELETE', path: `/api/user/${me.uuid}`, status: 204 }]);
    await ui.type(within(dialog).getByLabelText(/Mot de passe actuel/), 'Demo1234!');
    await ui.type(within(dialog).getByLabelText(/Tapez SUPPRIMER/), 'SUPPRIMER');
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer mon compte' }));
    await expect.poll(() => authStore.getState().loggedOut).toBe(true);
    expect(await calls[0]!.json()).toEqual({ currentPassword: 'Demo1234!', confirmation: 'SUPPRIMER' });
    await expect.poll(() => router.state.location.pathname).toBe('/');
  });
});

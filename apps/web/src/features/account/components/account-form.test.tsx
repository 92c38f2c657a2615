import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { AccountForm } from './account-form';

const me = makeUser({ description: null });

function renderForm() {
  authStore.setSession('token', me);
  return renderWithProviders(
    <>
      <AccountForm user={me} />
      <SnackbarHost />
    </>,
  );
}

describe('<AccountForm />', () => {
  it('saves a French phone number as E.164 and confirms', async () => {
    const { calls } = mockFetch([
      {
        method: 'PATCH',
        path: `/api/user/${me.uuid}`,
        respond: () => ({ body: { ...me, phone: '+33698765432', description: 'Gestionnaire de flotte' } }),
      },
    ]);
    renderForm();
    const ui = userEvent.setup();
    const phone = screen.getByLabelText(/Téléphone/);
    expect(phone).toHaveValue('06 12 34 56 78');

    await ui.clear(phone);
    await ui.type(phone, '06 98 76 54 32');
    await ui.type(screen.getByLabelText(/Description/), 'Gestionnaire de flotte');
    await ui.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByText('Profil mis à jour')).toBeInTheDocument();
    expect(await calls[0]!.json()).toEqual({
      firstName: 'Claire',
      lastName: 'Dupont',
      phone: '+33698765432',
      description: 'Gestionnaire de flotte',
    });
    expect(authStore.getState().user?.phone).toBe('+33698765432');
    expect(phone).toHaveValue('06 98 76 54 32');
  });

  it('explains in French what is wrong before sending', async () => {
    const { calls } = mockFetch([]);
    renderForm();
    const ui = userEvent.setup();
    await ui.clear(screen.getByLabelText(/Prénom/));
    const phone = screen.getByLabelText(/Téléphone/);
    await ui.clear(phone);
    await ui.type(phone, '12');
    await ui.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByText('Le prénom est obligatoire')).toBeInTheDocument();
    expect(screen.getByText('Numéro de téléphone invalide (ex. 06 12 34 56 78)')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { snackbar } from '../../../components/snackbar/snackbar';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { SessionsSection } from './sessions-section';

const HERE = { uuid: '0b0c2a36-5d4e-4f7a-9a1b-1c2d3e4f5a60', device: 'Chrome sur Windows', createdAt: '2026-11-20T08:00:00.000Z', lastUsedAt: '2026-11-26T09:30:00.000Z', current: true };
const PHONE = { uuid: '7d1e2f30-4a5b-4c6d-8e9f-0a1b2c3d4e5f', device: 'Safari sur iPhone', createdAt: '2026-11-18T18:00:00.000Z', lastUsedAt: '2026-11-25T21:05:00.000Z', current: false };

afterEach(() => {
  snackbar.hide();
  authStore.reset();
});

function renderSection() {
  authStore.setSession('jeton', makeUser());
  const view = renderWithProviders(
    <>
      <SessionsSection />
      <SnackbarHost />
    </>,
    '/account',
  );
  return { ...view, ui: userEvent.setup() };
}

describe('<SessionsSection />', () => {
  it('lists each device with its last use, marks this one, and closes another', async () => {
    const { calls } = mockFetch([
      { method: 'GET', path: '/api/auth/sessions', respond: (_, call) => ({ body: { data: call === 1 ? [HERE, PHONE] : [HERE] } }) },
      { method: 'DELETE', path: `/api/auth/sessions/${PHONE.uuid}`, status: 204 },
    ]);
    const { ui } = renderSection();
    const list = await screen.findByRole('list', { name: 'Sessions actives' });
    const [here, phone] = within(list).getAllByRole('listitem');
    expect(within(here!).getByText('Cet appareil')).toBeInTheDocument();
    expect(within(here!).queryByRole('button')).toBeNull();
    expect(within(phone!).getByText(/Dernière activité le 25\/11\/2026/)).toBeInTheDocument();
    await ui.click(within(phone!).getByRole('button', { name: 'Fermer la session Safari sur iPhone' }));
    expect(await screen.findByText('Session fermée')).toBeInTheDocument();
    await expect.poll(() => screen.queryByText('Safari sur iPhone')).toBeNull();
    expect(calls.map((call) => call.method)).toEqual(['GET', 'DELETE', 'GET']);
  });

  it('« Se déconnecter partout » asks first, then ends every session and signs out here', async () => {
    const { calls } = mockFetch([
      { method: 'GET', path: '/api/auth/sessions', body: { data: [HERE, PHONE] } },
      { method: 'DELETE', path: '/api/auth/sessions', status: 204 },
    ]);
    const { ui, router } = renderSection();
    await screen.findByText('Safari sur iPhone');
    await ui.click(screen.getByRole('button', { name: 'Se déconnecter partout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Se déconnecter partout ?' });
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
    await ui.click(within(dialog).getByRole('button', { name: 'Se déconnecter partout' }));
    await expect.poll(() => authStore.getState().loggedOut).toBe(true);
    await expect.poll(() => router.state.location.pathname).toBe('/');
  });
});

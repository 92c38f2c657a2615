import { CGU_VERSION } from '@flotte/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { CguDialog } from './cgu-dialog';

afterEach(() => authStore.reset());

describe('<CguDialog />', () => {
  it('asks a first acceptance, links the text, and stores the user the API answers', async () => {
    const before = makeUser({ cguAcceptedVersion: null });
    authStore.setSession('jeton', before);
    const { calls } = mockFetch([{ method: 'POST', path: '/api/user/cgu', body: { ...before, cguAcceptedVersion: CGU_VERSION } }]);
    renderWithProviders(<CguDialog firstTime />);
    expect(screen.getByRole('dialog', { name: 'Conditions générales d’utilisation' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Lire les conditions générales d’utilisation/ })).toHaveAttribute('href', '/cgu');
    await userEvent.click(screen.getByRole('button', { name: 'J’accepte les conditions' }));
    await expect.poll(() => authStore.getState().user?.cguAcceptedVersion).toBe(CGU_VERSION);
    expect(await calls[0]!.json()).toEqual({ version: CGU_VERSION });
  });

  it('tells of a new version, shows a refusal in French, and lets the user sign out instead', async () => {
    authStore.setSession('jeton', makeUser({ cguAcceptedVersion: '2025-01-01' }));
    const stale = 'Ces conditions ne sont plus les dernières : rechargez la page pour lire la version en vigueur.';
    mockFetch([
      { method: 'POST', path: '/api/user/cgu', status: 400, body: apiErrorBody(400, stale) },
      { method: 'POST', path: '/api/auth/logout', status: 204 },
    ]);
    renderWithProviders(<CguDialog firstTime={false} />);
    expect(screen.getByRole('dialog', { name: 'Nos conditions d’utilisation évoluent' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'J’accepte les conditions' }));
    expect(await screen.findByText(stale)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Se déconnecter' }));
    await expect.poll(() => authStore.getState().loggedOut).toBe(true);
  });
});

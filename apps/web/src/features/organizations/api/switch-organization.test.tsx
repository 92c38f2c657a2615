import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LoggedLayout from '../../../app/layouts/logged-layout';
import { authStore } from '../../../lib/auth-store';
import { makeLink, makeUser, ORG_A, ORG_B, page } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import { SWITCH_ORGANIZATION_DELAY_MS, switchOrganization } from './switch-organization';

const me = makeUser();
const LINK_A = makeLink(me, ORG_A, '7e000000-0000-4000-8000-0000000000a1');
const LINK_B = makeLink(me, ORG_B, '7e000000-0000-4000-8000-0000000000b2');

describe('switchOrganization', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits 1000 ms, then points the user at its existing link', async () => {
    vi.useFakeTimers();
    const { calls } = mockFetch([
      { method: 'PATCH', path: `/api/user/${me.uuid}`, body: { ...me, currentOrganizationUser: { uuid: LINK_B.uuid, organization: ORG_B } } },
    ]);
    authStore.setSession('token', me);

    const done = switchOrganization(me, ORG_B.uuid, [LINK_A, LINK_B]);
    await vi.advanceTimersByTimeAsync(SWITCH_ORGANIZATION_DELAY_MS - 1);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    const user = await done;

    expect(calls).toHaveLength(1);
    expect(await calls[0]!.json()).toEqual({ currentOrganizationUser: LINK_B.uuid });
    expect(user.currentOrganizationUser?.organization.title).toBe('Ambulances Durand');
    expect(authStore.getState().user?.currentOrganizationUser?.uuid).toBe(LINK_B.uuid);
  });

  it('creates the missing link first (a superadmin entering an organization)', async () => {
    vi.useFakeTimers();
    const superadmin = makeUser({ roles: ['SUPERADMIN'] });
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/organization-user', status: 201, body: LINK_B },
      { method: 'PATCH', path: `/api/user/${superadmin.uuid}`, body: superadmin },
    ]);
    authStore.setSession('token', superadmin);

    const done = switchOrganization(superadmin, ORG_B.uuid, [LINK_A]);
    await vi.advanceTimersByTimeAsync(SWITCH_ORGANIZATION_DELAY_MS);
    await done;

    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
      'POST /api/organization-user',
      `PATCH /api/user/${superadmin.uuid}`,
    ]);
    expect(await calls[0]!.json()).toEqual({ user: superadmin.uuid, organization: ORG_B.uuid });
    expect(await calls[1]!.json()).toEqual({ currentOrganizationUser: LINK_B.uuid });
  });
});

describe('organization dropdown', () => {
  it('switches with the loading modal, then lands on the dashboard', async () => {
    const switched = { ...me, currentOrganizationUser: { uuid: LINK_B.uuid, organization: ORG_B } };
    mockFetch([
      { path: '/api/organization-user', body: page([LINK_A, LINK_B]) },
      { method: 'PATCH', path: `/api/user/${me.uuid}`, body: switched },
      // The sidebar's menu reads the organization's plan (decision 044).
      { path: '/api/stripe/current-plan', body: { source: 'environment', plan: null, subscription: null, features: ['documents', 'alerts'], canPay: false, provider: 'embedded' } },
    ]);
    authStore.setSession('token', me);
    const { router } = renderRoutes(
      [
        {
          element: <LoggedLayout />,
          children: [
            { path: 'account', element: <h1>Compte</h1> },
            { path: 'dashboard', element: <h1>Tableau</h1> },
          ],
        },
      ],
      '/account',
    );
    const ui = userEvent.setup();

    await ui.click(await screen.findByRole('button', { name: /changer d'organisation/i }));
    await ui.click(await screen.findByRole('menuitem', { name: /Ambulances Durand/ }));

    expect(await screen.findByText("Chargement de l'organisation...")).toBeInTheDocument();
    expect(screen.getByText('Veuillez patienter quelques secondes')).toBeInTheDocument();

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 3000 });
    await waitFor(() => expect(screen.queryByText("Chargement de l'organisation...")).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: /changer d'organisation.*Ambulances Durand/i })).toBeInTheDocument();
  });
});

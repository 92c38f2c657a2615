import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { INVITATION_LINK_INVALID_MESSAGE, type InvitationPreview } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser, ORG_A } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import { InvitationPage } from './invitation-page';

const TOKEN = 'jeton-invitation-0123456789';
const preview: InvitationPreview = {
  organization: { title: 'Transports Martin' },
  inviterName: 'Julien Martin',
  email: 'lea.roux@demo.fr',
  role: 'USER',
  accountExists: false,
  expiresAt: '2099-01-01T00:00:00.000Z',
};
const noSession: MockRoute = { method: 'POST', path: '/api/auth/refresh-token', status: 401, body: apiErrorBody(401, 'Session expirée, veuillez vous reconnecter') };

function renderPage() {
  return renderRoutes(
    [
      { path: '/signup', element: <InvitationPage token={TOKEN} /> },
      { path: '/dashboard', element: <p>Tableau de bord</p> },
      { path: '/', element: <p>Page de connexion</p> },
    ],
    `/signup?invitation=${TOKEN}`,
  );
}

describe('<InvitationPage />', () => {
  it('tells who invites where, and creates the account: names, password, CGU, then the dashboard', async () => {
    const invitedUser = makeUser({ email: 'lea.roux@demo.fr', firstName: 'Léa', lastName: 'Roux', roles: ['USER'], currentOrganizationUser: { uuid: '7e000000-0000-4000-8000-0000000000b1', organization: ORG_A } });
    const { calls } = mockFetch([
      noSession,
      { method: 'POST', path: '/api/invitation/check', body: preview },
      { method: 'POST', path: '/api/invitation/accept', status: 201, body: { tokens: { access_token: 'nouveau' }, user: invitedUser } },
    ]);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Julien Martin vous invite à rejoindre Transports Martin' })).toBeInTheDocument();
    expect(screen.getByText('lea.roux@demo.fr')).toBeInTheDocument();
    const ui = userEvent.setup();
    const submit = screen.getByRole('button', { name: 'Créer mon compte et rejoindre Transports Martin' });
    await ui.type(screen.getByLabelText(/Prénom/), 'Léa');
    await ui.type(screen.getByLabelText(/^Nom/), 'Roux');
    await ui.type(screen.getByLabelText(/^Mot de passe/), 'court');
    await ui.click(submit);
    expect(await screen.findByText('Le mot de passe doit contenir au moins 12 caractères')).toBeInTheDocument();
    expect(screen.getByText("Acceptez les conditions générales d'utilisation pour créer votre compte")).toBeInTheDocument();
    expect(calls.filter((c) => new URL(c.url).pathname === '/api/invitation/accept')).toHaveLength(0);

    await ui.type(screen.getByLabelText(/^Mot de passe/), ' est devenu une phrase');
    await ui.click(screen.getByRole('checkbox', { name: /J’accepte les conditions générales d’utilisation/ }));
    await ui.click(submit);
    expect(await screen.findByText('Tableau de bord')).toBeInTheDocument();
    const accept = calls.find((c) => new URL(c.url).pathname === '/api/invitation/accept')!;
    expect(await accept.json()).toEqual({ token: TOKEN, firstName: 'Léa', lastName: 'Roux', password: 'court est devenu une phrase', cguAccepted: true });
    expect(authStore.getState()).toMatchObject({ token: 'nouveau', user: { email: 'lea.roux@demo.fr' } });
  });

  it('asks an address that has an account to sign in, and come back here', async () => {
    mockFetch([noSession, { method: 'POST', path: '/api/invitation/check', body: { ...preview, accountExists: true } }]);
    renderPage();
    const signIn = await screen.findByRole('link', { name: 'Se connecter pour accepter' });
    expect(signIn).toHaveAttribute('href', `/?route=${encodeURIComponent(`/signup?invitation=${TOKEN}`)}`);
    expect(screen.queryByRole('button', { name: /Créer mon compte/ })).not.toBeInTheDocument();
  });

  it('lets the signed-in invited user join, then the dashboard', async () => {
    const user = makeUser({ email: 'lea.roux@demo.fr' });
    authStore.setSession('session', user);
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/invitation/check', body: { ...preview, accountExists: true } },
      { method: 'POST', path: '/api/invitation/join', body: { ...user, currentOrganizationUser: { uuid: '7e000000-0000-4000-8000-0000000000b1', organization: ORG_A } } },
    ]);
    renderPage();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Rejoindre Transports Martin' }));
    expect(await screen.findByText('Tableau de bord')).toBeInTheDocument();
    expect(await calls.find((c) => new URL(c.url).pathname === '/api/invitation/join')!.json()).toEqual({ token: TOKEN });
  });

  it('warns a user signed in with another address, and offers to sign out', async () => {
    authStore.setSession('session', makeUser({ email: 'claire.dupont@demo.fr' }));
    mockFetch([{ method: 'POST', path: '/api/invitation/check', body: { ...preview, accountExists: true } }]);
    renderPage();
    expect(await screen.findByText(/cette invitation a été envoyée à/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Se déconnecter' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Rejoindre/ })).not.toBeInTheDocument();
  });

  it('says a dead link is dead, in French, with the way back', async () => {
    mockFetch([
      noSession,
      { method: 'POST', path: '/api/invitation/check', status: 400, body: apiErrorBody(400, 'Données invalides', [{ path: 'token', message: INVITATION_LINK_INVALID_MESSAGE }]) },
    ]);
    renderPage();
    expect(await screen.findByText(INVITATION_LINK_INVALID_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Retour à la connexion' })).toHaveAttribute('href', '/');
  });
});

import type { CreateInvitationBody, Invitation, OnboardingState } from '@flotte/contract';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { needsOnboarding } from '../../../features/onboarding/needs-onboarding';
import { AppProviders } from '../../providers';
import { createQueryClient } from '../../../lib/query-client';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import OnboardingCompanyRoute from './company';
import OnboardingFinishRoute from './finish';
import OnboardingMembersRoute from './members';
import OnboardingWelcomeRoute from './welcome';

afterEach(() => {
  vi.unstubAllGlobals();
  authStore.clear('logout');
});

const NEWCOMER = makeUser({ firstName: 'Léa', roles: ['USER'], currentOrganizationUser: null, onboardingStep: 'welcome' });
const ORGANIZATION: NonNullable<OnboardingState['organization']> = {
  uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0009',
  title: 'Transports Moreau',
  siren: '732829320',
  siret: null,
  address: '12 rue des Lilas, 69003 Lyon',
  fleetSize: '10-49',
  logo: null,
};

function renderAt(path: string, routes: MockRoute[]) {
  const { calls } = mockFetch(routes);
  const router = createMemoryRouter(
    [
      {
        element: <Outlet context={NEWCOMER} />,
        children: [
          { path: '/onboarding', element: <OnboardingWelcomeRoute /> },
          { path: '/onboarding/company', element: <OnboardingCompanyRoute /> },
          { path: '/onboarding/members', element: <OnboardingMembersRoute /> },
          { path: '/onboarding/finish', element: <OnboardingFinishRoute /> },
        ],
      },
      { path: '/dashboard', element: <h1>Tableau de bord</h1> },
      { path: '/parameters', element: <h1>Paramètres</h1> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, calls, ui: userEvent.setup() };
}

const stateIs = (step: OnboardingState['step'], organization: OnboardingState['organization'] = null): MockRoute => ({ path: '/api/onboarding', body: { step, organization } });
/** The organization's pending invitations as the server keeps them: POST adds one, GET lists them. */
function invitationsKept(kept: CreateInvitationBody[] = []): MockRoute[] {
  const asInvitation = (body: CreateInvitationBody, index: number): Invitation => ({
    uuid: `9a000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
    ...body,
    invitedBy: { firstName: 'Léa', lastName: 'Moreau' },
    createdAt: '2026-11-20T09:00:00.000Z',
    expiresAt: '2026-11-27T09:00:00.000Z',
  });
  return [
    { path: '/api/organization-invitation', respond: () => ({ body: { data: kept.map(asInvitation), page: 1, nbOfPages: 1, total: kept.length } }) },
    {
      method: 'POST',
      path: '/api/organization-invitation',
      respond: (request) => {
        void request.clone().json().then((body: CreateInvitationBody) => kept.push({ email: body.email.toLowerCase(), role: body.role }));
        return { status: 201, body: {} };
      },
    },
  ];
}
const bodyOf = async (request: Request) => (await request.clone().json()) as Record<string, unknown>;
const callsTo = (calls: Request[], path: string, method?: string) =>
  calls.filter((call) => new URL(call.url).pathname === path && (!method || call.method === method));

describe('who goes through the onboarding', () => {
  it('a user without organization, or who left it midway; never an operator, nor a member by invitation', () => {
    expect(needsOnboarding(NEWCOMER)).toBe(true);
    expect(needsOnboarding(makeUser({ onboardingStep: 'members' }))).toBe(true);
    expect(needsOnboarding(makeUser({ onboardingStep: null }))).toBe(false);
    expect(needsOnboarding(makeUser({ onboardingStep: 'welcome' }))).toBe(false);
    expect(needsOnboarding(makeUser({ roles: ['SUPERADMIN'], currentOrganizationUser: null, onboardingStep: null }))).toBe(false);
    expect(needsOnboarding(makeUser({ roles: ['ROOT'], currentOrganizationUser: null, onboardingStep: null }))).toBe(false);
  });

  it('a page the user is not at sends them to the step the server knows; nothing to do: the dashboard', async () => {
    const first = renderAt('/onboarding/finish', [stateIs('company')]);
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/onboarding/company'));
    first.router.dispose();
    const second = renderAt('/onboarding', [stateIs('done')]);
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/dashboard'));
  });
});

describe('onboarding: welcome', () => {
  it('greets the user and remembers the next step before going on', async () => {
    const { ui, calls, router } = renderAt('/onboarding', [stateIs('welcome'), { method: 'PUT', path: '/api/onboarding/step', body: { step: 'company', organization: null } }]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue sur FlotteAssur, Léa !' })).toBeInTheDocument();
    await ui.click(await screen.findByRole('button', { name: 'Commencer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding/company'));
    expect(await bodyOf(callsTo(calls, '/api/onboarding/step')[0]!)).toEqual({ step: 'company' });
  });
});

describe('onboarding: company', () => {
  it('checks the SIREN’s key as typed, sends the values, reloads the user and goes on to the members', async () => {
    const { ui, calls, router } = renderAt('/onboarding/company', [
      stateIs('company'),
      { method: 'POST', path: '/api/onboarding/company', status: 201, body: { step: 'members', organization: ORGANIZATION } },
      { path: '/api/auth/me', body: makeUser({ onboardingStep: 'members' }) },
    ]);
    await ui.type(await screen.findByLabelText(/Nom de l’organisation/), 'Transports Moreau');
    await ui.type(screen.getByLabelText(/SIREN ou SIRET/), '732 829 321');
    await ui.type(screen.getByLabelText(/Adresse/), '12 rue des Lilas, 69003 Lyon');
    // The logo is optional: offered, not required.
    expect(screen.getByRole('button', { name: 'Choisir un logo' })).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Créer mon organisation' }));
    expect(await screen.findByText('Ce SIREN est invalide : vérifiez les chiffres (clé de contrôle incorrecte)')).toBeInTheDocument();
    expect(screen.getByText('Choisissez la taille de votre flotte')).toBeInTheDocument();
    expect(callsTo(calls, '/api/onboarding/company')).toHaveLength(0);

    await ui.clear(screen.getByLabelText(/SIREN ou SIRET/));
    await ui.type(screen.getByLabelText(/SIREN ou SIRET/), '732 829 320');
    await ui.click(screen.getByRole('combobox', { name: /Taille de la flotte/ }));
    await ui.click(await screen.findByRole('option', { name: '10 à 49 véhicules' }));
    await ui.click(screen.getByRole('button', { name: 'Créer mon organisation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding/members'));
    expect(await bodyOf(callsTo(calls, '/api/onboarding/company')[0]!)).toEqual({ title: 'Transports Moreau', companyId: '732 829 320', address: '12 rue des Lilas, 69003 Lyon', fleetSize: '10-49' });
    expect(callsTo(calls, '/api/auth/me')).toHaveLength(1);
  });

  it('shows the API’s refusal (already a member) in French', async () => {
    const refusal = 'Vous êtes déjà membre d’une organisation : l’accueil ne crée une organisation qu’une fois. Les autres se créent avec votre courtier.';
    const { ui } = renderAt('/onboarding/company', [stateIs('company'), { method: 'POST', path: '/api/onboarding/company', status: 409, body: apiErrorBody(409, refusal) }]);
    await ui.type(await screen.findByLabelText(/Nom de l’organisation/), 'Doublon');
    await ui.type(screen.getByLabelText(/SIREN ou SIRET/), '73282932000074');
    await ui.type(screen.getByLabelText(/Adresse/), 'Lyon');
    await ui.click(screen.getByRole('combobox', { name: /Taille de la flotte/ }));
    await ui.click(await screen.findByRole('option', { name: '1 à 9 véhicules' }));
    await ui.click(screen.getByRole('button', { name: 'Créer mon organisation' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });
});

describe('onboarding: members', () => {
  it('invites each row with its role (POST /api/organization-invitation), then the summary lists them', async () => {
    const { ui, calls, router } = renderAt('/onboarding/members', [
      stateIs('members', ORGANIZATION),
      ...invitationsKept(),
      { method: 'PUT', path: '/api/onboarding/step', body: { step: 'finish', organization: ORGANIZATION } },
    ]);
    await ui.type(await screen.findByLabelText(/Adresse e-mail/), 'marc@exemple.fr');
    await ui.click(screen.getByRole('button', { name: 'Ajouter une personne' }));
    const emails = screen.getAllByLabelText(/Adresse e-mail/);
    await ui.type(emails[1]!, 'Sophie@Exemple.fr');
    await ui.click(screen.getAllByRole('combobox', { name: /Rôle/ })[1]!);
    await ui.click(await screen.findByRole('option', { name: 'Administrateur' }));
    await ui.click(screen.getByRole('button', { name: 'Envoyer les invitations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding/finish'));
    const invitations = callsTo(calls, '/api/organization-invitation', 'POST');
    expect(await Promise.all(invitations.map(bodyOf))).toEqual([
      { email: 'marc@exemple.fr', role: 'USER' },
      { email: 'sophie@exemple.fr', role: 'ADMIN' },
    ]);
    expect(await bodyOf(callsTo(calls, '/api/onboarding/step')[0]!)).toEqual({ step: 'finish' });
    expect(await screen.findByText('marc@exemple.fr (Utilisateur), sophie@exemple.fr (Administrateur)')).toBeInTheDocument();
  });

  it('keeps a refused row with its reason, and refuses the same address twice before sending', async () => {
    const kept: CreateInvitationBody[] = [];
    const { ui, calls } = renderAt('/onboarding/members', [
      stateIs('members', ORGANIZATION),
      invitationsKept(kept)[0]!,
      {
        method: 'POST',
        path: '/api/organization-invitation',
        respond: (_request, call) => {
          if (call !== 1) return { status: 409, body: apiErrorBody(409, 'Cette personne est déjà membre de l’organisation') };
          kept.push({ email: 'marc@exemple.fr', role: 'USER' });
          return { status: 201, body: {} };
        },
      },
    ]);
    await ui.type(await screen.findByLabelText(/Adresse e-mail/), 'marc@exemple.fr');
    await ui.click(screen.getByRole('button', { name: 'Ajouter une personne' }));
    await ui.type(screen.getAllByLabelText(/Adresse e-mail/)[1]!, 'marc@exemple.fr');
    await ui.click(screen.getByRole('button', { name: 'Envoyer les invitations' }));
    expect(await screen.findByText('Une même adresse figure deux fois')).toBeInTheDocument();
    expect(callsTo(calls, '/api/organization-invitation', 'POST')).toHaveLength(0);

    await ui.clear(screen.getAllByLabelText(/Adresse e-mail/)[1]!);
    await ui.type(screen.getAllByLabelText(/Adresse e-mail/)[1]!, 'deja@exemple.fr');
    await ui.click(screen.getByRole('button', { name: 'Envoyer les invitations' }));
    await waitFor(() => expect(callsTo(calls, '/api/organization-invitation', 'POST')).toHaveLength(2));
    expect(await screen.findByText('Cette personne est déjà membre de l’organisation')).toBeInTheDocument();
    expect(screen.getAllByLabelText(/Adresse e-mail/)).toHaveLength(1);
    expect(screen.getByLabelText(/Adresse e-mail/)).toHaveValue('deja@exemple.fr');
    expect(screen.getByText('Déjà invités : marc@exemple.fr')).toBeInTheDocument();
  });

  it('may be skipped: nothing is sent', async () => {
    const { ui, calls, router } = renderAt('/onboarding/members', [stateIs('members', ORGANIZATION), ...invitationsKept(), { method: 'PUT', path: '/api/onboarding/step', body: { step: 'finish', organization: ORGANIZATION } }]);
    await ui.click(await screen.findByRole('button', { name: 'Passer cette étape' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding/finish'));
    expect(callsTo(calls, '/api/organization-invitation', 'POST')).toHaveLength(0);
  });
});

describe('onboarding: finish', () => {
  it('sums up, ends the onboarding and leads to the dashboard, or to the imports', async () => {
    // Opened afresh (a reload, a new sign-in): the invitations are the organization's pending ones.
    const routes = [
      stateIs('finish', ORGANIZATION),
      ...invitationsKept([{ email: 'marc@exemple.fr', role: 'USER' }]),
      { method: 'PUT', path: '/api/onboarding/step', body: { step: 'done', organization: null } },
      { path: '/api/auth/me', body: makeUser({ onboardingStep: null }) },
    ];
    const first = renderAt('/onboarding/finish', routes);
    const summary = await screen.findByText('Transports Moreau');
    expect(within(summary.closest('dl')!).getByText('732 829 320')).toBeInTheDocument();
    expect(screen.getByText('10 à 49 véhicules')).toBeInTheDocument();
    expect(await screen.findByText('marc@exemple.fr (Utilisateur)')).toBeInTheDocument();
    await first.ui.click(screen.getByRole('button', { name: 'Accéder au tableau de bord' }));
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/dashboard'));
    expect(await bodyOf(callsTo(first.calls, '/api/onboarding/step')[0]!)).toEqual({ step: 'done' });
    first.router.dispose();

    const second = renderAt('/onboarding/finish', routes);
    await second.ui.click(await screen.findByRole('button', { name: 'Importer mes données' }));
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/parameters'));
    expect(second.router.state.location.hash).toBe('#imports');
  });

  it('shows the logo sent at the company step when resumed, or says there is none', async () => {
    const url = `/api/organization/${ORGANIZATION.uuid}/logo/AAAAAAAAAAAAAAAA`;
    const withLogo = renderAt('/onboarding/finish', [stateIs('finish', { ...ORGANIZATION, logo: { url } })]);
    expect(await screen.findByRole('img', { name: 'Logo de Transports Moreau' })).toHaveAttribute('src', url);
    withLogo.router.dispose();
    cleanup();
    renderAt('/onboarding/finish', [stateIs('finish', ORGANIZATION)]);
    expect(await screen.findByText('Aucun : vous pourrez l’ajouter dans les paramètres.')).toBeInTheDocument();
  });
});

import type { BrokerOrganization } from '@flotte/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import SuperadminOrganizationsRoute from './organizations';

configure({ asyncUtilTimeout: 4000 });

const ENV = { uuid: '3e000000-0000-4000-8000-000000000001', title: 'Cabinet Horizon' };
function organization(overrides: Partial<BrokerOrganization>): BrokerOrganization {
  return {
    uuid: crypto.randomUUID(),
    title: 'Transports Martin',
    avatar: null,
    vehicles: 12,
    claimsThisYear: 3,
    period: { uuid: crypto.randomUUID(), startDate: '2026-01-01', endDate: '2026-12-31' },
    lossRatio: 65.25,
    lossRatioLimit: 70,
    claimFrequency: 25,
    claimFrequencyLimit: 20,
    halfDifference: 1,
    regularisation: 3650,
    nextRenewal: '2027-03-01',
    lastActivity: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}
const martin = organization({});
const zephyr = organization({ title: 'Zéphyr Services', period: null, lossRatio: null, claimFrequency: null, halfDifference: null, regularisation: null, nextRenewal: null, lastActivity: null, vehicles: 0, claimsThisYear: 0 });
const brokerPage = (data: BrokerOrganization[]) => ({ data, page: 1, nbOfPages: 1, total: data.length, environment: ENV });

const superadmin = makeUser({
  roles: ['SUPERADMIN'],
  currentOrganizationUser: null,
  currentEnvironmentUser: { uuid: '3e000000-0000-4000-8000-0000000000e1', environment: { uuid: ENV.uuid, title: ENV.title } },
});

/** The page under a stand-in of the logged layout, whose Outlet gives the organization switch. */
function render(user = superadmin, url = '/superadmin/organization', switchOrganization = vi.fn(() => Promise.resolve())) {
  authStore.setSession('token', user);
  const rendered = renderRoutes(
    [{ element: <Outlet context={{ switchOrganization }} />, children: [{ path: '/superadmin/organization', element: (<><SuperadminOrganizationsRoute /><SnackbarHost /></>) }] }],
    url,
  );
  return { ...rendered, switchOrganization };
}
const listQueries = (calls: Request[]) =>
  calls.filter((c) => c.method === 'GET' && new URL(c.url).pathname === '/api/broker/organization').map((c) => Object.fromEntries(new URL(c.url).searchParams));

describe('Gestion organisations', () => {
  it('shows each organization with its figures against their limits, in words as well as colours', async () => {
    const { calls } = mockFetch([{ path: '/api/broker/organization', respond: () => ({ body: brokerPage([martin, zephyr]) }) }]);
    render();
    expect(screen.getByRole('heading', { level: 1, name: 'Gestion organisations' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Organisations clientes' });
    const row = await within(table).findByRole('row', { name: /Transports Martin/ });
    expect(within(row).getByText(/^65,3/)).toBeInTheDocument();
    expect(within(row).getByText(/Proche de la limite \(70/)).toBeInTheDocument();
    expect(within(row).getByText(/Au-dessus de la limite \(20/)).toBeInTheDocument();
    expect(within(row).getByText('01/03/2027')).toBeInTheDocument();
    expect(within(row).getByText('+1 véh.')).toBeInTheDocument();
    const empty = within(table).getByRole('row', { name: /Zéphyr/ });
    expect(within(empty).getAllByText('Non calculable')).toHaveLength(2);
    expect(screen.getByText('2 organisations clientes')).toBeInTheDocument();
    // The superadmin's current environment reaches the API, sorted by title by default.
    expect(listQueries(calls)[0]).toMatchObject({ environment: ENV.uuid, sortBy: 'title', page: '1' });
  });

  it('sorts on the server and searches', async () => {
    const ui = userEvent.setup();
    const { calls } = mockFetch([{ path: '/api/broker/organization', respond: () => ({ body: brokerPage([martin]) }) }]);
    render();
    await screen.findByRole('row', { name: /Transports Martin/ });
    await ui.click(screen.getByRole('button', { name: 'S/P' }));
    await waitFor(() => expect(listQueries(calls).at(-1)).toMatchObject({ sortBy: 'lossRatio' }));
    await ui.click(screen.getByRole('button', { name: 'S/P' }));
    await waitFor(() => expect(listQueries(calls).at(-1)).toMatchObject({ sortBy: '-lossRatio' }));
    await ui.type(screen.getByRole('searchbox', { name: 'Rechercher une organisation' }), 'martin{Enter}');
    await waitFor(() => expect(listQueries(calls).at(-1)).toMatchObject({ search: 'martin', page: '1' }));
  });

  it('creates an organization, and shows the API’s French refusal under the field', async () => {
    const ui = userEvent.setup();
    const { calls } = mockFetch([
      { path: '/api/broker/organization', respond: () => ({ body: brokerPage([martin]) }) },
      {
        path: '/api/broker/organization',
        method: 'POST',
        respond: (_request, call) =>
          call === 1
            ? { status: 400, body: apiErrorBody(400, 'Données invalides', [{ path: 'title', message: 'Ce nom est déjà pris' }]) }
            : { status: 201, body: { uuid: crypto.randomUUID(), title: 'Garage du Port', avatar: null, environment: ENV, subscription: null } },
      },
    ]);
    render();
    await ui.click(await screen.findByRole('button', { name: 'Créer une organisation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Créer une organisation' });
    await ui.type(within(dialog).getByRole('textbox', { name: /Nom de l'organisation/ }), 'Garage du Port');
    await ui.click(within(dialog).getByRole('button', { name: "Créer l'organisation" }));
    expect(await within(dialog).findByText('Ce nom est déjà pris')).toBeInTheDocument();
    await ui.click(within(dialog).getByRole('button', { name: "Créer l'organisation" }));
    expect(await screen.findByText('« Garage du Port » a rejoint votre environnement')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(await posts[1]!.clone().json()).toEqual({ title: 'Garage du Port', environment: ENV.uuid });
  });

  it('invites the first administrator with the organization, and refuses a wrong address before sending', async () => {
    const ui = userEvent.setup();
    const { calls } = mockFetch([
      { path: '/api/broker/organization', respond: () => ({ body: brokerPage([martin]) }) },
      { path: '/api/broker/organization', method: 'POST', status: 201, body: { uuid: crypto.randomUUID(), title: 'Taxis Lune', avatar: null, environment: ENV, subscription: null } },
    ]);
    render();
    await ui.click(await screen.findByRole('button', { name: 'Créer une organisation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Créer une organisation' });
    expect(within(dialog).getByRole('button', { name: 'Choisir un logo' })).toBeInTheDocument();
    await ui.type(within(dialog).getByRole('textbox', { name: /Nom de l'organisation/ }), 'Taxis Lune');
    const email = within(dialog).getByRole('textbox', { name: /E-mail de l’administrateur/ });
    await ui.type(email, 'pas-une-adresse');
    await ui.click(within(dialog).getByRole('button', { name: "Créer l'organisation" }));
    expect(await within(dialog).findByText('Adresse e-mail invalide')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await ui.clear(email);
    await ui.type(email, ' Chef@Taxis-Lune.fr ');
    await ui.click(within(dialog).getByRole('button', { name: "Créer l'organisation" }));
    expect(await screen.findByText('« Taxis Lune » a rejoint votre environnement ; une invitation est partie à chef@taxis-lune.fr')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(await posts[0]!.clone().json()).toEqual({ title: 'Taxis Lune', adminEmail: 'chef@taxis-lune.fr', environment: ENV.uuid });
  });

  it('lists the members of an organization, and leads to its « Membres » section to manage them', async () => {
    const ui = userEvent.setup();
    mockFetch([
      { path: '/api/broker/organization', respond: () => ({ body: brokerPage([martin]) }) },
      {
        path: '/api/organization-user',
        respond: () => ({
          body: {
            data: [{ uuid: crypto.randomUUID(), organization: { uuid: martin.uuid, title: martin.title, avatar: null, environment: ENV, subscription: null }, role: 'ADMIN', user: { uuid: crypto.randomUUID(), firstName: 'Élodie', lastName: 'Écuyer', email: 'elodie@martin.fr', avatar: null, twoFactor: false } }],
            page: 1,
            nbOfPages: 1,
            total: 1,
          },
        }),
      },
    ]);
    const { switchOrganization } = render();
    await ui.click(await screen.findByRole('button', { name: 'Actions pour Transports Martin' }));
    await ui.click(await screen.findByRole('menuitem', { name: 'Membres' }));
    const dialog = await screen.findByRole('dialog', { name: 'Membres de Transports Martin' });
    expect(await within(dialog).findByText('Élodie Écuyer')).toBeInTheDocument();
    expect(within(dialog).getByText('elodie@martin.fr · Administrateur')).toBeInTheDocument();
    await ui.click(within(dialog).getByRole('button', { name: 'Gérer les membres' }));
    expect(switchOrganization).toHaveBeenCalledWith(martin.uuid, { reloadAt: '/parameters#membres' });
  });

  it('opens an organization through the layout’s switch, landing on its dashboard after a full load', async () => {
    const ui = userEvent.setup();
    mockFetch([{ path: '/api/broker/organization', respond: () => ({ body: brokerPage([martin]) }) }]);
    const { switchOrganization } = render();
    await ui.click(await screen.findByRole('button', { name: 'Actions pour Transports Martin' }));
    await ui.click(await screen.findByRole('menuitem', { name: 'Ouvrir' }));
    expect(switchOrganization).toHaveBeenCalledWith(martin.uuid, { reloadAt: '/dashboard' });
    expect(switchOrganization).toHaveBeenCalledTimes(1);
  });

  it('tells a plain user the page is not theirs, without asking the API', async () => {
    const { calls } = mockFetch([]);
    render(makeUser({ roles: ['ADMIN'] }));
    expect(await screen.findByText('Cette page est réservée aux superadmins de l’environnement.')).toBeInTheDocument();
    expect(listQueries(calls)).toHaveLength(0);
  });
});

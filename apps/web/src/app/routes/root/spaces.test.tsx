import type { RootSpace, Tier } from '@flotte/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import { routes } from '../../router';

configure({ asyncUtilTimeout: 5000 });

const root = makeUser({ roles: ['ROOT'], firstName: 'Alex', lastName: 'Moreau', currentOrganizationUser: null });
const tier: Tier = {
  uuid: '9e000000-0000-4000-8000-000000000001',
  title: 'Tarif 2026',
  startAt: '2025-12-31T23:00:00.000Z',
  startDate: '2026-01-01',
  endAt: null,
  priceCents: 1250,
  includedOrganizations: 5,
  freeOrganizations: 1,
};
const horizon: RootSpace = {
  uuid: '3e000000-0000-4000-8000-000000000001',
  title: 'Cabinet Horizon',
  refererEmail: 'contact@horizon.fr',
  bookingUrl: null,
  organizationsCount: 3,
  freeOrganizations: 2,
  stripeProductId: null,
  superadmins: [{ uuid: '5d1c2b3a-0000-4000-8000-0000000000f1', firstName: 'Hélène', lastName: 'Horizon', email: 'helene@horizon.fr' }],
  currentTier: tier,
  tiersCount: 2,
  usage: { vehicules: 42, organizations: 3, storageBytes: 1_572_864 },
};
const environmentBody = (title: string) => ({ uuid: '3e000000-0000-4000-8000-000000000002', title, logo: null, refererEmail: null, bookingUrl: null, tiers: [], environmentUsers: [], organizations: [], freeOrganizations: 0, stripeProductId: null, requireSuperadminTotp: false });
const page = (data: RootSpace[]) => ({ data, page: 1, nbOfPages: 1, total: data.length });
const GUARANTEES = [
  { uuid: '6a000000-0000-4000-8000-000000000001', label: 'Responsabilité civile' },
  { uuid: '6a000000-0000-4000-8000-000000000002', label: 'Bris de glace' },
];
const base: MockRoute[] = [
  { path: '/api/root/spaces', body: page([horizon]) },
  { path: '/api/guarantees', body: GUARANTEES },
];

function render(user = root) {
  authStore.setSession('token', user);
  return renderRoutes(routes, '/root/spaces');
}
const bodyOf = async (calls: Request[], method: string, path: string) => {
  const call = calls.find((c) => c.method === method && new URL(c.url).pathname === path);
  return call ? ((await call.clone().json()) as unknown) : undefined;
};

describe('/root/spaces', () => {
  it('shows ROOT the root menu and every space with its superadmins, tier in force and usage', async () => {
    mockFetch(base);
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Espaces' })).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Menu root' });
    expect(within(menu).getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute('href', '/dashboard');
    expect(within(menu).getByRole('link', { name: 'Espaces' })).toHaveAttribute('href', '/root/spaces');

    const table = await screen.findByRole('table', { name: 'Espaces' });
    const row = within(table).getByRole('row', { name: /Cabinet Horizon/ });
    expect(within(row).getByText('Hélène Horizon')).toBeInTheDocument();
    expect(within(row).getByText('Tarif 2026')).toBeInTheDocument();
    expect(within(row).getByText(/12,50\s€ HT \/ véhicule \/ mois, depuis le 01\/01\/2026/)).toBeInTheDocument();
    // How it is billed: no Stripe product linked yet.
    expect(within(row).getByText('Facturation Stripe non reliée')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Palier et facturation' })).toBeInTheDocument();
    expect(within(row).getByText('42')).toBeInTheDocument();
    expect(within(row).getByText(/1,5\sMo/)).toBeInTheDocument();
    expect(screen.getByText('1 espace')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Garanties' })).toHaveTextContent('Bris de glace');
  });

  it('answers another user with the 404 page, without asking for the spaces', async () => {
    const { calls } = mockFetch([]);
    render(makeUser({ roles: ['SUPERADMIN'] }));
    expect(await screen.findByRole('heading', { name: 'This page could not be found' })).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('/api/root/spaces'))).toBe(false);
  });

  it('creates a space with its first superadmin, and shows the API’s French message on a field', async () => {
    const { calls } = mockFetch([
      ...base,
      {
        method: 'POST',
        path: '/api/environment',
        respond: (_request, call) =>
          call === 1
            ? { status: 400, body: apiErrorBody(400, 'Données invalides', [{ path: 'superadmin.email', message: 'Adresse e-mail invalide' }]) }
            : { status: 201, body: environmentBody('Cabinet Levant') },
      },
    ]);
    render();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Créer un espace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Créer un espace' });
    await ui.type(within(dialog).getByLabelText(/Nom de l'espace/), 'Cabinet Levant');
    await ui.type(within(dialog).getByLabelText(/^Prénom/), 'Inès');
    await ui.type(within(dialog).getByLabelText(/^Nom \*/), 'Levant');
    await ui.type(within(dialog).getByLabelText(/Adresse e-mail du superadmin/), 'ines@levant.fr');
    await ui.click(within(dialog).getByRole('button', { name: "Créer l'espace" }));
    expect(await within(dialog).findByText('Adresse e-mail invalide')).toBeInTheDocument();
    expect(await bodyOf(calls, 'POST', '/api/environment')).toEqual({ title: 'Cabinet Levant', refererEmail: null, superadmin: { firstName: 'Inès', lastName: 'Levant', email: 'ines@levant.fr' } });

    await ui.click(within(dialog).getByRole('button', { name: "Créer l'espace" }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Créer un espace' })).not.toBeInTheDocument());
    expect(await screen.findByText(/une invitation a été envoyée à ines@levant\.fr/)).toBeInTheDocument();
  });

  it('refuses a space without its superadmin’s address before calling the API', async () => {
    const { calls } = mockFetch(base);
    render();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Créer un espace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Créer un espace' });
    await ui.type(within(dialog).getByLabelText(/Nom de l'espace/), 'Cabinet Levant');
    await ui.click(within(dialog).getByRole('button', { name: "Créer l'espace" }));
    expect(await within(dialog).findByText('Le prénom est obligatoire')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('adds a tier: the price typed in euros reaches the API in cents', async () => {
    const { calls } = mockFetch([
      ...base,
      { path: `/api/environment/${horizon.uuid}/tier`, body: { data: [tier], current: tier.uuid } },
      { method: 'POST', path: `/api/environment/${horizon.uuid}/tier`, status: 201, body: { ...tier, uuid: '9e000000-0000-4000-8000-000000000002', title: 'Tarif 2027', startDate: '2027-01-01' } },
    ]);
    render();
    const ui = userEvent.setup();
    await ui.click(within(await screen.findByRole('table', { name: 'Espaces' })).getByRole('button', { name: 'Paliers : Cabinet Horizon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Paliers de Cabinet Horizon' });
    const list = await within(dialog).findByRole('list', { name: 'Paliers' });
    expect(within(list).getByText('En vigueur')).toBeInTheDocument();
    expect(within(list).getByText(/À partir du 01\/01\/2026 · 12,50\s€ HT \/ véhicule \/ mois · 5 organisations incluses · 1 gratuite/)).toBeInTheDocument();

    await ui.click(within(dialog).getByRole('button', { name: 'Ajouter un palier' }));
    const form = within(dialog).getByRole('form', { name: 'Nouveau palier' });
    await ui.type(within(form).getByLabelText(/Nom du palier/), 'Tarif 2027');
    await ui.type(within(form).getByLabelText(/Prix par véhicule/), '9,90');
    await ui.click(within(form).getByRole('button', { name: 'Ajouter le palier' }));
    await waitFor(async () =>
      expect(await bodyOf(calls, 'POST', `/api/environment/${horizon.uuid}/tier`)).toMatchObject({ title: 'Tarif 2027', priceCents: 990, includedOrganizations: 0, freeOrganizations: 0 }),
    );
  });

  it('deletes a tier only once confirmed, saying when it is the one in force', async () => {
    const { calls } = mockFetch([
      ...base,
      { path: `/api/environment/${horizon.uuid}/tier`, body: { data: [tier], current: tier.uuid } },
      { method: 'DELETE', path: `/api/environment/${horizon.uuid}/tier/${tier.uuid}`, status: 204 },
    ]);
    render();
    const ui = userEvent.setup();
    await ui.click(within(await screen.findByRole('table', { name: 'Espaces' })).getByRole('button', { name: 'Paliers : Cabinet Horizon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Paliers de Cabinet Horizon' });
    await ui.click(await within(dialog).findByRole('button', { name: 'Supprimer le palier Tarif 2026' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Supprimer le palier « Tarif 2026 » ?' });
    expect(within(confirm).getByText('C’est le palier en vigueur : les prix de l’espace suivront le palier précédent. Cette action est irréversible.')).toBeInTheDocument();
    await ui.click(within(confirm).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer le palier Tarif 2026' }));
    await ui.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Supprimer le palier' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => new URL(c.url).pathname)).toEqual([`/api/environment/${horizon.uuid}/tier/${tier.uuid}`]));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('refuses a negative price in French under the price field', async () => {
    const { calls } = mockFetch([...base, { path: `/api/environment/${horizon.uuid}/tier`, body: { data: [], current: null } }]);
    render();
    const ui = userEvent.setup();
    await ui.click(within(await screen.findByRole('table', { name: 'Espaces' })).getByRole('button', { name: 'Paliers : Cabinet Horizon' }));
    const dialog = await screen.findByRole('dialog', { name: 'Paliers de Cabinet Horizon' });
    expect(await within(dialog).findByText('Aucun palier pour cet espace.')).toBeInTheDocument();
    await ui.click(within(dialog).getByRole('button', { name: 'Ajouter un palier' }));
    const form = within(dialog).getByRole('form', { name: 'Nouveau palier' });
    await ui.type(within(form).getByLabelText(/Nom du palier/), 'Tarif');
    await ui.type(within(form).getByLabelText(/Prix par véhicule/), '-3');
    await ui.click(within(form).getByRole('button', { name: 'Ajouter le palier' }));
    expect(await within(form).findByText('Le prix doit être positif')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('edits a space, its commercial fields included', async () => {
    const { calls } = mockFetch([...base, { method: 'PATCH', path: `/api/environment/${horizon.uuid}`, body: environmentBody('Cabinet Horizon') }]);
    render();
    const ui = userEvent.setup();
    await ui.click(within(await screen.findByRole('table', { name: 'Espaces' })).getByRole('button', { name: 'Modifier : Cabinet Horizon' }));
    const dialog = await screen.findByRole('dialog', { name: "Modifier l'espace" });
    const free = within(dialog).getByLabelText(/Organisations gratuites/);
    await ui.clear(free);
    await ui.type(free, '4');
    await ui.type(within(dialog).getByLabelText(/Produit Stripe/), 'prod_horizon');
    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(async () =>
      expect(await bodyOf(calls, 'PATCH', `/api/environment/${horizon.uuid}`)).toEqual({
        title: 'Cabinet Horizon',
        refererEmail: 'contact@horizon.fr',
        bookingUrl: null,
        freeOrganizations: 4,
        stripeProductId: 'prod_horizon',
      }),
    );
    expect(await screen.findByText('Espace modifié')).toBeInTheDocument();
  });

  it('joins a space to act in it, and offers to quit the one ROOT works in', async () => {
    const { calls } = mockFetch([
      ...base,
      { method: 'POST', path: `/api/environment-user/${horizon.uuid}/join`, body: { uuid: '3e000000-0000-4000-8000-0000000000e9', environment: { uuid: horizon.uuid, title: horizon.title } } },
    ]);
    render();
    const ui = userEvent.setup();
    await ui.click(within(await screen.findByRole('table', { name: 'Espaces' })).getByRole('button', { name: 'Rejoindre : Cabinet Horizon' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && new URL(c.url).pathname === `/api/environment-user/${horizon.uuid}/join`)).toBe(true));
  });

  it('offers ROOT to quit the space it works in', async () => {
    mockFetch(base);
    render(makeUser({ ...root, currentEnvironmentUser: { uuid: '3e000000-0000-4000-8000-0000000000e9', environment: { uuid: horizon.uuid, title: horizon.title } } }));
    const table = await screen.findByRole('table', { name: 'Espaces' });
    expect(await within(table).findByRole('button', { name: 'Quitter : Cabinet Horizon' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Rejoindre : Cabinet Horizon' })).not.toBeInTheDocument();
  });

  it('renames a guarantee', async () => {
    const { calls } = mockFetch([...base, { method: 'PATCH', path: `/api/guarantees/${GUARANTEES[1]!.uuid}`, body: { ...GUARANTEES[1], label: 'Bris de glace et optiques' } }]);
    render();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Renommer Bris de glace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renommer la garantie' });
    const field = within(dialog).getByLabelText(/Libellé de la garantie/);
    await ui.clear(field);
    await ui.type(field, 'Bris de glace et optiques');
    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(async () => expect(await bodyOf(calls, 'PATCH', `/api/guarantees/${GUARANTEES[1]!.uuid}`)).toEqual({ label: 'Bris de glace et optiques' }));
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type InsuranceIntermediary, todayIso } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { IntermediarySection } from './intermediary-section';
import { onAPhone } from '../../../test/media';

const demo: InsuranceIntermediary = {
  uuid: 'd0000000-0000-4000-8000-000000000002',
  name: 'Cabinet Démo Courtage',
  contactLastName: 'Lefèvre',
  contactFirstName: 'Sophie',
  email: 'sophie.lefevre@cabinet-demo-courtage.fr',
  productionEmail: 'production@cabinet-demo-courtage.fr',
  startDate: '2024-01-02T11:00:00.000Z',
  createdAt: '2024-01-02T08:00:00.000Z',
};
const former: InsuranceIntermediary = {
  ...demo,
  uuid: 'd0000000-0000-4000-8000-000000000001',
  name: 'Assurances Bertin & Associés',
  contactFirstName: 'Hélène',
  contactLastName: 'Bertin',
  productionEmail: 'production@bertin-assurances.fr',
  startDate: '2022-01-03T11:00:00.000Z',
};

const routes = (current: InsuranceIntermediary | null, history: InsuranceIntermediary[], extra: MockRoute[] = []): MockRoute[] => [
  { path: '/api/insurance-intermediary/current', body: current },
  { path: '/api/insurance-intermediary', body: history },
  ...extra,
];

function renderSection(roles: ('ADMIN' | 'USER')[] = ['ADMIN']) {
  authStore.setSession('token', makeUser({ roles }));
  return renderWithProviders(
    <>
      <IntermediarySection />
      <SnackbarHost />
    </>,
  );
}

describe('<IntermediarySection />', () => {
  it('shows the intermediary in charge and the history, the current one marked, to a member without the add button', async () => {
    mockFetch(routes(demo, [demo, former]));
    renderSection(['USER']);
    expect(await screen.findByText('Intermédiaire en fonction')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'production@cabinet-demo-courtage.fr' })).toHaveAttribute('href', 'mailto:production@cabinet-demo-courtage.fr');
    expect(screen.getByText('Sophie Lefèvre', { selector: 'dd' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Historique des intermédiaires' });
    expect(within(table).getByRole('row', { name: /Cabinet Démo Courtage \(en fonction\) Sophie Lefèvre/ })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Assurances Bertin & Associés Hélène Bertin production@bertin-assurances\.fr 03\/01\/2022/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouvel intermédiaire' })).not.toBeInTheDocument();
  });

  it('on a phone, shows the history as cards, each field with its label, and no table', async () => {
    onAPhone();
    mockFetch(routes(demo, [demo, former]));
    renderSection(['USER']);
    const list = await screen.findByRole('list', { name: 'Historique des intermédiaires' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent?.replace(/\s/g, ' '))).toEqual([
      'Cabinet Démo Courtage (en fonction)ContactSophie LefèvreE-mail de productionproduction@cabinet-demo-courtage.frDepuis le02/01/2024',
      'Assurances Bertin & AssociésContactHélène BertinE-mail de productionproduction@bertin-assurances.frDepuis le03/01/2022',
    ]);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says that nobody is told of the fleet movements without an intermediary', async () => {
    mockFetch(routes(null, []));
    renderSection();
    expect(await screen.findByText(/Aucun intermédiaire en fonction : les entrées et sorties de véhicules ne sont signalées à personne/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows an inline error when the intermediary cannot be read', async () => {
    mockFetch([
      { path: '/api/insurance-intermediary/current', status: 500, body: apiErrorBody(500, 'Erreur interne') },
      { path: '/api/insurance-intermediary', body: [] },
    ]);
    renderSection();
    expect(await screen.findByRole('alert', {}, { timeout: 5_000 })).toHaveTextContent("Impossible de charger l'intermédiaire.");
  });

  it('lets an administrator name a new intermediary from today, the e-mails checked in French first', async () => {
    const created = { ...demo, uuid: 'd0000000-0000-4000-8000-000000000003', name: 'Courtage Nouveau' };
    const { calls } = mockFetch(routes(demo, [demo, former], [{ method: 'POST', path: '/api/insurance-intermediary', respond: () => ({ status: 201, body: created }) }]));
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Nouvel intermédiaire' }));
    const form = await screen.findByRole('form', { name: 'Nouvel intermédiaire' });
    await ui.type(within(form).getByLabelText(/Nom du cabinet/), 'Courtage Nouveau');
    await ui.type(within(form).getByLabelText(/Prénom du contact/), 'Luc');
    await ui.type(within(form).getByLabelText(/^Nom du contact/), 'Garnier');
    await ui.type(within(form).getByLabelText(/E-mail du contact/), 'luc@');
    await ui.type(within(form).getByLabelText(/E-mail de production/), 'production');
    await ui.click(within(form).getByRole('button', { name: "Enregistrer l'intermédiaire" }));
    expect(await within(form).findAllByText('Adresse e-mail invalide')).toHaveLength(2);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await ui.type(within(form).getByLabelText(/E-mail du contact/), 'courtage-nouveau.fr');
    await ui.type(within(form).getByLabelText(/E-mail de production/), '@courtage-nouveau.fr');
    await ui.click(within(form).getByRole('button', { name: "Enregistrer l'intermédiaire" }));

    expect(await screen.findByText('Intermédiaire enregistré')).toBeInTheDocument();
    expect(await calls.find((c) => c.method === 'POST')!.json()).toEqual({
      name: 'Courtage Nouveau',
      contactFirstName: 'Luc',
      contactLastName: 'Garnier',
      email: 'luc@courtage-nouveau.fr',
      productionEmail: 'production@courtage-nouveau.fr',
      startDate: todayIso(),
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Nouvel intermédiaire' })).not.toBeInTheDocument());
  });

  it("puts the API's field errors under the fields", async () => {
    mockFetch(
      routes(null, [], [
        {
          method: 'POST',
          path: '/api/insurance-intermediary',
          status: 400,
          body: apiErrorBody(400, 'Données invalides (productionEmail) : Adresse e-mail invalide', [{ path: 'productionEmail', message: 'Adresse e-mail refusée par le serveur' }]),
        },
      ]),
    );
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Nouvel intermédiaire' }));
    const form = await screen.findByRole('form', { name: 'Nouvel intermédiaire' });
    await ui.type(within(form).getByLabelText(/Nom du cabinet/), 'Courtage');
    await ui.type(within(form).getByLabelText(/Prénom du contact/), 'Luc');
    await ui.type(within(form).getByLabelText(/^Nom du contact/), 'Garnier');
    await ui.type(within(form).getByLabelText(/E-mail du contact/), 'luc@courtage.fr');
    await ui.type(within(form).getByLabelText(/E-mail de production/), 'prod@courtage.fr');
    await ui.click(within(form).getByRole('button', { name: "Enregistrer l'intermédiaire" }));
    expect(await within(form).findByText('Adresse e-mail refusée par le serveur')).toBeInTheDocument();
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InsuranceContract } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { GUARANTEES, makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { ContractSection } from './contract-section';

const current: InsuranceContract = {
  uuid: 'c0000000-0000-4000-8000-000000000002',
  insurer: 'Axa France',
  policyNumber: 'FLT-2024-001873',
  startDate: '2025-01-01',
  renewalDate: '2027-01-01',
  annualPremium: 48_250.8,
  guarantees: [
    { guaranteeUuid: GUARANTEES[0]!.uuid, label: 'Responsabilité civile', deductible: 0 },
    { guaranteeUuid: GUARANTEES[1]!.uuid, label: 'Bris de glace', deductible: 150 },
  ],
  createdAt: '2024-12-18T14:30:00.000Z',
};
const previous: InsuranceContract = { ...current, uuid: 'c0000000-0000-4000-8000-000000000001', startDate: '2024-01-01', renewalDate: '2025-01-01', annualPremium: 45_600, createdAt: '2023-12-15T09:00:00.000Z' };

const routes = (contracts: InsuranceContract[], extra: MockRoute[] = []): MockRoute[] => [
  { path: '/api/contract', body: contracts },
  { path: '/api/guarantees', body: GUARANTEES },
  ...extra,
];

function renderSection(roles: ('ADMIN' | 'USER')[] = ['ADMIN']) {
  authStore.setSession('token', makeUser({ roles }));
  return renderWithProviders(
    <>
      <ContractSection />
      <SnackbarHost />
    </>,
  );
}

function dateInput(label: string): HTMLInputElement {
  const input = screen.getAllByLabelText(new RegExp(label)).find((e): e is HTMLInputElement => e instanceof HTMLInputElement);
  if (!input) throw new Error(`No date input labelled ${label}`);
  return input;
}

describe('<ContractSection />', () => {
  it('shows a member the contract in force, its guarantees and deductibles, and the earlier versions, without editing', async () => {
    mockFetch(routes([current, previous]));
    renderSection(['USER']);
    expect(await screen.findByText('Axa France')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Contrat' })).toBeInTheDocument();
    expect(screen.getByText('FLT-2024-001873')).toBeInTheDocument();
    expect(screen.getByText('01/01/2027')).toBeInTheDocument();
    expect(screen.getByText(/48\s250,80\s€/)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Garanties couvertes' });
    expect(within(table).getByRole('row', { name: /Responsabilité civile Sans franchise/ })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Bris de glace 150,00\s€/ })).toBeInTheDocument();
    expect(screen.getByText('Versions précédentes (1)')).toBeInTheDocument();
    expect(screen.getByText(/Du 01\/01\/2024 au 01\/01\/2025 : Axa France/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Modifier le contrat' })).not.toBeInTheDocument();
  });

  it('says when there is no contract yet', async () => {
    mockFetch(routes([]));
    renderSection(['USER']);
    expect(await screen.findByText(/Aucun contrat renseigné pour le moment\. Un administrateur peut le renseigner\./)).toBeInTheDocument();
  });

  it('shows an inline error when the contract cannot be read', async () => {
    mockFetch([{ path: '/api/contract', status: 500, body: apiErrorBody(500, 'Erreur interne') }]);
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Impossible de charger le contrat.');
  });

  it('lets an administrator save a new version, checking the amounts and dates in French first', async () => {
    const { calls } = mockFetch(
      routes([current, previous], [{ method: 'POST', path: '/api/contract/create-or-update', respond: () => ({ body: { ...current, uuid: 'c0000000-0000-4000-8000-000000000003', annualPremium: 50_000 } }) }]),
    );
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Modifier le contrat' }));
    const form = await screen.findByRole('form', { name: "Contrat d'assurance" });
    const premium = within(form).getByLabelText(/Prime annuelle/);
    expect((premium as HTMLInputElement).value).toMatch(/^48\s250,80$/);

    await ui.clear(premium);
    await ui.type(premium, '-5');
    fireEvent.change(dateInput('Échéance'), { target: { value: '01/01/2024' } });
    await ui.click(within(form).getByRole('button', { name: 'Enregistrer le contrat' }));
    expect(await within(form).findByText('Le montant ne peut pas être négatif')).toBeInTheDocument();
    expect(within(form).getByText("L'échéance doit être postérieure à la date de début")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await ui.clear(premium);
    await ui.type(premium, '50 000');
    fireEvent.change(dateInput('Échéance'), { target: { value: '01/01/2028' } });
    await ui.click(within(form).getByRole('button', { name: 'Retirer la garantie 2' }));
    await ui.click(within(form).getByRole('button', { name: 'Enregistrer le contrat' }));

    expect(await screen.findByText('Contrat enregistré')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(await post.json()).toEqual({
      uuid: current.uuid,
      insurer: 'Axa France',
      policyNumber: 'FLT-2024-001873',
      startDate: '2025-01-01',
      renewalDate: '2028-01-01',
      annualPremium: 50_000,
      guarantees: [{ guaranteeUuid: GUARANTEES[0]!.uuid, deductible: 0 }],
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: "Contrat d'assurance" })).not.toBeInTheDocument());
  });

  it("tells the API's refusal in the snackbar and keeps the form", async () => {
    mockFetch(
      routes([current], [{ method: 'POST', path: '/api/contract/create-or-update', status: 409, body: { statusCode: 409, error: 'Conflict', message: 'Le contrat a été modifié entre-temps : rechargez la page pour voir la dernière version' } }]),
    );
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Modifier le contrat' }));
    const form = await screen.findByRole('form', { name: "Contrat d'assurance" });
    await ui.click(within(form).getByRole('button', { name: 'Enregistrer le contrat' }));
    expect(await screen.findByText(/modifié entre-temps/)).toBeInTheDocument();
    expect(screen.getByRole('form', { name: "Contrat d'assurance" })).toBeInTheDocument();
  });

  it('lets an administrator fill in a first contract, a guarantee chosen with its deductible', async () => {
    const { calls } = mockFetch(routes([], [{ method: 'POST', path: '/api/contract/create-or-update', respond: () => ({ status: 201, body: current }) }]));
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Renseigner le contrat' }));
    const form = await screen.findByRole('form', { name: "Contrat d'assurance" });
    await ui.click(within(form).getByRole('button', { name: 'Enregistrer le contrat' }));
    expect(await within(form).findByText("L'assureur est obligatoire")).toBeInTheDocument();
    expect(within(form).getByText('La prime annuelle est obligatoire')).toBeInTheDocument();

    await ui.type(within(form).getByLabelText(/Assureur/), 'MMA Entreprise');
    await ui.type(within(form).getByLabelText(/Numéro de police/), 'MMA-FL-1');
    fireEvent.change(dateInput('Date de début'), { target: { value: '01/07/2026' } });
    fireEvent.change(dateInput('Échéance'), { target: { value: '01/07/2027' } });
    await ui.type(within(form).getByLabelText(/Prime annuelle/), '21 400,50');
    await ui.click(within(form).getByRole('button', { name: 'Ajouter une garantie' }));
    await ui.click(within(form).getByRole('combobox', { name: /Garantie 1/ }));
    await ui.click(await screen.findByRole('option', { name: 'Bris de glace' }));
    await ui.type(within(form).getByLabelText(/Franchise/), '200');
    await ui.click(within(form).getByRole('button', { name: 'Enregistrer le contrat' }));

    expect(await screen.findByText('Contrat enregistré')).toBeInTheDocument();
    expect(await calls.find((c) => c.method === 'POST')!.json()).toEqual({
      insurer: 'MMA Entreprise',
      policyNumber: 'MMA-FL-1',
      startDate: '2026-07-01',
      renewalDate: '2027-07-01',
      annualPremium: 21_400.5,
      guarantees: [{ guaranteeUuid: GUARANTEES[1]!.uuid, deductible: 200 }],
    });
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndicatorListSchema, SaveIndicatorsBodySchema, todayIso, type Indicator } from '@flotte/contract';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { defaultValues, parseFrenchNumber } from './indicator-form-dialog';
import { IndicatorsSection } from './indicators-section';
import { onAPhone } from '../../../test/media';

// Every stubbed answer is parsed by the contract: a stub must be a valid answer of the API.
const PERIODS: Indicator[] = IndicatorListSchema.parse([
  { uuid: '6a000000-0000-4000-8000-000000000002', startDate: '2025-01-01', endDate: '2025-12-31', motorsCount: 12, cashReceived: 36600.5, previousIndicatorUuid: '6a000000-0000-4000-8000-000000000001' },
  { uuid: '6a000000-0000-4000-8000-000000000001', startDate: '2024-01-01', endDate: '2024-12-31', motorsCount: 10, cashReceived: 36500, previousIndicatorUuid: null },
]);

function renderSection(roles: ('ADMIN' | 'USER')[]) {
  authStore.setSession('token', makeUser({ roles }));
  return renderWithProviders(
    <>
      <IndicatorsSection />
      <SnackbarHost />
    </>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('<IndicatorsSection />', () => {
  it('lists the periods newest first, in French, inside a section titled Indicateurs', async () => {
    mockFetch([{ path: '/api/indicators', body: PERIODS }]);
    renderSection(['USER']);
    const section = screen.getByRole('region', { name: 'Indicateurs' });
    expect(within(section).getByRole('heading', { level: 2, name: 'Indicateurs' })).toBeInTheDocument();
    const rows = await within(section).findAllByRole('row');
    expect(rows.slice(1).map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Du 01\/01\/2025 au 31\/12\/2025\s*12\s*36\s600,50\s€$/u),
      expect.stringMatching(/^Du 01\/01\/2024 au 31\/12\/2024\s*10\s*36\s500,00\s€$/u),
    ]);
    // A member reads: no add, edit or delete.
    expect(screen.queryByRole('button', { name: 'Ajouter une période' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Supprimer la période/ })).not.toBeInTheDocument();
  });

  it('on a phone, shows each period as a card with its figures under it, and keeps its actions', async () => {
    onAPhone();
    mockFetch([{ path: '/api/indicators', body: PERIODS }]);
    renderSection(['ADMIN']);
    const list = await screen.findByRole('list', { name: "Périodes d'assurance" });
    const items = within(list).getAllByRole('listitem');
    // Two lines per item (the dates, then the figures): textContent joins them without a space.
    // The period as the title, then each figure with its label (as the table's headers say them).
    expect(items.map((item) => item.textContent?.replace(/\s/g, ' '))).toEqual([
      'Du 01/01/2025 au 31/12/2025Véhicules en début12Prime acquise36 600,50 €',
      'Du 01/01/2024 au 31/12/2024Véhicules en début10Prime acquise36 500,00 €',
    ]);
    expect(within(items[0]!).getByText('Prime acquise').tagName).toBe('DT');
    expect(within(items[1]!).getByRole('button', { name: 'Supprimer la période du 01/01/2024 au 31/12/2024' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when there is no period yet', async () => {
    mockFetch([{ path: '/api/indicators', body: [] }]);
    renderSection(['ADMIN']);
    expect(await screen.findByText(/Aucune période pour l'instant/)).toBeInTheDocument();
  });

  it('shows a failed load as an inline alert', async () => {
    mockFetch([{ path: '/api/indicators', status: 500, body: apiErrorBody(500, 'Erreur interne du serveur') }]);
    renderSection(['USER']);
    expect(await screen.findByRole('alert')).toHaveTextContent("Les périodes n'ont pas pu être chargées");
  });

  it('an administrator adds a period with the defaults of SPEC 9, then the list is read again', async () => {
    const { calls } = mockFetch([
      { path: '/api/indicators', body: PERIODS },
      { method: 'POST', path: '/api/indicators', body: PERIODS },
    ]);
    renderSection(['ADMIN']);
    await userEvent.click(await screen.findByRole('button', { name: 'Ajouter une période' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter une période' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nombre de véhicules/ }), '14');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Prime acquise/ }), '42 000,50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Période ajoutée')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const post = calls.find((c) => c.method === 'POST')!;
    const body = SaveIndicatorsBodySchema.parse(await post.clone().json());
    const today = todayIso();
    expect(body).toEqual({ currentIndicators: [{ startDate: today, endDate: defaultValues(undefined, today).endDate, motorsCount: 14, cashReceived: 42000.5 }] });
    // The periods' list (and the dashboard's figures) are stale after the write: the list is fetched again.
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && new URL(c.url).pathname === '/api/indicators')).toHaveLength(2));
  });

  it('shows the contract’s French messages under the fields and sends nothing', async () => {
    const { calls } = mockFetch([{ path: '/api/indicators', body: PERIODS }]);
    renderSection(['ADMIN']);
    await userEvent.click(await screen.findByRole('button', { name: 'Ajouter une période' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nombre de véhicules/ }), '-3');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Prime acquise/ }), '12,345');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findByText('Le nombre de véhicules ne peut pas être négatif')).toBeInTheDocument();
    expect(within(dialog).getByText('Le montant a au plus deux décimales (centimes)')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('edits a period with its uuid and shows the API’s overlap message', async () => {
    const message = 'Les périodes ne doivent pas se chevaucher : la période du 01/01/2024 au 31/12/2024 chevauche la période du 01/01/2025 au 31/12/2025';
    const { calls } = mockFetch([
      { path: '/api/indicators', body: PERIODS },
      { method: 'POST', path: '/api/indicators', status: 400, body: apiErrorBody(400, message, [{ path: 'currentIndicators.0.startDate', message: 'Chevauche la période du 01/01/2025 au 31/12/2025' }]) },
    ]);
    renderSection(['ADMIN']);
    await userEvent.click(await screen.findByRole('button', { name: 'Modifier la période du 01/01/2024 au 31/12/2024' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier la période' });
    const motors = within(dialog).getByRole('textbox', { name: /Nombre de véhicules/ });
    expect(motors).toHaveValue('10');
    await userEvent.clear(motors);
    await userEvent.type(motors, '11');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(within(dialog).getByText('Chevauche la période du 01/01/2025 au 31/12/2025')).toBeInTheDocument();
    const body = SaveIndicatorsBodySchema.parse(await calls.find((c) => c.method === 'POST')!.clone().json());
    expect(body.currentIndicators[0]).toMatchObject({ uuid: PERIODS[1]!.uuid, motorsCount: 11, cashReceived: 36500 });
  });

  it('asks in the app’s confirmation dialog before deleting a period, focus on « Annuler », and gives the focus back', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const { calls } = mockFetch([{ path: '/api/indicators', body: PERIODS }]);
    renderSection(['ADMIN']);
    const ui = userEvent.setup();
    const remove = await screen.findByRole('button', { name: 'Supprimer la période du 01/01/2025 au 31/12/2025' });
    await ui.click(remove);
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer la période du 01/01/2025 au 31/12/2025 ?' });
    expect(dialog).toHaveAccessibleDescription(/^Cette action est irréversible\./);
    // The safe choice first.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Annuler' })).toHaveFocus());
    await ui.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(remove).toHaveFocus());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('deletes a period once confirmed, then the list is read again and the focus goes to « Ajouter une période »', async () => {
    let deleted = false;
    const { calls } = mockFetch([
      { path: '/api/indicators', respond: () => ({ body: deleted ? PERIODS.slice(1) : PERIODS }) },
      {
        method: 'DELETE',
        path: `/api/indicators/${PERIODS[0]!.uuid}`,
        respond: () => {
          deleted = true;
          return { status: 204 };
        },
      },
    ]);
    renderSection(['ADMIN']);
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Supprimer la période du 01/01/2025 au 31/12/2025' }));
    const dialog = await screen.findByRole('alertdialog');
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer la période' }));
    expect(await screen.findByText('Période supprimée')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Supprimer la période du 01/01/2025 au 31/12/2025' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Ajouter une période' })).toHaveFocus();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('keeps the dialog open and says why when the deletion fails', async () => {
    mockFetch([
      { path: '/api/indicators', body: PERIODS },
      { method: 'DELETE', path: `/api/indicators/${PERIODS[0]!.uuid}`, status: 404, body: apiErrorBody(404, 'Période introuvable') },
    ]);
    renderSection(['ADMIN']);
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Supprimer la période du 01/01/2025 au 31/12/2025' }));
    const dialog = await screen.findByRole('alertdialog');
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer la période' }));
    expect(await screen.findByText('Période introuvable')).toBeInTheDocument();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Supprimer la période' })).toBeEnabled();
  });
});

describe('parseFrenchNumber', () => {
  it.each([
    ['36 600,50', 36600.5],
    ['36\u202f600,5 €', 36600.5],
    ['12.25', 12.25],
    ['', Number.NaN],
    ['douze', Number.NaN],
  ])('%j → %d', (text, expected) => {
    expect(parseFrenchNumber(text)).toBe(expected);
  });
});

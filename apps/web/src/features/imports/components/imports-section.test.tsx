import { ImportListSchema, type ImportSummary } from '@flotte/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { formatDateTime } from '../../../lib/format';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { ImportsSection } from './imports-section';
import { onAPhone } from '../../../test/media';

const COMMITTED_ID = '0b6f3a52-6c7e-4d51-9d0a-2f1f4f0f0a11';
const REVERTED_ID = '0b6f3a52-6c7e-4d51-9d0a-2f1f4f0f0a12';
const OLD_ID = '0b6f3a52-6c7e-4d51-9d0a-2f1f4f0f0a13';

// A stub must be a valid answer of the API: parsed by the contract.
const IMPORTS: ImportSummary[] = ImportListSchema.parse({
  data: [
    {
      importId: COMMITTED_ID,
      entity: 'vehicule',
      mode: 'compare',
      fileName: 'flotte-assureur.xlsx',
      rowCount: 12,
      status: 'committed',
      percent: 100,
      counts: { created: 3, updated: 2, unchanged: 6, skipped: 1, exited: 1 },
      error: null,
      author: { uuid: '6a000000-0000-4000-8000-000000000001', name: 'Claire Martin' },
      createdAt: '2026-11-26T08:00:00.000Z',
      committedAt: '2026-11-26T08:02:00.000Z',
      revertedAt: null,
      // Decided by the server: the browser's clock has no say.
      revertibleUntil: '2026-11-27T08:02:00.000Z',
    },
    {
      importId: REVERTED_ID,
      entity: 'driver',
      mode: 'upsert',
      fileName: 'conducteurs.csv',
      rowCount: 4,
      status: 'reverted',
      percent: 100,
      counts: { created: 4, updated: 0, unchanged: 0, skipped: 0, exited: 0 },
      error: null,
      author: { uuid: null, name: 'Utilisateur supprimé' },
      createdAt: '2026-11-25T10:00:00.000Z',
      committedAt: '2026-11-25T10:01:00.000Z',
      revertedAt: '2026-11-25T11:00:00.000Z',
      revertibleUntil: null,
    },
    {
      importId: OLD_ID,
      entity: 'sinister',
      mode: null,
      fileName: 'sinistres.csv',
      rowCount: 20,
      status: 'previewed',
      percent: 0,
      counts: null,
      error: null,
      author: { uuid: '6a000000-0000-4000-8000-000000000001', name: 'Claire Martin' },
      createdAt: '2026-11-20T10:00:00.000Z',
      committedAt: null,
      revertedAt: null,
      revertibleUntil: null,
    },
  ],
}).data;

const AUTHOR = '6a000000-0000-4000-8000-000000000001';

/** A member by default: the author of the imports listed (`uuid`: someone else). */
function renderSection(roles: ('ADMIN' | 'USER')[] = ['USER'], uuid = AUTHOR) {
  authStore.setSession('token', makeUser({ roles, uuid }));
  return renderWithProviders(
    <>
      <ImportsSection />
      <SnackbarHost />
    </>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('<ImportsSection />', () => {
  it('lists the imports with their date, author, file, register, counts and state, inside a section titled Imports', async () => {
    mockFetch([{ path: '/api/import', body: { data: IMPORTS } }]);
    renderSection();
    const section = screen.getByRole('region', { name: 'Imports' });
    const rows = await within(section).findAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Date',
      'Fichier',
      'Créés',
      'Modifiés',
      'Inchangés',
      'Ignorés',
      'Sortis',
      'État',
    ]);
    const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent);
    expect(cells(rows[1]!)).toEqual([
      // When, and by whom under it.
      `${formatDateTime('2026-11-26T08:02:00.000Z')}par Claire Martin`,
      // The file, and the register it went into under it.
      'flotte-assureur.xlsxVéhicules',
      '3',
      '2',
      '6',
      '1',
      '1',
      `Importé, annulable jusqu’au ${formatDateTime('2026-11-27T08:02:00.000Z')}Annuler l’import`,
    ]);
    expect(cells(rows[2]!)).toEqual([
      `${formatDateTime('2026-11-25T10:01:00.000Z')}par Utilisateur supprimé`,
      'conducteurs.csvConducteurs',
      '4',
      '0',
      '0',
      '0',
      '0',
      `Annulé le ${formatDateTime('2026-11-25T11:00:00.000Z')}`,
    ]);
    expect(cells(rows[3]!)).toEqual([`${formatDateTime('2026-11-20T10:00:00.000Z')}par Claire Martin`, 'sinistres.csvSinistres', '—', '—', '—', '—', '—', 'Non importé (arrêté avant la confirmation)']);
    // Only the import the server says is still revertible offers the way back.
    expect(within(section).getAllByRole('button', { name: /^Annuler l’import/ })).toHaveLength(1);
  });

  it('on a phone, shows each import as a card with its figures labelled', async () => {
    onAPhone();
    mockFetch([{ path: '/api/import', body: { data: IMPORTS.slice(0, 1) } }]);
    renderSection();
    const list = await screen.findByRole('list', { name: 'Historique des imports' });
    const [item] = within(list).getAllByRole('listitem');
    expect(within(item!).getByText('Créés').tagName).toBe('DT');
    expect(item!.textContent).toContain('Fichierflotte-assureur.xlsxVéhicules');
    expect(within(item!).getByRole('button', { name: `Annuler l’import flotte-assureur.xlsx du ${formatDateTime('2026-11-26T08:02:00.000Z')}` })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when there is no import yet, and shows a failed load as an alert', async () => {
    mockFetch([{ path: '/api/import', body: { data: [] } }]);
    const { unmount } = renderSection();
    expect(await screen.findByText(/Aucun import pour l’instant/)).toBeInTheDocument();
    unmount();
    mockFetch([{ path: '/api/import', status: 500, body: apiErrorBody(500, 'Erreur interne du serveur') }]);
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Les imports n’ont pas pu être chargés');
  });

  it('a member undoes an import after confirming: the rows left as they were are named, the history is read again', async () => {
    const reverted = { ...IMPORTS[0]!, status: 'reverted' as const, revertedAt: '2026-11-26T09:00:00.000Z', revertibleUntil: null };
    const { calls } = mockFetch([
      { path: '/api/import', respond: (_request, call) => ({ body: { data: call === 1 ? IMPORTS : [reverted, ...IMPORTS.slice(1)] } }) },
      {
        method: 'POST',
        path: `/api/import/${COMMITTED_ID}/revert`,
        body: { restored: 4, left: [{ entity: 'vehicule', uuid: '7c1d2e3f-1111-4222-8333-944455556666', label: 'AB-123-CD', reason: "modifié depuis l'import : laissé tel quel" }] },
      },
    ]);
    const user = userEvent.setup();
    renderSection(['USER']);
    await user.click(await screen.findByRole('button', { name: /^Annuler l’import flotte-assureur\.xlsx/ }));
    const dialog = await screen.findByRole('alertdialog', { name: /^Annuler l’import flotte-assureur\.xlsx/ });
    // Nothing is sent before the confirmation.
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Annuler l’import' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'POST').map((call) => new URL(call.url).pathname)).toEqual([`/api/import/${COMMITTED_ID}/revert`]);
    const section = screen.getByRole('region', { name: 'Imports' });
    expect(within(section).getByText(/annulé : 4 lignes rétablies/)).toHaveTextContent("AB-123-CD : modifié depuis l'import : laissé tel quel");
    await waitFor(() => expect(within(section).queryAllByRole('button', { name: /^Annuler l’import/ })).toHaveLength(0));
    expect(within(section).getByText(`Annulé le ${formatDateTime('2026-11-26T09:00:00.000Z')}`)).toBeInTheDocument();
  });

  it('a refused undo (past the 24 h, by the server) says why and leaves the import listed', async () => {
    mockFetch([
      { path: '/api/import', body: { data: IMPORTS } },
      { method: 'POST', path: `/api/import/${COMMITTED_ID}/revert`, status: 409, body: { ...apiErrorBody(409, "L'annulation n'est possible que dans les 24 heures qui suivent l'import"), error: 'Conflict' } },
    ]);
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: /^Annuler l’import flotte-assureur\.xlsx/ }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Annuler l’import' }));
    expect(await screen.findByText("L'annulation n'est possible que dans les 24 heures qui suivent l'import")).toBeInTheDocument();
    // The confirmation stays open for another try or to keep the import.
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('another member reads the history without the way back; an administrator gets it for anyone’s import', async () => {
    mockFetch([{ path: '/api/import', body: { data: IMPORTS } }]);
    const { unmount } = renderSection(['USER'], '6a000000-0000-4000-8000-000000000009');
    const section = screen.getByRole('region', { name: 'Imports' });
    await within(section).findAllByRole('row');
    expect(within(section).queryAllByRole('button')).toHaveLength(0);
    unmount();
    renderSection(['ADMIN'], '6a000000-0000-4000-8000-000000000009');
    expect(await screen.findByRole('button', { name: /^Annuler l’import flotte-assureur\.xlsx/ })).toBeInTheDocument();
  });
});

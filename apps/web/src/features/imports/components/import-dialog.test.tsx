import type { ImportPreview, ImportValidation } from '@flotte/contract';
import { IMPORT_FIELDS, ImportSummarySchema } from '@flotte/contract';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { snackbar } from '../../../components/snackbar/snackbar';
import { authStore } from '../../../lib/auth-store';
import { formatDateTime } from '../../../lib/format';
import { queryKeys } from '../../../lib/query-keys';
import { makeUser } from '../../../test/fixtures';
import { fakeXhr } from '../../../test/fake-xhr';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { ImportDialog } from './import-dialog';

configure({ asyncUtilTimeout: 4000 });

const IMPORT_ID = '0b6f3a52-6c7e-4d51-9d0a-2f1f4f0f0a11';
const VEHICULE_UUID = '7c1d2e3f-1111-4222-8333-944455556666';

const preview: ImportPreview = {
  importId: IMPORT_ID,
  entity: 'vehicule',
  fileName: 'flotte.csv',
  format: 'csv',
  encoding: 'utf-8',
  separator: ';',
  sheets: [],
  sheet: null,
  headers: ['Immat', 'Marque', 'Modèle', 'Divers'],
  fields: [...IMPORT_FIELDS.vehicule],
  suggestedMapping: { immatriculation: 0, brand: 1, model: null },
  rowCount: 3,
  sample: [
    { line: 2, cells: ['AB-123-CD', 'Renault', 'Kangoo', 'x'] },
    { line: 3, cells: ['EF-456-GH', 'Peugeot', 'Partner', 'y'] },
    { line: 4, cells: ['', 'Citroën', 'Berlingo', 'z'] },
  ],
};

const counts = { created: 2, updated: 0, unchanged: 0, skipped: 1, exited: 0 };
const validation: ImportValidation = {
  mode: 'upsert',
  rowCount: 3,
  valid: 2,
  invalid: 1,
  counts,
  errors: [{ line: 4, field: 'immatriculation', column: 'Immat', message: "L'immatriculation est obligatoire" }],
  errorCount: 1,
  warnings: [],
  compare: null,
};

function renderDialog(routes: MockRoute[], entity: 'vehicule' | 'driver' = 'vehicule') {
  authStore.setSession('token', makeUser({ roles: ['USER'] }));
  const fetch = mockFetch(routes);
  const onClose = vi.fn();
  const rendered = renderWithProviders(<ImportDialog entity={entity} open onClose={onClose} />);
  const invalidate = vi.spyOn(rendered.queryClient, 'invalidateQueries');
  return { ...rendered, ...fetch, onClose, invalidate };
}

const file = () => new File(['Immat;Marque;Modèle\nAB-123-CD;Renault;Kangoo\n'], 'flotte.csv', { type: 'text/csv' });

async function upload() {
  fireEvent.change(screen.getByLabelText('Fichier à importer'), { target: { files: [file()] } });
  await screen.findByText(/flotte\.csv : 3 lignes, 4 colonnes/);
}

function bodyOf(calls: Request[], path: string) {
  const call = calls.find((candidate) => new URL(candidate.url).pathname === path);
  return call ? call.clone().json() : Promise.resolve(undefined);
}

beforeEach(() => authStore.clear());
afterEach(() => vi.unstubAllGlobals());

describe('ImportDialog', () => {
  it('uploads the file with its percent, maps the columns, checks, confirms, imports and reverts', async () => {
    const sent = fakeXhr({ status: 200, body: preview });
    const { calls, invalidate } = renderDialog([
      { method: 'POST', path: `/api/import/${IMPORT_ID}/validate`, body: validation },
      { method: 'POST', path: `/api/import/${IMPORT_ID}/commit`, body: { ...counts, importId: IMPORT_ID, status: 'committed' } },
      { method: 'POST', path: `/api/import/${IMPORT_ID}/revert`, body: { restored: 2, left: [] } },
      {
        path: `/api/import/${IMPORT_ID}`,
        body: ImportSummarySchema.parse({
          importId: IMPORT_ID,
          entity: 'vehicule',
          mode: 'upsert',
          fileName: 'flotte.csv',
          rowCount: 3,
          status: 'committed',
          percent: 100,
          counts,
          error: null,
          author: { uuid: null, name: 'Claire Dupont' },
          createdAt: '2026-11-26T08:00:00.000Z',
          committedAt: '2026-11-26T08:01:00.000Z',
          revertedAt: null,
          revertibleUntil: '2026-11-27T08:01:00.000Z',
        }),
      },
    ]);
    const user = userEvent.setup();

    fireEvent.change(screen.getByLabelText('Fichier à importer'), { target: { files: [file()] } });
    expect(await screen.findByText('Envoi de flotte.csv : 50 %')).toBeInTheDocument();
    // The app's loading snackbar follows the upload, with its percent; gone once the file is read.
    expect(snackbar.getCurrent()).toMatchObject({ type: 'loading', title: 'Envoi du fichier', description: 'flotte.csv', progress: 50 });
    await screen.findByText(/flotte\.csv : 3 lignes, 4 colonnes \(séparateur « ; »\)/);
    expect(snackbar.getCurrent()).toBeNull();
    expect(sent[0]?.get('file')).toBeInstanceOf(File);

    // The suggestion is kept; the required model is not linked yet: « Vérifier » waits for it.
    expect(screen.getByText('À lier avant de continuer : Modèle.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vérifier' })).toBeDisabled();
    expect(screen.getByLabelText('Exemple : Immatriculation')).toHaveTextContent('AB-123-CD · EF-456-GH');
    await user.click(screen.getByRole('combobox', { name: 'Modèle *' }));
    await user.click(screen.getByRole('option', { name: 'Modèle' }));
    expect(screen.getByLabelText('Exemple : Modèle')).toHaveTextContent('Kangoo · Partner · Berlingo');
    // 'Ne pas lier' unlinks a field.
    await user.click(screen.getByRole('combobox', { name: 'Marque *' }));
    await user.click(screen.getByRole('option', { name: 'Ne pas lier' }));
    expect(screen.getByRole('button', { name: 'Vérifier' })).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: 'Marque *' }));
    await user.click(screen.getByRole('option', { name: 'Marque' }));

    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('lignes valides', { exact: false })).toHaveTextContent('2 lignes valides');
    expect(screen.getByText('ligne invalide', { exact: false })).toHaveTextContent('1 ligne invalide');
    expect(within(screen.getByRole('list', { name: 'Erreurs' })).getByText(/Ligne 4/).closest('p')).toHaveTextContent(
      "Ligne 4 · Immat : L'immatriculation est obligatoire",
    );
    expect(await bodyOf(calls, `/api/import/${IMPORT_ID}/validate`)).toEqual({ mapping: { immatriculation: 0, brand: 1, model: 2 }, mode: 'upsert' });

    await user.click(screen.getByRole('button', { name: 'Continuer' }));
    expect(screen.getByText('2 véhicules à créer')).toBeInTheDocument();
    expect(screen.getByText('1 ligne ignorée (invalide)')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Importer' }));
    expect(await screen.findByText('Import terminé.')).toBeInTheDocument();
    expect(screen.getByText('2 véhicules créés')).toBeInTheDocument();
    // Until when it may be undone: the server's word, not the browser's clock.
    expect(await screen.findByText(new RegExp(`pendant 24 heures \\(jusqu'au ${formatDateTime('2026-11-27T08:01:00.000Z')}\\)`))).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.vehicules.all });
    expect(await bodyOf(calls, `/api/import/${IMPORT_ID}/commit`)).toEqual({ mapping: { immatriculation: 0, brand: 1, model: 2 }, mode: 'upsert' });

    invalidate.mockClear();
    await user.click(screen.getByRole('button', { name: "Annuler l'import" }));
    expect(await screen.findByText(/Import annulé : 2 lignes rétablies/)).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.vehicules.all });
    expect(screen.queryByRole('button', { name: "Annuler l'import" })).not.toBeInTheDocument();
  });

  it('follows an import run in the background: its percent in the dialog and in the loading snackbar', async () => {
    fakeXhr({ status: 200, body: { ...preview, suggestedMapping: { immatriculation: 0, brand: 1, model: 2 } } });
    const summary = (status: 'running' | 'committed', percent: number) =>
      ImportSummarySchema.parse({
        importId: IMPORT_ID,
        entity: 'vehicule',
        mode: 'upsert',
        fileName: 'flotte.csv',
        rowCount: 3,
        status,
        percent,
        counts: status === 'committed' ? counts : null,
        error: null,
        author: { uuid: null, name: 'Claire Dupont' },
        createdAt: '2026-11-26T08:00:00.000Z',
        committedAt: status === 'committed' ? '2026-11-26T08:01:00.000Z' : null,
        revertedAt: null,
        revertibleUntil: status === 'committed' ? '2026-11-27T08:01:00.000Z' : null,
      });
    renderDialog([
      { method: 'POST', path: `/api/import/${IMPORT_ID}/validate`, body: { ...validation, invalid: 0, errors: [], errorCount: 0 } },
      { method: 'POST', path: `/api/import/${IMPORT_ID}/commit`, status: 202, body: { ...counts, importId: IMPORT_ID, status: 'queued' } },
      { path: `/api/import/${IMPORT_ID}`, respond: (_, call) => ({ body: call === 1 ? summary('running', 40) : summary('committed', 100) }) },
    ]);
    const user = userEvent.setup();
    await upload();
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await user.click(await screen.findByRole('button', { name: 'Continuer' }));
    await user.click(screen.getByRole('button', { name: 'Importer' }));
    expect(await screen.findByText('Import en cours… 40 %')).toBeInTheDocument();
    expect(snackbar.getCurrent()).toMatchObject({ type: 'loading', title: 'Import en cours', progress: 40 });
    expect(await screen.findByText('Import terminé.')).toBeInTheDocument();
    expect(snackbar.getCurrent()).toBeNull();
  });

  it('tells why a file is refused, and lets another one be chosen', async () => {
    fakeXhr({ status: 400, body: apiErrorBody(400, "Ce fichier n'est pas un tableur : envoyez un fichier CSV ou Excel (.xlsx).") });
    renderDialog([]);
    fireEvent.change(screen.getByLabelText('Fichier à importer'), { target: { files: [file()] } });
    expect(await screen.findByText("Ce fichier n'est pas un tableur : envoyez un fichier CSV ou Excel (.xlsx).")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choisir un fichier' })).toBeEnabled();
  });

  it('shows the French message of a failed check and stays on the columns', async () => {
    fakeXhr({ status: 200, body: { ...preview, suggestedMapping: { immatriculation: 0, brand: 1, model: 2 } } });
    renderDialog([{ method: 'POST', path: `/api/import/${IMPORT_ID}/validate`, status: 404, body: apiErrorBody(404, 'Import introuvable') }]);
    await upload();
    await userEvent.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Import introuvable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vérifier' })).toBeEnabled();
  });

  it('does not go on when no row is valid', async () => {
    fakeXhr({ status: 200, body: { ...preview, suggestedMapping: { immatriculation: 0, brand: 1, model: 2 } } });
    renderDialog([{ method: 'POST', path: `/api/import/${IMPORT_ID}/validate`, body: { ...validation, valid: 0, invalid: 3 } }]);
    await upload();
    await userEvent.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText(/^\s*lignes invalides$/)).toHaveTextContent('3 lignes invalides');
    expect(screen.getByRole('button', { name: 'Continuer' })).toBeDisabled();
  });

  it('compare mode: only immatriculation is required, and the commit sends the ticked vehicles and the exits with their date', async () => {
    fakeXhr({ status: 200, body: { ...preview, suggestedMapping: { immatriculation: 0 } } });
    const compare = {
      new: [{ key: 'AB123CD', immatriculation: 'AB-123-CD', uuid: null, line: 2, brand: 'Renault', model: 'Kangoo', changes: [] }],
      changed: [
        {
          key: 'EF456GH',
          immatriculation: 'EF-456-GH',
          uuid: '5c1d2e3f-1111-4222-8333-944455556666',
          line: 3,
          brand: 'Peugeot',
          model: 'Partner',
          changes: [{ field: 'model', label: 'Modèle', old: 'Expert', new: 'Partner' }],
        },
      ],
      missing: [{ key: 'GH789IJ', immatriculation: 'GH-789-IJ', uuid: VEHICULE_UUID, line: null, brand: 'Ford', model: 'Transit', changes: [] }],
    };
    const { calls } = renderDialog([
      { method: 'POST', path: `/api/import/${IMPORT_ID}/validate`, body: { ...validation, mode: 'compare', invalid: 0, errors: [], errorCount: 0, compare } },
      { method: 'POST', path: `/api/import/${IMPORT_ID}/commit`, body: { ...counts, created: 0, updated: 1, exited: 1, importId: IMPORT_ID, status: 'committed' } },
    ]);
    const user = userEvent.setup();
    await upload();
    expect(screen.getByRole('button', { name: 'Vérifier' })).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: /Comparer avec la flotte/ }));
    expect(screen.getByRole('button', { name: 'Vérifier' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await user.click(await screen.findByRole('button', { name: 'Continuer' }));

    expect(screen.getByText('Modèle : Expert → Partner')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'AB-123-CD — Renault Kangoo' }));
    await user.click(screen.getByRole('checkbox', { name: 'Sortie de GH-789-IJ — Ford Transit' }));
    // The app's French date field (JJ/MM/AAAA), fetched at the first focus.
    fireEvent.focus(screen.getByLabelText('Date de sortie'));
    const day = await screen.findByRole('spinbutton', { name: 'Jour' });
    await user.type(day, '20112026');
    await user.click(screen.getByRole('button', { name: 'Importer' }));
    await screen.findByText('Import terminé.');
    expect(screen.getByText('1 véhicule sorti de la flotte')).toBeInTheDocument();
    expect(screen.getByText('1 véhicule mis à jour')).toBeInTheDocument();
    expect(await bodyOf(calls, `/api/import/${IMPORT_ID}/commit`)).toEqual({
      mapping: { immatriculation: 0 },
      mode: 'compare',
      selection: { new: [], changed: ['EF456GH'], exits: [{ uuid: VEHICULE_UUID, exitDate: '2026-11-20' }] },
    });
  });

  it('shows a refused commit (409) in French and keeps the confirmation', async () => {
    fakeXhr({ status: 200, body: { ...preview, suggestedMapping: { immatriculation: 0, brand: 1, model: 2 } } });
    renderDialog([
      { method: 'POST', path: `/api/import/${IMPORT_ID}/validate`, body: validation },
      { method: 'POST', path: `/api/import/${IMPORT_ID}/commit`, status: 409, body: { ...apiErrorBody(409, 'Cet import a déjà été annulé.'), error: 'Conflict' } },
    ]);
    const user = userEvent.setup();
    await upload();
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await user.click(await screen.findByRole('button', { name: 'Continuer' }));
    await user.click(screen.getByRole('button', { name: 'Importer' }));
    expect(await screen.findByText('Cet import a déjà été annulé.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Importer' })).toBeEnabled());
  });

  it('« Télécharger les erreurs » saves every error of the check as the CSV the server makes', async () => {
    fakeXhr({ status: 200, body: { ...preview, suggestedMapping: { immatriculation: 0, brand: 1, model: 2 } } });
    const saved: { href: string; download: string }[] = [];
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:erreurs'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const csv = '\uFEFFLigne;Colonne;Erreur\r\n4;Immat;L\'immatriculation est obligatoire\r\n';
    const { calls } = renderDialog([
      { method: 'POST', path: `/api/import/${IMPORT_ID}/validate`, body: { ...validation, errorCount: 1_500 } },
      {
        path: `/api/import/${IMPORT_ID}/errors`,
        respond: () => ({ body: new TextEncoder().encode(csv), headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="erreurs-flotte-2026-11-26.csv"` } }),
      },
    ]);
    const user = userEvent.setup();
    await upload();
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText(/Toutes les erreurs \(1\s500\) dans un fichier CSV/u)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Télécharger les erreurs' }));
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:erreurs', download: 'erreurs-flotte-2026-11-26.csv' }]));
    expect(calls.filter((call) => new URL(call.url).pathname.endsWith('/errors')).map((call) => call.method)).toEqual(['GET']);
    // The bytes as the server sent them, BOM included.
    expect([...new Uint8Array(await blobs[0]!.arrayBuffer())]).toEqual([...new TextEncoder().encode(csv)]);
  });

  it('offers no download when the check finds no error', async () => {
    fakeXhr({ status: 200, body: { ...preview, suggestedMapping: { immatriculation: 0, brand: 1, model: 2 } } });
    renderDialog([{ method: 'POST', path: `/api/import/${IMPORT_ID}/validate`, body: { ...validation, invalid: 0, valid: 3, errors: [], errorCount: 0 } }]);
    await upload();
    await userEvent.click(screen.getByRole('button', { name: 'Vérifier' }));
    await screen.findByRole('button', { name: 'Continuer' });
    expect(screen.queryByRole('button', { name: 'Télécharger les erreurs' })).not.toBeInTheDocument();
  });

  it('a workbook of several sheets offers « Feuille »: the chosen one is read again and its columns suggested', async () => {
    const OTHER_ID = '0b6f3a52-6c7e-4d51-9d0a-2f1f4f0f0a99';
    const workbook = { ...preview, fileName: 'flotte.xlsx', format: 'xlsx' as const, encoding: null, separator: null, sheets: ['Synthèse', 'Parc'], sheet: 'Synthèse', headers: ['Assureur'], suggestedMapping: {}, rowCount: 1, sample: [{ line: 2, cells: ['Mutuelle'] }] };
    const parc = { ...preview, importId: OTHER_ID, fileName: 'flotte.xlsx', format: 'xlsx' as const, encoding: null, separator: null, sheets: ['Synthèse', 'Parc'], sheet: 'Parc', suggestedMapping: { immatriculation: 0, brand: 1, model: 2 } };
    const xhr = fakeXhr((url) => ({ status: 200, body: url.includes('sheet=') ? parc : workbook }));
    const { calls } = renderDialog([{ method: 'POST', path: `/api/import/${OTHER_ID}/validate`, body: validation }]);
    const user = userEvent.setup();
    fireEvent.change(screen.getByLabelText('Fichier à importer'), { target: { files: [file()] } });
    await screen.findByText(/flotte\.xlsx : 1 ligne, 1 colonne/);
    expect(screen.getByRole('button', { name: 'Vérifier' })).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: 'Feuille' }));
    await user.click(screen.getByRole('option', { name: 'Parc' }));
    await screen.findByText(/flotte\.xlsx : 3 lignes, 4 colonnes/);
    expect(xhr.urls).toEqual(['/api/import/vehicule/preview', '/api/import/vehicule/preview?sheet=Parc']);
    // The same file is sent again.
    expect((xhr[1]?.get('file') as File).name).toBe('flotte.csv');
    expect(screen.getByRole('combobox', { name: 'Feuille' })).toHaveTextContent('Parc');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await screen.findByRole('button', { name: 'Continuer' });
    expect(await bodyOf(calls, `/api/import/${OTHER_ID}/validate`)).toEqual({ mapping: { immatriculation: 0, brand: 1, model: 2 }, mode: 'upsert' });
  });

  it('a CSV shows no « Feuille »; the dialog’s actions sit together on the right', async () => {
    fakeXhr({ status: 200, body: preview });
    renderDialog([]);
    const actions = screen.getByRole('button', { name: 'Annuler' }).parentElement!;
    expect(actions.className).toMatch(/MuiDialogActions/);
    expect(getComputedStyle(screen.getByRole('button', { name: 'Annuler' })).marginRight).not.toBe('auto');
    await upload();
    expect(screen.queryByRole('combobox', { name: 'Feuille' })).not.toBeInTheDocument();
    expect([...actions.querySelectorAll('button')].map((button) => button.textContent)).toEqual(['Annuler', 'Changer de fichier', 'Vérifier']);
  });
});

import { todayIso, type DocumentItem } from '@flotte/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../lib/auth-store';
import { fakeXhr } from '../../test/fake-xhr';
import { makeDocument, makeUser } from '../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../test/mock-fetch';
import { renderWithProviders } from '../../test/render';
import { snackbar } from '../snackbar/snackbar';
import { SnackbarHost } from '../snackbar/snackbar-host';
import { RecordDocuments } from './record-documents';
import { withPointer } from '../../test/media';

const CLAIM = '3b9f6c1e-8d2a-4f5b-9c7e-1a2b3c4d5e6f';
const CONSTAT = '7f2e0d6a-4b3c-4e5d-9fa0-9b8c7d6e5f4a';
const PHOTO = '8a3f1e7b-5c4d-4f6e-8a1b-0c9d8e7f6a5b';

function addDays(days: number): string {
  const date = new Date(`${todayIso()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
const frDate = (iso: string) => iso.split('-').reverse().join('/');

const file = (uuid: string, name: string, type: string, over: Partial<DocumentItem> = {}) =>
  makeDocument({ uuid, name, type, parent: '5d0c8b4e-2f1a-4c3b-9d8e-7f6a5b4c3d2e', size: 1_200_000, ...over });

const constat = file(CONSTAT, 'Constat amiable.pdf', 'application/pdf', { expiresOn: addDays(-3) });
const photo = file(PHOTO, 'Photo avant.jpg', 'image/jpeg', { size: 350_000, expiresOn: addDays(10) });

function attachmentsRoute(answers: DocumentItem[][]): MockRoute {
  return { path: `/api/sinister/${CLAIM}/documents`, respond: (_, call) => ({ body: { data: answers[Math.min(call, answers.length) - 1] } }) };
}

function renderSection(props: Partial<Parameters<typeof RecordDocuments>[0]> = {}) {
  return renderWithProviders(
    <>
      <RecordDocuments entity="sinister" uuid={CLAIM} documents={[{ uuid: CONSTAT, name: 'Constat amiable.pdf' }]} {...props} />
      <SnackbarHost />
    </>,
  );
}


beforeEach(() => {
  authStore.setSession('token', makeUser({ roles: ['USER'] }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('<RecordDocuments />', () => {
  it('shows the record’s files at once, then their kind, size and expiry from GET …/documents', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { fetchMock } = mockFetch([attachmentsRoute([[constat, photo]])]);
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (...args) => {
      await answered;
      return original(...args);
    });
    renderSection();
    const list = screen.getByRole('list', { name: 'Fichiers joints' });
    // While loading: the name the record carries, and its download.
    expect(within(list).getByText('Constat amiable.pdf')).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Télécharger Constat amiable.pdf' })).toBeInTheDocument();
    release();
    expect(await within(list).findByText('Photo avant.jpg')).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('1,1 Mo')).toBeInTheDocument();
    expect(within(list).getByText('341,8 Ko')).toBeInTheDocument();
    expect(within(list).getByText(`Expiré le ${frDate(addDays(-3))}`)).toBeInTheDocument();
    expect(within(list).getByText(`Expire le ${frDate(addDays(10))}`)).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Aperçu de Photo avant.jpg' })).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Retirer Constat amiable.pdf' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ajouter des fichiers' })).toBeEnabled();
    // A desktop offers no camera.
    expect(screen.queryByRole('button', { name: 'Prendre une photo' })).not.toBeInTheDocument();
  });

  it('says « Aucun document » for a record without files', async () => {
    mockFetch([attachmentsRoute([[]])]);
    renderSection({ documents: [] });
    expect(await screen.findByText('Aucun document')).toBeInTheDocument();
  });

  it('sends the chosen files to the claim with the percent, then lists them', async () => {
    const sent = fakeXhr({ status: 201, body: { data: [photo] } });
    const { calls } = mockFetch([attachmentsRoute([[constat], [constat, photo]])]);
    const progress: number[] = [];
    const unsubscribe = snackbar.subscribe(() => {
      const current = snackbar.getCurrent();
      if (current?.type === 'loading') progress.push(current.progress);
    });
    const { container } = renderSection();
    await waitFor(() => expect(calls).toHaveLength(1));
    const input = container.querySelector<HTMLInputElement>('input[type="file"][multiple]')!;
    expect(input.accept).toContain('application/pdf');
    await userEvent.upload(input, [new File(['jpeg'], 'Photo avant.jpg', { type: 'image/jpeg' })]);
    expect(await screen.findByText('Fichier ajouté')).toBeInTheDocument();
    unsubscribe();
    expect(sent.urls).toEqual([`/api/sinister/${CLAIM}/documents`]);
    expect(sent[0]!.getAll('files').map((f) => (f as File).name)).toEqual(['Photo avant.jpg']);
    expect(progress).toEqual(expect.arrayContaining([0, 50, 100]));
    expect(await screen.findByText('Photo avant.jpg')).toBeInTheDocument();
    expect(calls.filter((call) => new URL(call.url).pathname === `/api/sinister/${CLAIM}/documents`)).toHaveLength(2);
  });

  it('offers « Prendre une photo » on a phone: the camera, images only', async () => {
    withPointer('coarse');
    mockFetch([attachmentsRoute([[constat]])]);
    const { container } = renderSection();
    expect(screen.getByRole('button', { name: 'Prendre une photo' })).toBeInTheDocument();
    const camera = container.querySelector<HTMLInputElement>('input[capture]')!;
    expect(camera).toHaveAttribute('capture', 'environment');
    expect(camera).toHaveAttribute('accept', 'image/*');
    expect(camera.multiple).toBe(false);
    await screen.findByText('1,1 Mo');
  });

  it('takes a file off after a confirmation, to the trash, and « Annuler » restores it', async () => {
    const { calls } = mockFetch([
      attachmentsRoute([[constat, photo], [photo], [constat, photo]]),
      { method: 'DELETE', path: `/api/sinister/${CLAIM}/documents/${CONSTAT}`, status: 204 },
      { method: 'POST', path: `/api/document/${CONSTAT}/restore`, body: constat },
    ]);
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Retirer Constat amiable.pdf' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Retirer « Constat amiable.pdf » ?' });
    expect(within(confirm).getByText('Le fichier part dans la corbeille de la gestion documentaire, d’où il peut être restauré pendant 30 jours.')).toBeInTheDocument();
    await ui.click(within(confirm).getByRole('button', { name: 'Retirer' }));
    expect(await screen.findByText('Fichier retiré')).toBeInTheDocument();
    expect(screen.getByText('« Constat amiable.pdf » est dans la corbeille de la gestion documentaire.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('1,1 Mo')).not.toBeInTheDocument());
    await ui.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(await screen.findByText('Fichier rétabli')).toBeInTheDocument();
    expect(await screen.findByText('1,1 Mo')).toBeInTheDocument();
    expect(calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${new URL(call.url).pathname}`)).toEqual([
      `DELETE /api/sinister/${CLAIM}/documents/${CONSTAT}`,
      `POST /api/document/${CONSTAT}/restore`,
    ]);
  });

  it('keeps the confirmation open and tells the API’s reason when the file cannot be taken off', async () => {
    mockFetch([
      attachmentsRoute([[constat]]),
      { method: 'DELETE', path: `/api/sinister/${CLAIM}/documents/${CONSTAT}`, status: 404, body: apiErrorBody(404, 'Document introuvable') },
    ]);
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Retirer Constat amiable.pdf' }));
    const confirm = await screen.findByRole('alertdialog');
    await ui.click(within(confirm).getByRole('button', { name: 'Retirer' }));
    expect(await screen.findByText('Document introuvable')).toBeInTheDocument();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('previews a file in the preview dialog', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:apercu', revokeObjectURL: vi.fn() }));
    mockFetch([
      attachmentsRoute([[photo]]),
      { path: `/api/document/${PHOTO}/preview`, respond: () => ({ body: new Uint8Array([1, 2, 3]), headers: { 'content-type': 'image/jpeg' } }) },
    ]);
    renderSection({ documents: [{ uuid: PHOTO, name: 'Photo avant.jpg' }] });
    await userEvent.click(await screen.findByRole('button', { name: 'Aperçu de Photo avant.jpg' }));
    expect(await screen.findByRole('dialog', { name: 'Photo avant.jpg' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Aperçu de Photo avant.jpg' })).toHaveAttribute('src', 'blob:apercu');
  });

  it('is read-only for an archived record: files listed, previewed and downloaded, never added or taken off', async () => {
    withPointer('coarse');
    mockFetch([attachmentsRoute([[constat, photo]])]);
    renderSection({ readOnly: true });
    expect(await screen.findByText('Photo avant.jpg')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Télécharger Photo avant.jpg' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Aperçu de Photo avant.jpg' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Retirer/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ajouter des fichiers' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Prendre une photo' })).not.toBeInTheDocument();
  });

  it('keeps the record’s list and warns when the files cannot be loaded', async () => {
    mockFetch([{ path: `/api/sinister/${CLAIM}/documents`, status: 404, body: apiErrorBody(404, 'Sinistre introuvable') }]);
    renderSection();
    expect(await screen.findByText('Sinistre introuvable La liste affichée peut être incomplète.')).toBeInTheDocument();
    expect(screen.getByText('Constat amiable.pdf')).toBeInTheDocument();
  });
});

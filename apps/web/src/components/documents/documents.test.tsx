import type { DocumentItem } from '@flotte/contract';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { authStore } from '../../lib/auth-store';
import { createQueryClient } from '../../lib/query-client';
import { queryKeys } from '../../lib/query-keys';
import { fakeXhr } from '../../test/fake-xhr';
import { makeDocument, makeUser } from '../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../test/mock-fetch';
import { renderWithProviders } from '../../test/render';
import { snackbar } from '../snackbar/snackbar';
import { DocumentPreviewDialog } from './document-preview-dialog';
import { canPreview, expiryState, fileKind } from './file-kind';
import { useDocumentUpload } from './use-document-upload';

const FOLDER = '5d0c8b4e-2f1a-4c3b-9d8e-7f6a5b4c3d2e';
const DRIVER = '6e1d9c5f-3a2b-4d4c-8e9f-8a7b6c5d4e3f';
const FILE = '7f2e0d6a-4b3c-4e5d-9fa0-9b8c7d6e5f4a';

const doc = (name: string, type: string) => makeDocument({ uuid: FILE, name, type, parent: FOLDER, size: 1_200_000 });

beforeEach(() => {
  authStore.setSession('token', makeUser({ roles: ['USER'] }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  snackbar.hide();
  authStore.clear();
});

describe('file kinds', () => {
  it('reads the kind from the media type the API read in the bytes, not from the name', () => {
    expect(fileKind({ kind: 'folder', type: null })).toBe('folder');
    expect(fileKind({ kind: 'file', type: 'image/heic' })).toBe('image');
    expect(fileKind({ kind: 'file', type: 'application/pdf' })).toBe('pdf');
    expect(fileKind({ kind: 'file', type: 'text/csv' })).toBe('spreadsheet');
    expect(fileKind({ kind: 'file', type: 'application/vnd.oasis.opendocument.text' })).toBe('text');
    expect(fileKind({ kind: 'file', type: 'application/zip' })).toBe('other');
  });

  it('previews what the API previews: JPEG, PNG, WebP and PDF, not HEIC', () => {
    expect(['image/jpeg', 'image/png', 'image/webp', 'application/pdf'].every(canPreview)).toBe(true);
    expect(canPreview('image/heic')).toBe(false);
    expect(canPreview(null)).toBe(false);
  });

  it('says a date past is expired, within 30 days soon, later nothing', () => {
    expect(expiryState('2026-11-24', '2026-11-25')).toBe('expired');
    expect(expiryState('2026-11-25', '2026-11-25')).toBe('soon');
    expect(expiryState('2026-12-25', '2026-11-25')).toBe('soon');
    expect(expiryState('2026-12-26', '2026-11-25')).toBeNull();
    expect(expiryState(null, '2026-11-25')).toBeNull();
  });
});

function wrapper() {
  const queryClient = createQueryClient();
  const Wrapper = ({ children }: { children: ReactNode }) => <AppProviders queryClient={queryClient}>{children}</AppProviders>;
  return { queryClient, Wrapper };
}

describe('useDocumentUpload', () => {
  it('sends the files to a folder with the percent, then says how many were added and refreshes the lists', async () => {
    const sent = fakeXhr({ status: 201, body: { data: [doc('a.pdf', 'application/pdf'), doc('b.png', 'image/png')] } });
    const { queryClient, Wrapper } = wrapper();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { result } = renderHook(() => useDocumentUpload(), { wrapper: Wrapper });
    const progress: number[] = [];
    const unsubscribe = snackbar.subscribe(() => {
      const current = snackbar.getCurrent();
      if (current?.type === 'loading') progress.push(current.progress);
    });
    const files = [new File(['%PDF-1.4'], 'a.pdf'), new File(['png'], 'b.png')];
    let made: DocumentItem[] | null = null;
    await act(async () => {
      made = await result.current({ parent: FOLDER }, files);
    });
    unsubscribe();
    expect(made).toHaveLength(2);
    expect(sent.urls).toEqual([`/api/document/upload?parent=${FOLDER}`]);
    expect(sent[0]!.getAll('files').map((file) => (file as File).name)).toEqual(['a.pdf', 'b.png']);
    expect(progress).toEqual(expect.arrayContaining([0, 50, 100]));
    expect(snackbar.getCurrent()).toMatchObject({ type: 'success', title: '2 fichiers ajoutés' });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.documents.all });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.drivers.all });
  });

  it('sends a record’s files to its attachments, and the root’s without a parent', async () => {
    const sent = fakeXhr({ status: 201, body: { data: [doc('permis.jpg', 'image/jpeg')] } });
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useDocumentUpload(), { wrapper: Wrapper });
    await act(async () => {
      await result.current({ entity: 'driver', uuid: DRIVER }, [new File(['x'], 'permis.jpg')]);
      await result.current({ parent: null }, [new File(['x'], 'permis.jpg')]);
    });
    expect(sent.urls).toEqual([`/api/driver/${DRIVER}/documents`, '/api/document/upload']);
    expect(snackbar.getCurrent()).toMatchObject({ type: 'success', title: 'Fichier ajouté', description: 'permis.jpg' });
  });

  it('sends more files than a request takes in several requests, the percent counting them all', async () => {
    const sent = fakeXhr((url) => ({ status: 201, body: { data: url ? [doc('x.pdf', 'application/pdf')] : [] } }));
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useDocumentUpload(), { wrapper: Wrapper });
    const progress: number[] = [];
    const unsubscribe = snackbar.subscribe(() => {
      const current = snackbar.getCurrent();
      if (current?.type === 'loading') progress.push(current.progress);
    });
    const files = Array.from({ length: 45 }, (_, i) => new File(['0123456789'], `scan-${i + 1}.pdf`));
    await act(async () => {
      await result.current({ parent: FOLDER }, files);
    });
    unsubscribe();
    expect(sent.map((form) => form.getAll('files').length)).toEqual([20, 20, 5]);
    expect(sent[2]!.getAll('files').map((file) => (file as File).name)).toEqual(['scan-41.pdf', 'scan-42.pdf', 'scan-43.pdf', 'scan-44.pdf', 'scan-45.pdf']);
    // The first request's half is a fraction of the whole, never 50 %; the last reaches 100 %.
    expect(progress).toContain(Math.round(((200 * 0.5) / 450) * 100));
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(snackbar.getCurrent()).toMatchObject({ type: 'success', title: '3 fichiers ajoutés' });
  });

  it('names the first files in the loading snackbar, and says which requests passed when a later one is refused', async () => {
    let calls = 0;
    fakeXhr(() => (++calls === 1 ? { status: 201, body: { data: Array.from({ length: 20 }, () => doc('x.pdf', 'application/pdf')) } } : { status: 413, body: apiErrorBody(413, 'L’espace de documents de votre organisation est plein.') }));
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useDocumentUpload(), { wrapper: Wrapper });
    const descriptions = new Set<string>();
    const unsubscribe = snackbar.subscribe(() => {
      const current = snackbar.getCurrent();
      if (current?.type === 'loading' && current.description) descriptions.add(current.description);
    });
    let made: DocumentItem[] | null = [];
    await act(async () => {
      made = await result.current({ parent: null }, Array.from({ length: 25 }, (_, i) => new File(['x'], `photo-${i + 1}.jpg`)));
    });
    unsubscribe();
    expect([...descriptions]).toEqual(['photo-1.jpg, photo-2.jpg et 23 autres']);
    expect(made).toBeNull();
    expect(snackbar.getCurrent()).toMatchObject({
      type: 'error',
      description: 'L’espace de documents de votre organisation est plein. Les 20 premiers fichiers ont été ajoutés ; les suivants, non.',
    });
  });

  it('tells the API’s French reason of a refusal and resolves null', async () => {
    const message = 'Le fichier « virus.pdf » n’est pas d’un format accepté.';
    fakeXhr({ status: 415, body: apiErrorBody(415, message) });
    const { Wrapper } = wrapper();
    const { result } = renderHook(() => useDocumentUpload(), { wrapper: Wrapper });
    let made: DocumentItem[] | null = [];
    await act(async () => {
      made = await result.current({ parent: null }, [new File(['MZ'], 'virus.pdf')]);
    });
    expect(made).toBeNull();
    expect(snackbar.getCurrent()).toMatchObject({ type: 'error', title: 'Envoi impossible', description: message });
  });
});

describe('DocumentPreviewDialog', () => {
  function stubObjectUrls() {
    const made: Blob[] = [];
    const revoke = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (made.push(blob), `blob:apercu-${made.length}`), revokeObjectURL: revoke }));
    return { made, revoke };
  }

  it('shows an image from its preview’s bytes and revokes the URL when closed', async () => {
    const urls = stubObjectUrls();
    mockFetch([{ path: `/api/document/${FILE}/preview`, respond: () => ({ body: new Uint8Array([1, 2, 3]), headers: { 'content-type': 'image/png' } }) }]);
    const onClose = vi.fn();
    const view = renderWithProviders(<DocumentPreviewDialog document={{ uuid: FILE, name: 'constat.png', type: 'image/png' }} onClose={onClose} />);
    expect(await screen.findByRole('dialog', { name: 'constat.png' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Aperçu de constat.png' })).toHaveAttribute('src', 'blob:apercu-1');
    view.unmount();
    expect(urls.revoke).toHaveBeenCalledWith('blob:apercu-1');
  });

  it('shows a PDF in a frame', async () => {
    stubObjectUrls();
    mockFetch([{ path: `/api/document/${FILE}/preview`, respond: () => ({ body: new Uint8Array([37, 80, 68, 70]), headers: { 'content-type': 'application/pdf' } }) }]);
    renderWithProviders(<DocumentPreviewDialog document={{ uuid: FILE, name: 'contrat.pdf', type: 'application/pdf' }} onClose={vi.fn()} />);
    expect(await screen.findByTitle('Aperçu de contrat.pdf')).toHaveAttribute('src', 'blob:apercu-1');
  });

  it('offers the download of a file it cannot show, without asking for a preview', async () => {
    const saved = stubObjectUrls();
    const fetch = mockFetch([
      {
        path: `/api/document/${FILE}/download`,
        respond: () => ({ body: new Uint8Array([80, 75]), headers: { 'content-type': 'application/octet-stream', 'content-disposition': "attachment; filename=\"flotte.xlsx\"; filename*=UTF-8''flotte.xlsx" } }),
      },
    ]);
    renderWithProviders(<DocumentPreviewDialog document={{ uuid: FILE, name: 'flotte.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }} onClose={vi.fn()} />);
    expect(await screen.findByText('Pas d’aperçu pour ce type de fichier. Téléchargez-le pour l’ouvrir.')).toBeInTheDocument();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await userEvent.click(screen.getByRole('button', { name: 'Télécharger' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(fetch.calls.map((call) => new URL(call.url).pathname)).toEqual([`/api/document/${FILE}/download`]);
    expect(saved.made).toHaveLength(1);
  });

  it('says when the preview could not be loaded', async () => {
    stubObjectUrls();
    mockFetch([{ path: `/api/document/${FILE}/preview`, status: 404, body: apiErrorBody(404, 'Document introuvable') }]);
    renderWithProviders(<DocumentPreviewDialog document={{ uuid: FILE, name: 'constat.jpg', type: 'image/jpeg' }} onClose={vi.fn()} />);
    expect(await screen.findByText('Document introuvable')).toBeInTheDocument();
  });
});

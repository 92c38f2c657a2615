import type { MediaItem } from '@flotte/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { snackbar } from '../../../components/snackbar/snackbar';
import { authStore } from '../../../lib/auth-store';
import { makeMediaItem, makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import MediaRoute from './media';

configure({ asyncUtilTimeout: 4000 });

const file = (name: string, type: string, overrides: Partial<MediaItem> = {}) => makeMediaItem({ name, type, size: 1_250_000, ...overrides });

const photo = file('Photo du dépôt.jpg', 'image/jpeg');
const rayure = file('Rayure.webp', 'image/webp', { size: 48_000, entity: { type: 'vehicule', uuid: '5d0c8b4e-2f1a-4c3b-9d8e-7f6a5b4c3d2e', label: 'AB-123-CD' } });
const permis = file('Permis.pdf', 'application/pdf', { entity: { type: 'driver', uuid: '6e1d9c5f-3a2b-4d4c-8e9f-8a7b6c5d4e3f', label: null } });
const tableur = file('Flotte.csv', 'text/csv', { size: 512 });
const FILES = [photo, rayure, permis, tableur];

const mediaPage = (data: MediaItem[], total = data.length, page = 1) => ({ data, page, nbOfPages: Math.ceil(total / 24), total });
const WEBP = new Uint8Array([0x52, 0x49, 0x46, 0x46]);

function routes(list: (query: URLSearchParams) => ReturnType<NonNullable<MockRoute['respond']>> = () => ({ body: mediaPage(FILES) }), extra: MockRoute[] = []): MockRoute[] {
  return [
    { path: '/api/document/media', respond: (request) => list(new URL(request.url).searchParams) },
    { path: /^\/api\/document\/[^/]+\/thumbnail$/, headers: { 'content-type': 'image/webp' }, body: WEBP },
    ...extra,
  ];
}

const listQueries = (calls: Request[]) =>
  calls.filter((call) => new URL(call.url).pathname === '/api/document/media').map((call) => Object.fromEntries(new URL(call.url).searchParams));
const thumbnailCalls = (calls: Request[]) => calls.filter((call) => call.url.endsWith('/thumbnail'));

function renderMedia(url = '/media') {
  authStore.setSession('token', makeUser({ roles: ['USER'] }));
  const rendered = renderRoutes(
    [
      {
        path: '/media',
        element: (
          <>
            <MediaRoute />
            <SnackbarHost />
          </>
        ),
      },
    ],
    url,
  );
  return { ...rendered, location: () => new URLSearchParams(rendered.router.state.location.search) };
}

const grid = () => screen.findByRole('list', { name: 'Fichiers de l’organisation' });
const card = async (name: string) => (await screen.findByRole('button', { name: `Voir ${name}` })).closest('li')!;

let urls: string[];
beforeEach(() => {
  urls = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:http://localhost/${urls.length + 1}`;
    urls.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  snackbar.hide();
  authStore.clear();
});

describe('Médiathèque page', () => {
  it('shows every file as a card: name, French size and date, the record it belongs to, and the way back to the GED', async () => {
    const { calls } = mockFetch(routes());
    renderMedia();

    expect(screen.getByRole('heading', { level: 1, name: 'Médiathèque' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Médiathèque — FlotteAssur'));
    expect(screen.getByRole('link', { name: 'Gestion documentaire' })).toHaveAttribute('href', '/ged');
    expect(within(await grid()).getAllByRole('listitem')).toHaveLength(4);
    expect(await screen.findByText('4 fichiers')).toBeInTheDocument();
    const first = await card('Photo du dépôt.jpg');
    expect(within(first).getByText('Photo du dépôt.jpg')).toHaveAttribute('title', 'Photo du dépôt.jpg');
    expect(within(first).getByText('1,2 Mo')).toBeInTheDocument();
    expect(within(first).getByTitle('Ajouté le 20/11/2026')).toHaveTextContent('Ajouté le 20/11/2026');
    expect(within(await card('Rayure.webp')).getByLabelText('Véhicule : AB-123-CD')).toHaveTextContent('AB-123-CD');
    expect(within(await card('Permis.pdf')).getByText('Conducteur supprimé')).toBeInTheDocument();
    expect(within(await card('Flotte.csv')).getByText('512 octets')).toBeInTheDocument();
    expect(listQueries(calls)).toEqual([{ page: '1', limit: '24' }]);
  });

  it('fetches the thumbnails of images only, with the session, as blob URLs revoked when the page goes', async () => {
    const { calls } = mockFetch(routes());
    const { unmount } = renderMedia();
    await grid();
    await waitFor(() => expect(document.querySelectorAll('img[src^="blob:"]')).toHaveLength(2));
    const asked = thumbnailCalls(calls);
    expect(asked.map((call) => new URL(call.url).pathname).sort()).toEqual([`/api/document/${photo.uuid}/thumbnail`, `/api/document/${rayure.uuid}/thumbnail`].sort());
    expect(asked.every((call) => call.headers.get('authorization') === 'Bearer token')).toBe(true);
    unmount();
    expect(vi.mocked(URL.revokeObjectURL).mock.calls.map(([url]) => url).sort()).toEqual([...urls].sort());
  });

  it('waits for a card to come into view before fetching its thumbnail', async () => {
    const observed: { element: Element; callback: IntersectionObserverCallback }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly callback: IntersectionObserverCallback) {}
        observe(element: Element) {
          observed.push({ element, callback: this.callback });
        }
        disconnect() {}
      },
    );
    const { calls } = mockFetch(routes());
    renderMedia();
    await grid();
    await waitFor(() => expect(observed.length).toBeGreaterThanOrEqual(4));
    expect(thumbnailCalls(calls)).toHaveLength(0);
    const target = observed.find(({ element }) => element.closest('li')?.textContent?.includes('Rayure.webp'))!;
    target.callback([{ isIntersecting: true, target: target.element } as IntersectionObserverEntry], {} as IntersectionObserver);
    await waitFor(() => expect(thumbnailCalls(calls)).toHaveLength(1));
    expect(thumbnailCalls(calls)[0]!.url).toContain(rayure.uuid);
  });

  it('shows the kind’s icon when an image has no thumbnail (415, 422)', async () => {
    mockFetch([
      { path: '/api/document/media', body: mediaPage([photo]) },
      { path: /\/thumbnail$/, status: 422, body: apiErrorBody(422, 'L’image « Photo du dépôt.jpg » est illisible ou abîmée : pas de miniature possible.') },
    ]);
    renderMedia();
    const first = await card('Photo du dépôt.jpg');
    await waitFor(() => expect(first.querySelector('[data-testid="ImageOutlinedIcon"]')).not.toBeNull());
    expect(first.querySelector('img')).toBeNull();
  });

  it('filters by kind with toggle chips and by attachment with a select, in the URL and the query', async () => {
    const { calls } = mockFetch(routes((query) => ({ body: mediaPage(FILES.filter((f) => !query.get('kind') || (query.get('kind') === 'image') === f.type!.startsWith('image/'))) })));
    const { location } = renderMedia();
    const ui = userEvent.setup();
    await grid();

    const images = screen.getByRole('button', { name: 'Images' });
    expect(images).toHaveAttribute('aria-pressed', 'false');
    await ui.click(images);
    await waitFor(() => expect(location().get('kind')).toBe('image'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Images' })).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Voir Permis.pdf' })).not.toBeInTheDocument());
    await ui.click(screen.getByRole('button', { name: 'PDF' }));
    await waitFor(() => expect(location().get('kind')).toBe('pdf'));
    await ui.click(screen.getByRole('button', { name: 'PDF' }));
    await waitFor(() => expect(location().get('kind')).toBeNull());

    await ui.selectOptions(screen.getByLabelText('Rattachement'), 'Véhicules');
    await waitFor(() => expect(location().get('entity')).toBe('vehicule'));
    await ui.selectOptions(screen.getByLabelText('Rattachement'), 'Non rattachés');
    await waitFor(() => expect(location().get('entity')).toBe('none'));
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ page: '1', limit: '24', entity: 'none' }));
    expect(listQueries(calls).map((query) => query.kind ?? '')).toContain('image');
    expect(screen.getByRole('option', { name: 'Tous les fichiers' })).toBeInTheDocument();
  });

  it('reads its filters from a shared link, ignoring values the API does not know', async () => {
    const { calls } = mockFetch(routes());
    renderMedia('/media?kind=pdf&entity=sinister&search=constat&page=2');
    await grid();
    expect(listQueries(calls)[0]).toEqual({ kind: 'pdf', entity: 'sinister', search: 'constat', page: '2', limit: '24' });
    expect(screen.getByRole('searchbox', { name: 'Rechercher un fichier' })).toHaveValue('constat');
  });

  it('ignores a kind or attachment it does not know', async () => {
    const { calls } = mockFetch(routes());
    renderMedia('/media?kind=video&entity=client');
    await grid();
    expect(listQueries(calls)[0]).toEqual({ page: '1', limit: '24' });
  });

  it('pages through the files', async () => {
    const { calls } = mockFetch(routes((query) => ({ body: mediaPage(FILES, 60, Number(query.get('page') ?? 1)) })));
    const { location } = renderMedia();
    const ui = userEvent.setup();
    await grid();
    expect(screen.getByText('1–24 sur 60')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Aller à la page suivante' }));
    await waitFor(() => expect(location().get('page')).toBe('2'));
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ page: '2', limit: '24' }));
  });

  it('says in French when there is nothing yet, nothing for these filters, or nothing for this search', async () => {
    mockFetch(routes(() => ({ body: mediaPage([]) })));
    const first = renderMedia();
    expect(
      await screen.findByText('Aucun fichier pour le moment. Déposez vos documents dans la gestion documentaire, ou joignez-les à un conducteur, un véhicule ou un sinistre : ils apparaîtront ici.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ouvrir la gestion documentaire' })).toHaveAttribute('href', '/ged');
    expect(screen.getByText('0 fichier')).toBeInTheDocument();
    first.unmount();

    const filtered = renderMedia('/media?kind=pdf&entity=driver');
    const ui = userEvent.setup();
    expect(await screen.findByText('Aucun fichier ne correspond à ces filtres.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Effacer les filtres' }));
    await waitFor(() => expect(filtered.location().toString()).toBe(''));
    filtered.unmount();

    renderMedia('/media?search=zorro');
    expect(await screen.findByText('Aucun résultat pour « zorro ». Modifiez votre recherche.')).toBeInTheDocument();
  });

  it('says inline when the list cannot be loaded', async () => {
    mockFetch(routes(() => ({ status: 400, body: apiErrorBody(400, 'Le type de fichier : image, pdf ou other') })));
    renderMedia();
    expect(await screen.findByRole('alert')).toHaveTextContent('Le type de fichier : image, pdf ou other');
  });

  it('opens a file’s preview on a click, and downloads from the card', async () => {
    const { calls } = mockFetch(
      routes(undefined, [
        { path: `/api/document/${photo.uuid}/preview`, headers: { 'content-type': 'image/jpeg' }, body: WEBP },
        { path: `/api/document/${permis.uuid}/download`, headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="Permis.pdf"' }, body: WEBP },
        { path: `/api/document/${tableur.uuid}/download`, status: 404, body: apiErrorBody(404, 'Document introuvable') },
      ]),
    );
    renderMedia();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Voir Photo du dépôt.jpg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo du dépôt.jpg' });
    expect(await within(dialog).findByRole('img', { name: 'Aperçu de Photo du dépôt.jpg' })).toBeInTheDocument();
    await ui.click(within(dialog).getAllByRole('button', { name: 'Fermer' })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await ui.click(screen.getByRole('button', { name: 'Télécharger Permis.pdf' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(calls.some((call) => call.url.endsWith(`/api/document/${permis.uuid}/download`))).toBe(true);

    await ui.click(screen.getByRole('button', { name: 'Télécharger Flotte.csv' }));
    expect(await screen.findByText('Téléchargement impossible')).toBeInTheDocument();
    expect(screen.getByText('Document introuvable')).toBeInTheDocument();
  });
});

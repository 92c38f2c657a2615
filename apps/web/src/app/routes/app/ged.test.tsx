import { AncestorsSchema, DocumentPageSchema, type DocumentItem } from '@flotte/contract';
import { configure, createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { snackbar } from '../../../components/snackbar/snackbar';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { fakeXhr } from '../../../test/fake-xhr';
import { makeDocument, makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import { loadDateField } from '../../../components/lazy-date-field';
import GedRoute from './ged';

configure({ asyncUtilTimeout: 5000 });

const AUTHOR = { uuid: '5d1c2b3a-0000-4000-8000-000000000001', firstName: 'Claire', lastName: 'Dupont' };

/** A document of this GED: written by Claire Dupont. */
const gedDocument = (overrides: Parameters<typeof makeDocument>[0]) => makeDocument({ author: AUTHOR, ...overrides });

const docPage = (data: DocumentItem[], total = data.length) =>
  DocumentPageSchema.parse({ data, page: 1, nbOfPages: Math.max(1, Math.ceil(total / 10)), total });

const contrats = gedDocument({ name: 'Contrats', kind: 'folder' });
const sinistres = gedDocument({ name: 'Sinistres', kind: 'folder' });
const carteGrise = gedDocument({ name: 'carte-grise.pdf', expiresOn: '2020-12-03' });
const avenant = gedDocument({ name: 'avenant 2026.pdf', parent: contrats.uuid });
const annexes = gedDocument({ name: 'Annexes', kind: 'folder', parent: contrats.uuid });

type Answer = ReturnType<NonNullable<MockRoute['respond']>>;

function gedRoute(answer: (query: URLSearchParams) => Answer): MockRoute {
  return { path: '/api/document/ged/paginated', respond: (request) => answer(new URL(request.url).searchParams) };
}

/** The root holds two folders and a file; « Contrats » holds « Annexes » and a file. */
const tree = gedRoute((query) => {
  if (query.get('search')) return { body: docPage([avenant]) };
  if (query.get('parent') === contrats.uuid) return { body: docPage([annexes, avenant]) };
  if (query.get('parent') === annexes.uuid) return { body: docPage([]) };
  return { body: docPage([contrats, sinistres, carteGrise]) };
});

const ancestors: MockRoute = {
  path: /^\/api\/document\/ancestors\//,
  respond: (request) => {
    const id = new URL(request.url).pathname.split('/').at(-1);
    const path = id === annexes.uuid ? [contrats, annexes] : id === contrats.uuid ? [contrats] : [];
    return { body: AncestorsSchema.parse(path.map((folder) => ({ uuid: folder.uuid, folderName: folder.folderName, parent: folder.parent }))) };
  },
};

const noneExpiring: MockRoute = { path: '/api/document/expiring', body: docPage([]) };

function gedQueries(calls: Request[]) {
  return calls
    .filter((call) => call.method === 'GET' && new URL(call.url).pathname === '/api/document/ged/paginated')
    .map((call) => Object.fromEntries(new URL(call.url).searchParams));
}

function renderGed(url = '/ged', user = makeUser({ roles: ['USER'] })) {
  authStore.setSession('token', user);
  const rendered = renderRoutes(
    [
      {
        path: '/ged',
        element: (
          <>
            <GedRoute />
            <SnackbarHost />
          </>
        ),
      },
    ],
    url,
  );
  const location = () => new URLSearchParams(rendered.router.state.location.search);
  return { ...rendered, location };
}

const table = () => screen.findByRole('table', { name: /^Contenu de/ });

async function openMenu(ui: ReturnType<typeof userEvent.setup>, name: string) {
  await ui.click(await screen.findByRole('button', { name: `Actions pour ${name}` }));
  return screen.findByRole('menu');
}

describe('Gestion documentaire', () => {
  it('lists the root with French sizes and expiry, then opens a folder through the URL and the breadcrumb', async () => {
    const { calls } = mockFetch([tree, ancestors, noneExpiring]);
    const { location, router } = renderGed();
    const ui = userEvent.setup();

    expect(screen.getByRole('heading', { level: 1, name: 'Gestion documentaire' })).toBeInTheDocument();
    const list = await table();
    expect(list).toHaveAccessibleName('Contenu de « Mes documents »');
    const file = await within(list).findByRole('row', { name: /carte-grise\.pdf/ });
    expect(file).toHaveTextContent('1,2 Mo');
    expect(within(file).getByText('Expiré le 3 déc. 2020')).toBeInTheDocument();
    expect(within(file).getByText('Claire Dupont')).toBeInTheDocument();
    expect(within(file).getByText('PDF')).toBeInTheDocument();
    expect(within(list).getByRole('row', { name: /Contrats/ })).toHaveTextContent('Dossier');
    const crumbs = screen.getByRole('navigation', { name: 'Fil d’Ariane' });
    expect(within(crumbs).getByText('Mes documents')).toHaveAttribute('aria-current', 'page');

    await ui.click(within(list).getByRole('button', { name: 'Voir Contrats' }));
    await waitFor(() => expect(location().get('parent')).toBe(contrats.uuid));
    expect(await screen.findByRole('button', { name: 'Voir avenant 2026.pdf' })).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Voir Annexes' }));
    expect(await screen.findByText('Ce dossier est vide. Glissez-y des fichiers ou importez-les depuis votre appareil.')).toBeInTheDocument();
    await waitFor(() => expect(within(crumbs).getByText('Annexes')).toHaveAttribute('aria-current', 'page'));
    expect(within(crumbs).getByRole('link', { name: 'Contrats' })).toHaveAttribute('href', `/ged?parent=${contrats.uuid}`);

    // The breadcrumb goes back up; so does the back button (each folder is a history entry).
    await ui.click(within(crumbs).getByRole('link', { name: 'Mes documents' }));
    await waitFor(() => expect(location().get('parent')).toBeNull());
    await router.navigate(-1);
    await waitFor(() => expect(location().get('parent')).toBe(annexes.uuid));
    expect(gedQueries(calls).map((query) => query.parent ?? 'root')).toEqual(expect.arrayContaining(['root', contrats.uuid, annexes.uuid]));
  });

  it('searches the whole tree, says so, and clears back to the folder', async () => {
    const { calls } = mockFetch([tree, ancestors, noneExpiring]);
    const { location } = renderGed(`/ged?parent=${contrats.uuid}&search=avenant`);
    const ui = userEvent.setup();

    expect(await screen.findByRole('heading', { name: 'Résultats pour « avenant » dans tous les dossiers' })).toBeInTheDocument();
    const results = await screen.findByRole('table', { name: 'Résultats pour « avenant »' });
    expect(await within(results).findByRole('row', { name: /avenant 2026\.pdf/ })).toHaveTextContent('PDF');
    // The API searches every folder: the query names no parent.
    expect(gedQueries(calls).at(-1)).toEqual({ page: '1', limit: '10', search: 'avenant' });

    await ui.click(await openMenu(ui, 'avenant 2026.pdf').then((menu) => within(menu).getByRole('menuitem', { name: 'Ouvrir son dossier' })));
    await waitFor(() => expect(location().toString()).toBe(`parent=${contrats.uuid}`));
    expect(await screen.findByRole('button', { name: 'Voir Annexes' })).toBeInTheDocument();
  });

  it('creates a folder: the contract refuses a bad name without a call, the API’s refusal shows under the field', async () => {
    const created = gedDocument({ name: 'Assurance 2027', kind: 'folder' });
    const { calls } = mockFetch([
      tree,
      ancestors,
      noneExpiring,
      {
        method: 'POST',
        path: '/api/document/folder',
        respond: (_request, call) =>
          call === 1 ? { status: 409, body: apiErrorBody(409, 'Un dossier « Contrats » existe déjà ici') } : { status: 201, body: created },
      },
    ]);
    renderGed();
    const ui = userEvent.setup();
    await table();

    await ui.click(screen.getByRole('button', { name: 'Nouveau dossier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nouveau dossier dans « Mes documents »' });
    const field = within(dialog).getByRole('textbox', { name: /Nom du dossier/ });
    await ui.type(field, 'a/b');
    await ui.click(within(dialog).getByRole('button', { name: 'Créer' }));
    expect(await within(dialog).findByText('Le nom ne peut pas contenir les caractères < > : " / \\ | ? *')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await ui.clear(field);
    await ui.type(field, 'Contrats');
    await ui.click(within(dialog).getByRole('button', { name: 'Créer' }));
    expect(await within(dialog).findByText('Un dossier « Contrats » existe déjà ici')).toBeInTheDocument();

    await ui.clear(field);
    await ui.type(field, 'Assurance 2027');
    await ui.click(within(dialog).getByRole('button', { name: 'Créer' }));
    expect(await screen.findByText('Dossier créé')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const posts = calls.filter((call) => call.method === 'POST');
    expect(await posts.at(-1)!.json()).toEqual({ folderName: 'Assurance 2027', parent: null });
  });

  it('deletes a folder that is not empty only once asked again, then « Annuler » restores it', async () => {
    const { calls } = mockFetch([
      tree,
      ancestors,
      noneExpiring,
      {
        method: 'DELETE',
        path: `/api/document/${contrats.uuid}`,
        respond: (request) =>
          new URL(request.url).searchParams.get('recursive') === 'true'
            ? { status: 204 }
            : { status: 409, body: apiErrorBody(409, 'Le dossier « Contrats » n’est pas vide') },
      },
      { method: 'POST', path: `/api/document/${contrats.uuid}/restore`, body: contrats },
    ]);
    renderGed();
    const ui = userEvent.setup();
    await table();

    await ui.click(within(await openMenu(ui, 'Contrats')).getByRole('menuitem', { name: 'Supprimer' }));
    const first = await screen.findByRole('alertdialog', { name: 'Supprimer « Contrats » ?' });
    await ui.click(within(first).getByRole('button', { name: 'Supprimer' }));
    const again = await screen.findByRole('alertdialog', { name: 'Supprimer le dossier et tout son contenu ?' });
    await ui.click(within(again).getByRole('button', { name: 'Tout supprimer' }));
    expect(await screen.findByText('Dossier mis à la corbeille')).toBeInTheDocument();
    const deletes = calls.filter((call) => call.method === 'DELETE').map((call) => new URL(call.url).search);
    expect(deletes).toEqual(['', '?recursive=true']);

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await ui.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(await screen.findByText('Document restauré')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST' && call.url.endsWith(`/api/document/${contrats.uuid}/restore`))).toBe(true);
  });

  it('moves a file through the folder picker and shows the API’s refusal in its words', async () => {
    const { calls } = mockFetch([
      tree,
      ancestors,
      noneExpiring,
      {
        method: 'PATCH',
        path: `/api/document/${contrats.uuid}`,
        status: 400,
        body: apiErrorBody(400, 'Un dossier ne peut pas être déplacé dans lui-même ni dans l’un de ses sous-dossiers'),
      },
      { method: 'PATCH', path: `/api/document/${carteGrise.uuid}`, body: { ...carteGrise, parent: sinistres.uuid } },
    ]);
    renderGed();
    const ui = userEvent.setup();
    await table();

    await ui.click(within(await openMenu(ui, 'carte-grise.pdf')).getByRole('menuitem', { name: 'Déplacer' }));
    let dialog = await screen.findByRole('dialog', { name: 'Déplacer « carte-grise.pdf »' });
    // Already at the root: nothing to do there.
    expect(within(dialog).getByRole('button', { name: 'Déplacer ici' })).toBeDisabled();
    await ui.click(await within(dialog).findByRole('button', { name: 'Ouvrir Sinistres' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Déplacer ici' })).toBeEnabled());
    await ui.click(within(dialog).getByRole('button', { name: 'Déplacer ici' }));
    expect(await screen.findByText('Document déplacé')).toBeInTheDocument();
    const patch = calls.find((call) => call.method === 'PATCH')!;
    expect(await patch.json()).toEqual({ parent: sinistres.uuid });

    // A folder cannot be opened in its own picker; the API's 400 (its subtree) is said in the dialog.
    await ui.click(within(await openMenu(ui, 'Contrats')).getByRole('menuitem', { name: 'Déplacer' }));
    dialog = await screen.findByRole('dialog', { name: 'Déplacer « Contrats »' });
    expect(await within(dialog).findByRole('button', { name: 'Contrats (le dossier déplacé)' })).toHaveAttribute('aria-disabled', 'true');
    await ui.click(within(dialog).getByRole('button', { name: 'Ouvrir Sinistres' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Déplacer ici' })).toBeEnabled());
    await ui.click(within(dialog).getByRole('button', { name: 'Déplacer ici' }));
    expect(await within(dialog).findByText('Un dossier ne peut pas être déplacé dans lui-même ni dans l’un de ses sous-dossiers')).toBeInTheDocument();
  });

  it('uploads files dropped on the page into the open folder, with an overlay while dragging and the percent', async () => {
    mockFetch([tree, ancestors, noneExpiring]);
    const made = [gedDocument({ name: 'photo.png', type: 'image/png', parent: contrats.uuid }), gedDocument({ name: 'devis.pdf', parent: contrats.uuid })];
    const sent = fakeXhr({ status: 201, body: { data: made } });
    renderGed(`/ged?parent=${contrats.uuid}`);
    await screen.findByRole('button', { name: 'Voir Annexes' });
    await waitFor(() => expect(screen.getByRole('table', { name: 'Contenu de « Contrats »' })).toBeInTheDocument());

    const files = [new File(['png'], 'photo.png', { type: 'image/png' }), new File(['%PDF'], 'devis.pdf', { type: 'application/pdf' })];
    const dataTransfer = { types: ['Files'], files, dropEffect: 'none' };
    const drag = (type: 'dragEnter' | 'dragOver' | 'drop') => {
      const event = createEvent[type](window);
      Object.defineProperty(event, 'dataTransfer', { value: dataTransfer });
      fireEvent(window, event);
    };
    drag('dragEnter');
    drag('dragOver');
    expect(await screen.findByTestId('ged-drop-zone')).toHaveTextContent('Ils seront ajoutés à « Contrats ».');
    // Every message of the snackbar, as shown: the loading one's percent included.
    const shown: string[] = [];
    const stop = snackbar.subscribe(() => {
      const message = snackbar.getCurrent();
      if (message) shown.push(message.type === 'loading' ? `${message.title} ${message.progress} %` : message.title);
    });
    drag('drop');
    expect(screen.queryByTestId('ged-drop-zone')).not.toBeInTheDocument();

    expect(await screen.findByText('2 fichiers ajoutés')).toBeInTheDocument();
    stop();
    expect(shown).toEqual(expect.arrayContaining(['Envoi de 2 fichiers 0 %', 'Envoi de 2 fichiers 50 %', '2 fichiers ajoutés']));
    expect(sent.urls).toEqual([`/api/document/upload?parent=${contrats.uuid}`]);
    expect(sent[0]!.getAll('files').map((file) => (file as File).name)).toEqual(['photo.png', 'devis.pdf']);
  });

  it('dates a file’s expiry with the date field, and takes it off', async () => {
    const { calls } = mockFetch([
      tree,
      ancestors,
      noneExpiring,
      { method: 'PATCH', path: `/api/document/${carteGrise.uuid}`, body: carteGrise },
    ]);
    renderGed();
    const ui = userEvent.setup();
    await table();
    await loadDateField();

    await ui.click(within(await openMenu(ui, 'carte-grise.pdf')).getByRole('menuitem', { name: 'Date d’expiration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Date d’expiration de « carte-grise.pdf »' });
    const day = await within(dialog).findByRole('spinbutton', { name: 'Jour' });
    await ui.type(day, '15012027');
    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Date d’expiration enregistrée')).toBeInTheDocument();

    await ui.click(within(await openMenu(ui, 'carte-grise.pdf')).getByRole('menuitem', { name: 'Date d’expiration' }));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Retirer la date' }));
    expect(await screen.findByText('Date d’expiration retirée')).toBeInTheDocument();
    const bodies = await Promise.all(calls.filter((call) => call.method === 'PATCH').map((call) => call.json()));
    expect(bodies).toEqual([{ expiresOn: '2027-01-15' }, { expiresOn: null }]);
  }, 60_000);

  it('shows « À renouveler » with a link to each document’s folder', async () => {
    mockFetch([tree, ancestors, { path: '/api/document/expiring', body: docPage([{ ...avenant, expiresOn: '2020-12-03' }]) }]);
    renderGed();
    const panel = await screen.findByRole('region', { name: 'À renouveler' });
    expect(within(panel).getByRole('link', { name: 'avenant 2026.pdf : ouvrir son dossier' })).toHaveAttribute('href', `/ged?parent=${contrats.uuid}`);
    expect(panel).toHaveTextContent('expiré le 3 déc. 2020');
  });

  it('opens the trash: restore for everyone, permanent deletion for administrators only', async () => {
    const trashed = gedDocument({ name: 'ancien devis.pdf', deletedAt: '2026-11-25T10:30:00.000Z' });
    const routes = [tree, ancestors, noneExpiring, { path: '/api/document/trash', body: docPage([trashed]) }];
    mockFetch(routes);
    const ui = userEvent.setup();
    const first = renderGed();
    await table();
    await ui.click(screen.getByRole('button', { name: 'Corbeille' }));
    let dialog = await screen.findByRole('dialog', { name: 'Corbeille' });
    expect(dialog).toHaveTextContent('restent ici 30 jours');
    expect(await within(dialog).findByRole('button', { name: 'Restaurer ancien devis.pdf' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Supprimer définitivement/ })).not.toBeInTheDocument();
    first.unmount();

    const { calls } = mockFetch([...routes, { method: 'DELETE', path: `/api/document/${trashed.uuid}/permanent`, status: 204 }]);
    renderGed('/ged', makeUser({ roles: ['ADMIN'] }));
    await table();
    await ui.click(screen.getByRole('button', { name: 'Corbeille' }));
    dialog = await screen.findByRole('dialog', { name: 'Corbeille' });
    await ui.click(await within(dialog).findByRole('button', { name: 'Supprimer définitivement ancien devis.pdf' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Supprimer définitivement « ancien devis.pdf » ?' });
    await ui.click(within(confirm).getByRole('button', { name: 'Supprimer définitivement' }));
    expect(await screen.findByText('Supprimé définitivement')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE' && call.url.endsWith('/permanent'))).toBe(true);
  });

  it('says when a folder cannot be read, inline', async () => {
    mockFetch([
      gedRoute(() => ({ status: 404, body: apiErrorBody(404, 'Dossier introuvable') })),
      { path: /^\/api\/document\/ancestors\//, status: 404, body: apiErrorBody(404, 'Dossier introuvable') },
      noneExpiring,
    ]);
    renderGed(`/ged?parent=${contrats.uuid}`);
    expect(await screen.findByText('Dossier introuvable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Réessayer' })).toBeInTheDocument();
  });
});

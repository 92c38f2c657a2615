import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { snackbar } from '../../../components/snackbar/snackbar';
import { makeDocument, makeDriver, makeSinister, makeUser, page, registerPage } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import DriversRoute from './drivers';

// Role queries over a whole page are slow in jsdom, more so when every test file runs at once.
configure({ asyncUtilTimeout: 4000 });

const elodie = makeDriver();
const hugo = makeDriver({ firstName: 'Hugo', lastName: 'Bertrand', email: null, phone: '+33788232914' });
const sophie = makeDriver({ firstName: 'Sophie', lastName: 'Bonnet', isArchived: true, archivedAt: '2025-06-01T08:00:00.000Z' });

const COUNTS = { nbInActivity: 38, nbOfArchived: 7 };
const activePage = registerPage([hugo, elodie], { total: 38, ...COUNTS });

type Answer = ReturnType<NonNullable<MockRoute['respond']>>;

/** GET /api/driver answered from its query string. */
function listRoute(answer: (query: URLSearchParams, call: number) => Answer = () => ({ body: activePage })): MockRoute {
  return { path: '/api/driver', respond: (request, call) => answer(new URL(request.url).searchParams, call) };
}

function listQueries(calls: Request[]) {
  return calls
    .filter((call) => call.method === 'GET' && new URL(call.url).pathname === '/api/driver')
    .map((call) => Object.fromEntries(new URL(call.url).searchParams));
}

function renderDrivers(url = '/drivers', user = makeUser({ roles: ['USER'] })) {
  authStore.setSession('token', user);
  const rendered = renderRoutes(
    [
      {
        path: '/drivers',
        element: (
          <>
            <DriversRoute />
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

async function openRowMenu(ui: ReturnType<typeof userEvent.setup>, name: string) {
  await ui.click(await screen.findByRole('button', { name: `Actions pour ${name}` }));
  return screen.findByRole('menu');
}

describe('Conducteurs page', () => {
  it('lists the drivers with French phones, the counts and the title', async () => {
    const { calls } = mockFetch([listRoute()]);
    renderDrivers();

    expect(screen.getByRole('heading', { level: 1, name: 'Conducteurs' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Conducteurs — FlotteAssur'));
    const table = await screen.findByRole('table', { name: 'Liste des conducteurs' });
    // The rows come in a render of their own, after the page's first paint (RegisterTable).
    const row = await within(table).findByRole('row', { name: /Écuyer/ });
    expect(within(row).getByText('06 12 34 56 78')).toBeInTheDocument();
    expect(within(row).getByText('elodie.ecuyer@transports-martin.fr')).toBeInTheDocument();
    expect(within(within(table).getByRole('row', { name: /Bertrand/ })).getByText('Non renseigné')).toBeInTheDocument();

    expect(screen.getByText('38 conducteurs actifs · 7 archivés')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actifs (38)' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Archivés (7)' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('1–10 sur 38')).toBeInTheDocument();
    expect(listQueries(calls)).toEqual([{ page: '1', limit: '10', sortBy: 'lastName' }]);
  });

  it('sorts and pages through the URL', async () => {
    const { calls } = mockFetch([listRoute()]);
    const { location } = renderDrivers();
    const ui = userEvent.setup();

    await ui.click(await screen.findByRole('button', { name: 'Aller à la page suivante' }));
    await waitFor(() => expect(location().get('page')).toBe('2'));
    await ui.click(screen.getByRole('button', { name: /^Nom/ }));
    await waitFor(() => expect(location().toString()).toBe('sortBy=-lastName'));
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ page: '1', limit: '10', sortBy: '-lastName' }));
    expect(listQueries(calls).map((query) => query.page)).toEqual(['1', '2', '1']);
  });

  it('searches once the user pauses, and goes back to page 1', async () => {
    const { calls } = mockFetch([
      listRoute((query) => ({ body: query.get('search') ? registerPage([elodie], COUNTS) : activePage })),
    ]);
    const { location } = renderDrivers('/drivers?page=2');
    await screen.findByRole('row', { name: /Écuyer/ });

    const box = screen.getByRole('searchbox', { name: 'Rechercher un conducteur' });
    // Three quick keystrokes (synchronous, so well within the 300 ms whatever the machine's load).
    for (const text of ['é', 'éc', 'écu']) fireEvent.change(box, { target: { value: text } });
    // Not at each keystroke: the URL waits for the pause.
    expect(location().get('search')).toBeNull();
    await waitFor(() => expect(location().get('search')).toBe('écu'));
    expect(location().get('page')).toBeNull();
    await waitFor(() => expect(screen.queryByText('Bertrand')).not.toBeInTheDocument());
    expect(listQueries(calls).filter((query) => query.search)).toEqual([{ page: '1', limit: '10', sortBy: 'lastName', search: 'écu' }]);
  });

  it('says when a search finds nothing and clears it', async () => {
    mockFetch([listRoute((query) => ({ body: query.get('search') ? registerPage([], COUNTS) : activePage }))]);
    const { location } = renderDrivers('/drivers?search=zorro');
    const ui = userEvent.setup();

    expect(await screen.findByText('Aucun résultat pour « zorro ». Modifiez votre recherche.')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Rechercher un conducteur' })).toHaveValue('zorro');
    await ui.click(screen.getAllByRole('button', { name: 'Effacer la recherche' })[0]!);
    await waitFor(() => expect(location().get('search')).toBeNull());
    expect(await screen.findByRole('row', { name: /Écuyer/ })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Rechercher un conducteur' })).toHaveValue('');
  });

  it('invites to add the first driver of an empty register', async () => {
    mockFetch([listRoute(() => ({ body: registerPage([], { nbInActivity: 0, nbOfArchived: 0 }) }))]);
    renderDrivers();
    expect(await screen.findByText('Aucun conducteur pour le moment. Ajoutez votre premier conducteur.')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Ajouter un conducteur' })).toHaveLength(2);
    expect(screen.getByText('0 conducteur actif · 0 archivé')).toBeInTheDocument();
  });

  it('archives with an undo that restores and refreshes the list', async () => {
    const { calls } = mockFetch([
      listRoute(),
      { method: 'DELETE', path: `/api/driver/${elodie.uuid}`, body: { ...elodie, isArchived: true, archivedAt: '2025-06-02T08:00:00.000Z' } },
      { method: 'POST', path: `/api/driver/restore/${elodie.uuid}`, body: elodie },
    ]);
    renderDrivers();
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'Élodie Écuyer');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Voir', 'Modifier', 'Archiver']);
    await ui.click(within(menu).getByRole('menuitem', { name: 'Archiver' }));

    expect(await screen.findByText('Conducteur archivé')).toBeInTheDocument();
    expect(screen.getByText('Élodie Écuyer ne figure plus parmi les conducteurs actifs.')).toBeInTheDocument();
    await waitFor(() => expect(listQueries(calls)).toHaveLength(2));

    await ui.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(await screen.findByText('Conducteur restauré')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => new URL(call.url).pathname)).toEqual([
      `/api/driver/restore/${elodie.uuid}`,
    ]);
    await waitFor(() => expect(listQueries(calls)).toHaveLength(3));
  });

  it('shows the archived drivers and restores one', async () => {
    const { calls } = mockFetch([
      listRoute((query) => ({ body: query.get('onlyArchived') ? registerPage([sophie], { total: 7, ...COUNTS }) : activePage })),
      { method: 'POST', path: `/api/driver/restore/${sophie.uuid}`, body: { ...sophie, isArchived: false, archivedAt: null } },
    ]);
    const { location } = renderDrivers();
    const ui = userEvent.setup();

    await ui.click(await screen.findByRole('button', { name: 'Archivés (7)' }));
    await waitFor(() => expect(location().get('archived')).toBe('only'));
    expect(await screen.findByRole('row', { name: /Bonnet/ })).toBeInTheDocument();
    expect(listQueries(calls).at(-1)).toMatchObject({ onlyArchived: 'true' });

    const menu = await openRowMenu(ui, 'Sophie Bonnet');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Restaurer' }));
    expect(await screen.findByText('Conducteur restauré')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST' && call.url.endsWith(`/api/driver/restore/${sophie.uuid}`))).toBe(true);
  });

  it('empties the list, goes back to page 1 and tells the error once, inline, when the list cannot load', async () => {
    const message = 'Trop de requêtes : réessayez dans une minute.';
    mockFetch([listRoute((_, call) => (call === 1 ? { body: registerPage([elodie], { page: 2, total: 38, ...COUNTS }) } : { status: 429, body: apiErrorBody(429, message) }))]);
    const { location } = renderDrivers('/drivers?page=2');
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /Écuyer/ });

    await ui.click(screen.getByRole('button', { name: 'Aller à la page suivante' }));

    await waitFor(() => expect(location().get('page')).toBeNull());
    // Told once, by the inline Alert in place of the rows (STYLE habit 8): no snackbar for a failed query.
    const inline = await screen.findByRole('alert');
    expect(inline).toHaveTextContent(message);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(snackbar.getCurrent()).toBeNull();
    expect(within(inline!).getByRole('button', { name: 'Réessayer' })).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Écuyer/ })).not.toBeInTheDocument();
    // The counts go to 0 (SPEC 8); the line under the title says nothing rather than an untrue '0 conducteur actif'.
    expect(screen.getByRole('button', { name: 'Actifs (0)' })).toBeInTheDocument();
    expect(screen.queryByText(/conducteurs? actifs?/)).not.toBeInTheDocument();
  });

  it('shows a driver with its documents', async () => {
    mockFetch([listRoute(), { path: /^\/api\/driver\/[^/]+\/documents$/, body: { data: [] } }]);
    renderDrivers();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Voir Élodie Écuyer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Élodie Écuyer' });
    expect(within(dialog).getByRole('link', { name: '06 12 34 56 78' })).toHaveAttribute('href', 'tel:+33612345678');
    expect(within(dialog).getByText('Aucun document')).toBeInTheDocument();
    expect(within(dialog).getByText('15/01/2025')).toBeInTheDocument();
  });

  it('adds a driver: French messages beside the fields, server details mapped, then saved', async () => {
    const taken = 'Un conducteur utilise déjà cette adresse e-mail';
    const { calls } = mockFetch([
      listRoute(),
      {
        method: 'POST',
        path: '/api/driver',
        respond: (_, call) =>
          call === 1
            ? { status: 400, body: apiErrorBody(400, `Données invalides (email) : ${taken}`, [{ path: 'email', message: taken }]) }
            : { status: 201, body: makeDriver({ firstName: 'Jean', lastName: 'Dupont', email: 'jean.dupont@tm.fr' }) },
      },
    ]);
    renderDrivers();
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /Écuyer/ });

    await ui.click(screen.getByRole('button', { name: 'Ajouter un conducteur' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter un conducteur' });
    // The form arrives with its module (lazy): wait for it.
    const phone = await within(dialog).findByLabelText(/Téléphone/);
    expect(phone).toHaveAttribute('placeholder', '06 12 34 56 78');
    await ui.type(phone, '12');
    await ui.click(within(dialog).getByRole('button', { name: 'Ajouter le conducteur' }));
    expect(await within(dialog).findByText('Le prénom est obligatoire')).toBeInTheDocument();
    expect(within(dialog).getByText('Le nom est obligatoire')).toBeInTheDocument();
    expect(within(dialog).getByText('Numéro de téléphone invalide (ex. 06 12 34 56 78)')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await ui.type(within(dialog).getByLabelText(/Prénom/), 'Jean');
    await ui.type(within(dialog).getByLabelText(/^Nom/), 'Dupont');
    await ui.type(within(dialog).getByLabelText(/E-mail/), 'jean.dupont@tm.fr');
    await ui.clear(phone);
    await ui.type(phone, '06 12 34 56 78');
    await ui.click(within(dialog).getByRole('button', { name: 'Ajouter le conducteur' }));

    expect(await within(dialog).findByText(taken)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/E-mail/)).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText(`Données invalides (email) : ${taken}`)).toBeInTheDocument();

    await ui.clear(within(dialog).getByLabelText(/E-mail/));
    await ui.type(within(dialog).getByLabelText(/E-mail/), 'Jean.Dupont@TM.fr');
    await ui.click(within(dialog).getByRole('button', { name: 'Ajouter le conducteur' }));

    expect(await screen.findByText('Conducteur ajouté')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const posts = calls.filter((call) => call.method === 'POST');
    expect(await posts[1]!.json()).toEqual({ firstName: 'Jean', lastName: 'Dupont', email: 'jean.dupont@tm.fr', phone: '+33612345678' });
    await waitFor(() => expect(listQueries(calls).length).toBeGreaterThanOrEqual(2));
  });

  it('asks before adding a driver that exists already, then sends force; « Annuler » keeps the form', async () => {
    const message = `Un conducteur avec cette adresse e-mail existe déjà : Élodie Écuyer`;
    const { calls } = mockFetch([
      listRoute(),
      {
        method: 'POST',
        path: '/api/driver',
        respond: (_, call) =>
          call <= 2
            ? { status: 409, body: apiErrorBody(409, message, [{ path: 'duplicateOf', message: elodie.uuid }, { path: 'email', message }]) }
            : { status: 201, body: makeDriver({ firstName: 'Élodie', lastName: 'Écuyer', email: 'elodie@tm.fr' }) },
      },
    ]);
    renderDrivers();
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /Écuyer/ });
    await ui.click(screen.getByRole('button', { name: 'Ajouter un conducteur' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter un conducteur' });
    await ui.type(await within(dialog).findByLabelText(/Prénom/), 'Élodie');
    await ui.type(within(dialog).getByLabelText(/^Nom/), 'Écuyer');
    await ui.type(within(dialog).getByLabelText(/E-mail/), 'elodie@tm.fr');
    await ui.click(within(dialog).getByRole('button', { name: 'Ajouter le conducteur' }));

    const ask = await screen.findByRole('alertdialog', { name: 'Ce conducteur existe peut-être déjà' });
    expect(ask).toHaveTextContent(`${message}. Voulez-vous quand même en créer un second ?`);
    await ui.click(within(ask).getByRole('button', { name: 'Annuler' }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);

    // Once the question has closed, the form is there again.
    await ui.click(await within(dialog).findByRole('button', { name: 'Ajouter le conducteur' }));
    await ui.click(within(await screen.findByRole('alertdialog', { name: 'Ce conducteur existe peut-être déjà' })).getByRole('button', { name: 'Créer quand même' }));
    expect(await screen.findByText('Conducteur ajouté')).toBeInTheDocument();
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts).toHaveLength(3);
    expect(await posts[2]!.json()).toMatchObject({ firstName: 'Élodie', lastName: 'Écuyer', email: 'elodie@tm.fr', force: true });
    expect(await posts[0]!.json()).not.toHaveProperty('force');
  });

  it('shows the driver’s files in its edit form, and sends them on their own, not with « Enregistrer »', async () => {
    const licence = makeDocument({ name: 'Permis Élodie.pdf', size: 52_000 });
    const { calls } = mockFetch([listRoute(), { path: `/api/driver/${elodie.uuid}/documents`, body: { data: [licence] } }]);
    renderDrivers();
    const ui = userEvent.setup();
    const menu = await openRowMenu(ui, 'Élodie Écuyer');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Modifier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier le conducteur' });
    const files = await within(dialog).findByRole('list', { name: 'Fichiers joints' });
    expect(await within(files).findByText('50,8 Ko')).toBeInTheDocument();
    expect(within(files).getByText('Permis Élodie.pdf')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Ajouter des fichiers' })).toHaveAttribute('type', 'button');
    expect(within(dialog).getByRole('button', { name: 'Retirer Permis Élodie.pdf' })).toHaveAttribute('type', 'button');
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('edits a driver from its current values', async () => {
    const { calls } = mockFetch([
      listRoute(),
      { method: 'PATCH', path: `/api/driver/${elodie.uuid}`, body: { ...elodie, phone: '+33698765432' } },
    ]);
    renderDrivers();
    const ui = userEvent.setup();
    const menu = await openRowMenu(ui, 'Élodie Écuyer');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Modifier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier le conducteur' });
    const phone = within(dialog).getByLabelText(/Téléphone/);
    expect(phone).toHaveValue('06 12 34 56 78');
    await ui.clear(phone);
    await ui.type(phone, '06 98 76 54 32');
    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Conducteur modifié')).toBeInTheDocument();
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(await patch!.json()).toEqual({
      firstName: 'Élodie',
      lastName: 'Écuyer',
      email: 'elodie.ecuyer@transports-martin.fr',
      phone: '+33698765432',
    });
  });

  it('lets only an administrator delete permanently, after a confirmation naming the driver and counting its claims', async () => {
    const { calls } = mockFetch([
      listRoute(),
      { method: 'DELETE', path: `/api/driver/${elodie.uuid}/hard`, status: 204 },
      { path: '/api/sinister', body: { ...page([makeSinister()]), nbOfPages: 3, total: 3, sums: { totalCost: 3000 } } },
    ]);
    renderDrivers('/drivers', makeUser({ roles: ['ADMIN'] }));
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'Élodie Écuyer');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Supprimer définitivement' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer définitivement Élodie Écuyer ?' });
    await waitFor(() =>
      expect(dialog).toHaveAccessibleDescription(
        'Cette action est irréversible. Ses documents et leurs fichiers, corbeille comprise, sont supprimés avec lui. 3 sinistres font référence à ce conducteur : ils sont conservés, sans conducteur associé.',
      ),
    );
    const count = calls.find((call) => new URL(call.url).pathname === '/api/sinister')!;
    expect(Object.fromEntries(new URL(count.url).searchParams)).toMatchObject({ driver: elodie.uuid, withArchived: 'true', limit: '1' });
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toHaveFocus();
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer définitivement' }));

    expect(await screen.findByText('Conducteur supprimé définitivement')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.some((call) => call.method === 'DELETE' && call.url.endsWith('/hard'))).toBe(true);
  });

  it('hides permanent deletion from a plain user', async () => {
    mockFetch([listRoute()]);
    renderDrivers('/drivers', makeUser({ roles: ['USER'] }));
    const ui = userEvent.setup();
    const menu = await openRowMenu(ui, 'Élodie Écuyer');
    expect(within(menu).queryByRole('menuitem', { name: 'Supprimer définitivement' })).not.toBeInTheDocument();
  });
});

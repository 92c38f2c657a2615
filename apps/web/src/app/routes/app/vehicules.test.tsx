import { todayIso } from '@flotte/contract';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDateField } from '../../../components/lazy-date-field';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { formatDate } from '../../../lib/format';
import { makeSinister, makeUser, makeVehicule, page, registerPage } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import VehiculesRoute from './vehicules';

// Role queries over a whole page are slow in jsdom, more so when every test file runs at once.
configure({ asyncUtilTimeout: 4000 });

// The form's modules load when the form first opens (lazy): their first transform here (MUI's
// date pickers) took longer than a query's wait on a slow host. Loaded once before the tests,
// as a person's hover on « Ajouter » preloads them in the app.
beforeAll(async () => {
  await Promise.all([
    import('../../../features/vehicules/components/vehicule-form'),
    import('../../../components/register/record-form-dialog'),
    import('../../../components/date-field'),
  ]);
}, 60_000);

const kangoo = makeVehicule();
const master = makeVehicule({
  brand: 'Renault',
  model: 'Master',
  type: 'PL',
  immatriculation: 'AB123CD',
  circulationDate: '2019-07-04',
  entryDate: '2020-02-01',
  exitDate: '2026-12-31',
});
const foreign = makeVehicule({
  brand: 'Mercedes',
  model: 'Sprinter',
  immatriculation: 'BXL4821',
  immatriculationWarning: 'Format non français ou inhabituel : vérifiez l’immatriculation',
  circulationDate: null,
  entryDate: null,
});

const COUNTS = { nbInActivity: 58, nbOfArchived: 4 };
const activePage = registerPage([master, kangoo, foreign], { total: 58, ...COUNTS });

type Answer = ReturnType<NonNullable<MockRoute['respond']>>;

/** GET /api/vehicule answered from its query string. */
function listRoute(answer: (query: URLSearchParams, call: number) => Answer = () => ({ body: activePage })): MockRoute {
  return { path: '/api/vehicule', respond: (request, call) => answer(new URL(request.url).searchParams, call) };
}

function listQueries(calls: Request[]) {
  return calls
    .filter((call) => call.method === 'GET' && new URL(call.url).pathname === '/api/vehicule')
    .map((call) => Object.fromEntries(new URL(call.url).searchParams));
}

function sent(calls: Request[], method: string) {
  return calls.filter((call) => call.method === method).map((call) => `${new URL(call.url).pathname}${new URL(call.url).search}`);
}

function renderVehicules(url = '/vehicules', user = makeUser({ roles: ['USER'] })) {
  authStore.setSession('token', user);
  const rendered = renderRoutes(
    [
      {
        path: '/vehicules',
        element: (
          <>
            <VehiculesRoute />
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

/**
 * The DatePicker's text sits in spin buttons (day, month, year); its hidden input takes a whole
 * date typed or pasted as JJ/MM/AAAA, as the browser's autofill does.
 */
function dateInput(container: HTMLElement, label: string | RegExp): HTMLInputElement {
  const input = within(container)
    .getAllByLabelText(label)
    .find((element): element is HTMLInputElement => element instanceof HTMLInputElement);
  if (!input) throw new Error(`No date input labelled ${String(label)}`);
  return input;
}

function typeDate(container: HTMLElement, label: string | RegExp, value: string) {
  fireEvent.change(dateInput(container, label), { target: { value } });
}

describe('Véhicules page', () => {
  // The period filter's pickers arrive after the list (LazyDateField): fetched once, up front.
  beforeAll(() => loadDateField());

  it('lists the vehicles with French plates and dates, the counts and the title', async () => {
    const { calls } = mockFetch([listRoute()]);
    renderVehicules();

    expect(screen.getByRole('heading', { level: 1, name: 'Véhicules' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Véhicules — FlotteAssur'));
    const table = await screen.findByRole('table', { name: 'Liste des véhicules' });
    // The rows come in a render of their own, after the page's first paint (RegisterTable).
    const row = await within(table).findByRole('row', { name: /AB-123-CD/ });
    expect(within(row).getByRole('button', { name: 'Voir AB-123-CD' })).toHaveTextContent('AB-123-CD');
    expect(within(row).getByText('Master')).toBeInTheDocument();
    expect(within(row).getByText('PL')).toHaveAttribute('title', 'poids lourd > 3,5 t');
    expect(within(row).getByText('04/07/2019')).toBeInTheDocument();
    expect(within(row).getByText('01/02/2020')).toBeInTheDocument();
    expect(within(row).getByText('31/12/2026')).toBeInTheDocument();
    // No exit date: a dash read as 'Non renseigné'.
    expect(within(within(table).getByRole('row', { name: /FG-123-HJ/ })).getByText('Non renseigné')).toBeInTheDocument();
    // A foreign plate is shown as typed, with the warning.
    const foreignRow = within(table).getByRole('row', { name: /BXL4821/ });
    expect(within(foreignRow).getByRole('img', { name: /Format non français ou inhabituel/ })).toBeInTheDocument();

    expect(screen.getByText('58 véhicules actifs · 4 archivés')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actifs (58)' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Archivés (4)' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('1–10 sur 58')).toBeInTheDocument();
    expect(listQueries(calls)).toEqual([{ page: '1', limit: '10', sortBy: 'immatriculation' }]);
  });

  it('filters on categories through the URL (types=VP,VUL) and goes back to page 1', async () => {
    const { calls } = mockFetch([listRoute()]);
    const { location } = renderVehicules('/vehicules?page=2&sortBy=-entryDate');
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /AB-123-CD/ });

    await ui.click(screen.getByRole('combobox', { name: 'Catégories' }));
    const listbox = await screen.findByRole('listbox');
    await ui.click(within(listbox).getByRole('option', { name: 'VUL (utilitaire léger ≤ 3,5 t)' }));
    await waitFor(() => expect(location().get('types')).toBe('VUL'));
    expect(location().get('page')).toBeNull();
    // Written in the categories' order, whatever the order of the clicks.
    await ui.click(within(listbox).getByRole('option', { name: 'VP (véhicule particulier)' }));
    await waitFor(() => expect(location().get('types')).toBe('VP,VUL'));
    expect(location().get('sortBy')).toBe('-entryDate');
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ page: '1', limit: '10', sortBy: '-entryDate', types: 'VP,VUL' }));
    expect(within(listbox).getByRole('option', { name: 'VP (véhicule particulier)' })).toHaveAttribute('aria-selected', 'true');

    await ui.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(screen.getByRole('combobox', { name: 'Catégories' })).toHaveTextContent('VP, VUL');
  });

  it('filters on the time in the fleet (start, end), only with an ordered period', async () => {
    const { calls } = mockFetch([listRoute()]);
    const { location } = renderVehicules('/vehicules?page=3');
    await screen.findByRole('row', { name: /AB-123-CD/ });
    const period = screen.getByRole('group', { name: 'Présents dans la flotte' });

    typeDate(period, 'Du', '01/01/2025');
    await waitFor(() => expect(location().get('start')).toBe('2025-01-01'));
    expect(location().get('page')).toBeNull();

    // Before the start: said under the field, and the list keeps the last good period.
    typeDate(period, 'Au', '31/12/2024');
    expect(await within(period).findByText('La date de début doit précéder la date de fin')).toBeInTheDocument();
    expect(location().get('end')).toBeNull();

    typeDate(period, 'Au', '31/12/2025');
    await waitFor(() => expect(location().get('end')).toBe('2025-12-31'));
    expect(within(period).queryByText('La date de début doit précéder la date de fin')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(listQueries(calls).at(-1)).toEqual({ page: '1', limit: '10', sortBy: 'immatriculation', start: '2025-01-01', end: '2025-12-31' }),
    );
  });

  it('shows a period from the URL and says when nothing matches the filters', async () => {
    mockFetch([listRoute((query) => ({ body: query.get('types') ? registerPage([], COUNTS) : activePage }))]);
    const { location } = renderVehicules('/vehicules?types=AUTOCAR&start=2025-01-01');
    const ui = userEvent.setup();

    expect(await screen.findByText('Aucun véhicule ne correspond à ces filtres. Modifiez les catégories ou la période.')).toBeInTheDocument();
    expect(dateInput(screen.getByRole('group', { name: 'Présents dans la flotte' }), 'Du')).toHaveValue('01/01/2025');
    await ui.click(screen.getByRole('button', { name: 'Effacer les filtres' }));
    await waitFor(() => expect(location().toString()).toBe(''));
    expect(await screen.findByRole('row', { name: /AB-123-CD/ })).toBeInTheDocument();
    expect(dateInput(screen.getByRole('group', { name: 'Présents dans la flotte' }), 'Du')).toHaveValue('');
  });

  it('invites to add the first vehicle of an empty fleet', async () => {
    mockFetch([listRoute(() => ({ body: registerPage([], { nbInActivity: 0, nbOfArchived: 0 }) }))]);
    renderVehicules();
    expect(await screen.findByText('Aucun véhicule pour le moment. Ajoutez votre premier véhicule.')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Ajouter un véhicule' })).toHaveLength(2);
    expect(screen.getByText('0 véhicule actif · 0 archivé')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Changer la catégorie' })).toBeDisabled();
  });

  it('adds a vehicle through a draft (create-empty, then PATCH) and puts a 409 under the plate', async () => {
    const draft = makeVehicule({
      brand: null,
      model: null,
      type: null,
      immatriculation: null,
      circulationDate: null,
      entryDate: null,
      exitDate: null,
    });
    const taken = 'Le véhicule AB-123-CD existe déjà dans votre flotte';
    const { calls } = mockFetch([
      listRoute(),
      { method: 'POST', path: '/api/vehicule/create-empty', status: 201, body: draft },
      {
        method: 'PATCH',
        path: `/api/vehicule/${draft.uuid}`,
        respond: (_, call) =>
          call === 1
            ? { status: 409, body: { ...apiErrorBody(409, taken, [{ path: 'immatriculation', message: taken }]), error: 'Conflict' } }
            : {
                body: makeVehicule({ uuid: draft.uuid, immatriculation: 'EF456GH', brand: 'Renault', model: 'Trafic', type: 'VUL', circulationDate: '2021-03-15' }),
              },
      },
    ]);
    renderVehicules();
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /AB-123-CD/ });

    await ui.click(screen.getByRole('button', { name: 'Ajouter un véhicule' }));
    // The dialog's frame and the form arrive with their modules (lazy), a stand-in with the title meanwhile.
    const submit = await screen.findByRole('button', { name: 'Ajouter le véhicule' });
    const dialog = screen.getByRole('dialog', { name: 'Ajouter un véhicule' });
    expect(dialog).toContainElement(submit);
    // Nothing is created by opening the form.
    expect(sent(calls, 'POST')).toEqual([]);

    await ui.click(submit);
    expect(await within(dialog).findByText("L'immatriculation est obligatoire")).toBeInTheDocument();
    expect(within(dialog).getByText('La marque est obligatoire')).toBeInTheDocument();
    expect(within(dialog).getByText('Le modèle est obligatoire')).toBeInTheDocument();
    expect(within(dialog).getByText('La catégorie est obligatoire')).toBeInTheDocument();
    expect(sent(calls, 'POST')).toEqual([]);

    const plate = within(dialog).getByLabelText(/Immatriculation/);
    // A foreign plate is accepted, with a warning; a French one is previewed as it will read.
    await ui.type(plate, 'bxl 4821');
    expect(within(dialog).getByText('Format non français ou inhabituel : vérifiez l’immatriculation')).toBeInTheDocument();
    await ui.clear(plate);
    await ui.type(plate, 'ab 123.cd');
    expect(within(dialog).getByText('Immatriculation SIV : AB-123-CD')).toBeInTheDocument();
    expect(within(dialog).queryByText(/vérifiez l’immatriculation/)).not.toBeInTheDocument();

    await ui.type(within(dialog).getByLabelText(/Marque/), 'Renault');
    await ui.type(within(dialog).getByLabelText(/Modèle/), 'Trafic');
    await ui.click(within(dialog).getByRole('combobox', { name: /Catégorie/ }));
    await ui.click(await screen.findByRole('option', { name: 'VUL (utilitaire léger ≤ 3,5 t)' }));
    typeDate(dialog, /Date de mise en circulation/, '15/03/2021');
    await ui.click(within(dialog).getByRole('button', { name: 'Ajouter le véhicule' }));

    expect(await within(dialog).findByText(taken)).toBeInTheDocument();
    expect(plate).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByRole('alert')).toHaveTextContent(`Erreur${taken}`);
    const patches = calls.filter((call) => call.method === 'PATCH');
    // The contract's PlateSchema sends the plate normalised, as the API stores it.
    expect(await patches[0]!.json()).toEqual({
      immatriculation: 'AB123CD',
      brand: 'Renault',
      model: 'Trafic',
      type: 'VUL',
      circulationDate: '2021-03-15',
      entryDate: null,
      exitDate: null,
    });

    await ui.clear(plate);
    await ui.type(plate, 'EF-456-GH');
    await ui.click(within(dialog).getByRole('button', { name: 'Ajouter le véhicule' }));
    expect(await screen.findByText('Véhicule ajouté')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // One draft, completed on the second try.
    expect(sent(calls, 'POST')).toEqual(['/api/vehicule/create-empty']);
    expect(sent(calls, 'PATCH')).toEqual([`/api/vehicule/${draft.uuid}`, `/api/vehicule/${draft.uuid}`]);
    await waitFor(() => expect(listQueries(calls).length).toBeGreaterThanOrEqual(2));
  });

  it('puts the date rules beside the dates, in French', async () => {
    const { calls } = mockFetch([listRoute()]);
    renderVehicules();
    const ui = userEvent.setup();
    const menu = await openRowMenu(ui, 'FG-123-HJ');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Modifier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier le véhicule' });
    // The form arrives with its module (lazy): wait for it.
    expect(await within(dialog).findByLabelText(/Immatriculation/)).toHaveValue('FG-123-HJ');
    expect(dateInput(dialog, /Date d’entrée dans la flotte/)).toHaveValue('10/01/2022');

    // Only the day of the exit: MUI keeps such a date empty, the form must not.
    const exit = within(dialog).getByRole('group', { name: /Date de sortie/ });
    await ui.type(within(exit).getByRole('spinbutton', { name: 'Jour' }), '31');
    // Typed day by day: 31/02 is no date.
    const circulation = within(dialog).getByRole('group', { name: /Date de mise en circulation/ });
    await ui.click(within(circulation).getByRole('button', { name: 'Effacer la valeur' }));
    await ui.type(within(circulation).getByRole('spinbutton', { name: 'Jour' }), '31022021');
    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findAllByText('Date incomplète ou invalide (JJ/MM/AAAA)')).toHaveLength(2);

    typeDate(dialog, /Date de mise en circulation/, '15/03/2021');
    typeDate(dialog, /Date de sortie/, '31/12/2021');
    expect(await within(dialog).findByText("La date de sortie doit être postérieure ou égale à la date d'entrée")).toBeInTheDocument();
    expect(within(dialog).queryByText('Date incomplète ou invalide (JJ/MM/AAAA)')).not.toBeInTheDocument();
    expect(sent(calls, 'PATCH')).toEqual([]);
  });

  it('archives with the chosen exit date, and the undo restores the vehicle as it was', async () => {
    const { calls } = mockFetch([
      listRoute(),
      { method: 'DELETE', path: `/api/vehicule/${kangoo.uuid}`, body: { ...kangoo, exitDate: '2025-06-30', isArchived: true, archivedAt: '2025-06-30T08:00:00.000Z' } },
      { method: 'POST', path: `/api/vehicule/restore/${kangoo.uuid}`, body: { ...kangoo, exitDate: '2025-06-30' } },
      { method: 'PATCH', path: `/api/vehicule/${kangoo.uuid}`, body: kangoo },
    ]);
    renderVehicules();
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'FG-123-HJ');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Voir', 'Modifier', 'Archiver']);
    await ui.click(within(menu).getByRole('menuitem', { name: 'Archiver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archiver le véhicule FG-123-HJ ?' });
    expect(dateInput(dialog, /Date de sortie de la flotte/)).toHaveValue(formatDate(todayIso()));

    // Before its entry in the fleet (10/01/2022): refused here, nothing sent.
    typeDate(dialog, /Date de sortie de la flotte/, '01/01/2020');
    await ui.click(within(dialog).getByRole('button', { name: 'Archiver' }));
    expect(await within(dialog).findByText('La date doit être postérieure ou égale au 10/01/2022')).toBeInTheDocument();
    expect(sent(calls, 'DELETE')).toEqual([]);

    typeDate(dialog, /Date de sortie de la flotte/, '30/06/2025');
    await ui.click(within(dialog).getByRole('button', { name: 'Archiver' }));
    expect(await screen.findByText('Véhicule archivé')).toBeInTheDocument();
    expect(screen.getByText('FG-123-HJ ne figure plus parmi les véhicules actifs. Sortie de la flotte : 30/06/2025.')).toBeInTheDocument();
    expect(sent(calls, 'DELETE')).toEqual([`/api/vehicule/${kangoo.uuid}?exitDate=2025-06-30`]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(listQueries(calls)).toHaveLength(2));

    await ui.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(await screen.findByText('Véhicule restauré')).toBeInTheDocument();
    expect(sent(calls, 'POST')).toEqual([`/api/vehicule/restore/${kangoo.uuid}`]);
    // Back in the fleet without the exit date it did not have.
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(await patch!.json()).toEqual({ exitDate: null });
    await waitFor(() => expect(listQueries(calls).length).toBeGreaterThanOrEqual(3));
  });

  it('archives a vehicle with a planned exit, and the undo puts that date back after the restore cleared it', async () => {
    const { calls } = mockFetch([
      listRoute(),
      { method: 'DELETE', path: `/api/vehicule/${master.uuid}`, body: { ...master, exitDate: '2025-06-30', isArchived: true, archivedAt: '2025-06-30T08:00:00.000Z' } },
      { method: 'POST', path: `/api/vehicule/restore/${master.uuid}`, body: { ...master, exitDate: null } },
      { method: 'PATCH', path: `/api/vehicule/${master.uuid}`, body: master },
    ]);
    renderVehicules();
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'AB-123-CD');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Archiver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archiver le véhicule AB-123-CD ?' });
    // The planned exit is the likely answer.
    expect(dateInput(dialog, /Date de sortie de la flotte/)).toHaveValue('31/12/2026');
    typeDate(dialog, /Date de sortie de la flotte/, '30/06/2025');
    await ui.click(within(dialog).getByRole('button', { name: 'Archiver' }));
    expect(await screen.findByText('Véhicule archivé')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await ui.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(await screen.findByText('Véhicule restauré')).toBeInTheDocument();
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(await patch!.json()).toEqual({ exitDate: '2026-12-31' });
  });

  it('undoes an archive without a PATCH when the restore leaves the vehicle as it was', async () => {
    const { calls } = mockFetch([
      listRoute(),
      { method: 'DELETE', path: `/api/vehicule/${kangoo.uuid}`, body: { ...kangoo, exitDate: todayIso(), isArchived: true, archivedAt: '2025-06-30T08:00:00.000Z' } },
      { method: 'POST', path: `/api/vehicule/restore/${kangoo.uuid}`, body: kangoo },
    ]);
    renderVehicules();
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'FG-123-HJ');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Archiver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archiver le véhicule FG-123-HJ ?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Archiver' }));
    expect(await screen.findByText('Véhicule archivé')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await ui.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(await screen.findByText('Véhicule restauré')).toBeInTheDocument();
    expect(sent(calls, 'POST')).toEqual([`/api/vehicule/restore/${kangoo.uuid}`]);
    expect(sent(calls, 'PATCH')).toEqual([]);
  });

  it('changes the category of every vehicle of the filtered list, after saying how many', async () => {
    const filtered = registerPage([kangoo], { total: 12, ...COUNTS });
    const { calls } = mockFetch([
      listRoute(() => ({ body: filtered })),
      { method: 'PATCH', path: '/api/vehicule/category/VUL', body: { updated: 12 } },
    ]);
    renderVehicules('/vehicules?types=VP&search=kangoo&start=2025-01-01&page=2');
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /FG-123-HJ/ });

    await ui.click(screen.getByRole('button', { name: 'Changer la catégorie' }));
    const menu = await screen.findByRole('menu', { name: 'Nouvelle catégorie' });
    await ui.click(within(menu).getByRole('menuitem', { name: 'VUL (utilitaire léger ≤ 3,5 t)' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Passer les 12 véhicules affichés par ce filtre en catégorie VUL ?' });
    expect(within(confirm).getByRole('button', { name: 'Annuler' })).toHaveFocus();
    expect(sent(calls, 'PATCH')).toEqual([]);
    await ui.click(within(confirm).getByRole('button', { name: 'Changer la catégorie' }));

    expect(await screen.findByText('12 véhicules mis à jour')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    const [patch] = calls.filter((call) => call.method === 'PATCH');
    const url = new URL(patch!.url);
    expect(url.pathname).toBe('/api/vehicule/category/VUL');
    expect(Object.fromEntries(url.searchParams)).toEqual({ search: 'kangoo', types: 'VP', start: '2025-01-01' });
    await waitFor(() => expect(listQueries(calls)).toHaveLength(2));
  });

  it('restores an archived vehicle and says its exit date was cleared', async () => {
    const sold = makeVehicule({ immatriculation: 'CD456EF', exitDate: '2025-05-31', isArchived: true, archivedAt: '2025-05-31T08:00:00.000Z' });
    const { calls } = mockFetch([
      listRoute((query) => ({ body: query.get('onlyArchived') ? registerPage([sold], { total: 4, ...COUNTS }) : activePage })),
      // Back in the fleet: the restore clears the exit date archiving set.
      { method: 'POST', path: `/api/vehicule/restore/${sold.uuid}`, body: { ...sold, isArchived: false, archivedAt: null, exitDate: null } },
    ]);
    const { location } = renderVehicules();
    const ui = userEvent.setup();

    await ui.click(await screen.findByRole('button', { name: 'Archivés (4)' }));
    await waitFor(() => expect(location().get('archived')).toBe('only'));
    const menu = await openRowMenu(ui, 'CD-456-EF');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Restaurer' }));
    expect(await screen.findByText('Véhicule restauré')).toBeInTheDocument();
    expect(
      screen.getByText('CD-456-EF figure de nouveau parmi les véhicules actifs. Sa date de sortie (31/05/2025) a été effacée.'),
    ).toBeInTheDocument();
    expect(sent(calls, 'POST')).toEqual([`/api/vehicule/restore/${sold.uuid}`]);
  });

  it('shows a vehicle with the warning on its plate', async () => {
    mockFetch([listRoute(), { path: /^\/api\/vehicule\/[^/]+\/documents$/, body: { data: [] } }]);
    renderVehicules();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Voir BXL4821' }));
    const dialog = await screen.findByRole('dialog', { name: 'BXL4821' });
    expect(within(dialog).getByText('Format non français ou inhabituel : vérifiez l’immatriculation')).toBeInTheDocument();
    expect(within(dialog).getByText('Aucun document')).toBeInTheDocument();
  });

  it('lets only an administrator delete permanently, after a confirmation naming the vehicle and counting its claims', async () => {
    const { calls } = mockFetch([
      listRoute(),
      { method: 'DELETE', path: `/api/vehicule/${master.uuid}/hard`, status: 204 },
      { path: '/api/sinister', body: { ...page([makeSinister()]), sums: { totalCost: 1234.56 } } },
    ]);
    renderVehicules('/vehicules', makeUser({ roles: ['ADMIN'] }));
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'AB-123-CD');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Supprimer définitivement' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer définitivement le véhicule AB-123-CD ?' });
    expect(
      await within(dialog).findByText('1 sinistre fait référence à ce véhicule : il est conservé, sans lien vers lui (son immatriculation reste inscrite).'),
    ).toBeInTheDocument();
    const count = calls.find((call) => new URL(call.url).pathname === '/api/sinister')!;
    expect(Object.fromEntries(new URL(count.url).searchParams)).toMatchObject({ vehicule: master.uuid, withArchived: 'true', limit: '1' });
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer définitivement' }));
    expect(await screen.findByText('Véhicule supprimé définitivement')).toBeInTheDocument();
    expect(sent(calls, 'DELETE')).toEqual([`/api/vehicule/${master.uuid}/hard`]);
  });

  it('still deletes when the claims cannot be counted, and says so', async () => {
    const { calls } = mockFetch([
      listRoute(),
      { method: 'DELETE', path: `/api/vehicule/${master.uuid}/hard`, status: 204 },
      { path: '/api/sinister', status: 403, body: apiErrorBody(403, 'Accès refusé') },
    ]);
    renderVehicules('/vehicules', makeUser({ roles: ['ADMIN'] }));
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'AB-123-CD');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Supprimer définitivement' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer définitivement le véhicule AB-123-CD ?' });
    expect(await within(dialog).findByText(/Le nombre de sinistres liés à ce véhicule n’a pas pu être vérifié/)).toBeInTheDocument();
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer définitivement' }));
    expect(await screen.findByText('Véhicule supprimé définitivement')).toBeInTheDocument();
    expect(sent(calls, 'DELETE')).toEqual([`/api/vehicule/${master.uuid}/hard`]);
  });

  it('hides permanent deletion from a plain user', async () => {
    mockFetch([listRoute()]);
    renderVehicules('/vehicules', makeUser({ roles: ['USER'] }));
    const ui = userEvent.setup();
    const menu = await openRowMenu(ui, 'AB-123-CD');
    expect(within(menu).queryByRole('menuitem', { name: 'Supprimer définitivement' })).not.toBeInTheDocument();
  });
});

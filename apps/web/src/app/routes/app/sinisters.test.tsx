import { CHOICES_LIMIT, todayIso } from '@flotte/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { snackbar } from '../../../components/snackbar/snackbar';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { GUARANTEES, makeDriver, makeSinister, makeUser, page, registerPage } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import SinistersRoute from './sinisters';

// Role queries over a whole page are slow in jsdom, more so when every test file runs at once.
configure({ asyncUtilTimeout: 4000 });

const today = todayIso();
const startOfYear = `${today.slice(0, 4)}-01-01`;
const frDate = (iso: string) => iso.split('-').reverse().join('/');
/** The line under the title, whose parts (count and cost, period) are lines of their own on a phone: the paragraph's whole text. */
const summaryLine = (text: string) => (_: string, element: Element | null) => element?.tagName === 'P' && element.textContent?.replace(/\s+/g, ' ').trim() === text;
const DEFAULT_QUERY = { page: '1', limit: '10', sortBy: '-sinisterDate', startDate: startOfYear, endDate: today };

const glass = makeSinister();
const collision = makeSinister({
  sinisterIntermediateRef: null,
  sinisterDate: '2026-02-03',
  city: 'Lyon',
  immatriculation: 'EF456GH',
  vehicule: { uuid: 'e0000000-0000-4000-8000-000000000002', immatriculation: 'EF456GH', brand: 'Iveco', model: 'Daily' },
  driver: null,
  guarantee: null,
  responsibilityRate: null,
  isDeclared: false,
  ida: false,
  totalCost: 0,
});

/** GET /api/vehicule/choices: a small fleet, held whole. */
const VEHICULES = [{ uuid: 'e0000000-0000-4000-8000-000000000001', immatriculation: 'AB123CD', brand: 'Renault', model: 'Master' }];
const pierre = makeDriver({ firstName: 'Pierre', lastName: 'Martin' });

type Answer = ReturnType<NonNullable<MockRoute['respond']>>;

/** GET /api/sinister answered from its query string. */
function listRoute(answer: (query: URLSearchParams, call: number) => Answer = () => ({ body: registerPage([glass, collision], { total: 37 }) })): MockRoute {
  return { path: '/api/sinister', respond: (request, call) => answer(new URL(request.url).searchParams, call) };
}

const guaranteesRoute: MockRoute = { path: '/api/guarantees', body: GUARANTEES };
const formRoutes: MockRoute[] = [
  { path: '/api/vehicule/choices', body: page(VEHICULES) },
  { path: '/api/driver/choices', body: page([{ uuid: pierre.uuid, firstName: pierre.firstName, lastName: pierre.lastName, phone: pierre.phone }]) },
];

function listQueries(calls: Request[]) {
  return calls
    .filter((call) => call.method === 'GET' && new URL(call.url).pathname === '/api/sinister')
    .map((call) => Object.fromEntries(new URL(call.url).searchParams));
}

function renderSinisters(url = '/sinisters', user = makeUser({ roles: ['USER'] })) {
  authStore.setSession('token', user);
  const rendered = renderRoutes(
    [
      {
        path: '/sinisters',
        element: (
          <>
            <SinistersRoute />
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

/** 'Modifier' on the first claim (`glass`). */
async function openEditDialog(ui: ReturnType<typeof userEvent.setup>) {
  const menu = await openRowMenu(ui, 'AB-123-CD · sinistre du 14/03/2026');
  await ui.click(within(menu).getByRole('menuitem', { name: 'Modifier' }));
  const dialog = await screen.findByRole('dialog', { name: 'Modifier le sinistre' });
  // The form arrives with its module (lazy): wait for it.
  await within(dialog).findByRole('textbox', { name: 'Provision' });
  return dialog;
}

describe('Sinistres page', () => {
  it('lists the claims of this year with French amounts, plates and rates', async () => {
    const { calls } = mockFetch([listRoute(), guaranteesRoute]);
    const { location } = renderSinisters();

    expect(screen.getByRole('heading', { level: 1, name: 'Sinistres' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sinistres — FlotteAssur'));
    const table = await screen.findByRole('table', { name: 'Liste des sinistres' });
    // The rows come in a render of their own, after the page's first paint (RegisterTable).
    const row = await within(table).findByRole('row', { name: /14\/03\/2026/ });
    expect(within(row).getByText('AB-123-CD')).toBeInTheDocument();
    expect(within(row).getByText('1 234,56 €')).toBeInTheDocument();
    expect(within(row).getByText('100 %')).toBeInTheDocument();
    expect(within(row).getByText('Élodie Écuyer')).toBeInTheDocument();
    expect(within(row).getByText('Bris de glace')).toBeInTheDocument();
    expect(within(row).getByText('Oui')).toBeInTheDocument();
    const other = within(table).getByRole('row', { name: /03\/02\/2026/ });
    expect(within(other).getByText('EF-456-GH')).toBeInTheDocument();
    expect(within(other).getByText('0,00 €')).toBeInTheDocument();
    expect(within(other).getByText('Non')).toBeInTheDocument();
    // No number, no driver, no guarantee, unknown rate.
    expect(within(other).getAllByText('Non renseigné')).toHaveLength(4);

    expect(screen.getByText(summaryLine(`37 sinistres · 1 234,56 € du ${frDate(startOfYear)} au ${frDate(today)}`))).toBeInTheDocument();
    // The default period goes to the API, never to the URL.
    expect(listQueries(calls)).toEqual([DEFAULT_QUERY]);
    expect(location().toString()).toBe('');
    expect(screen.getByRole('button', { name: 'Actifs' })).toHaveAttribute('aria-pressed', 'true');
    // The search also finds the driver's name: the hint says so.
    expect(screen.getByRole('searchbox', { name: 'Rechercher un sinistre' })).toHaveAttribute(
      'placeholder',
      'N° de sinistre, immatriculation, ville ou conducteur',
    );
  });

  it('reads a shared period from the URL', async () => {
    const { calls } = mockFetch([listRoute(() => ({ body: registerPage([glass]) })), guaranteesRoute]);
    renderSinisters('/sinisters?startDate=2025-01-01&endDate=2025-12-31');
    expect(await screen.findByText(summaryLine('1 sinistre · 1 234,56 € du 01/01/2025 au 31/12/2025'))).toBeInTheDocument();
    expect(listQueries(calls)).toEqual([{ ...DEFAULT_QUERY, startDate: '2025-01-01', endDate: '2025-12-31' }]);
    expect(screen.getByRole('button', { name: 'Effacer les filtres' })).toBeInTheDocument();
  });

  it('says "plus de 1 000" when the API caps the count', async () => {
    mockFetch([listRoute(() => ({ body: { ...registerPage([glass, collision], { total: 1000 }), totalIsCapped: true } })), guaranteesRoute]);
    renderSinisters();
    expect(await screen.findByText(summaryLine(`plus de 1 000 sinistres · 1 234,56 € du ${frDate(startOfYear)} au ${frDate(today)}`))).toBeInTheDocument();
  });

  it('writes each toggle to the URL and goes back to page 1', async () => {
    const { calls } = mockFetch([listRoute(), guaranteesRoute]);
    const { location, router } = renderSinisters();
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /14\/03\/2026/ });

    const toggles = [
      ['Dommages corporels', 'hasHumanInjury', 'true'],
      ['Véhicules endommagés', 'damagedVehicule', 'true'],
      ['Tiers impliqués', 'isThirdImplicated', 'true'],
      ['Sinistres déclarés', 'showDeclared', 'true'],
      ['Sinistres non déclarés', 'showNotDeclared', 'true'],
      ['Je suis responsable', 'responsible', 'me'],
      ['Je ne suis pas responsable', 'responsible', 'other'],
    ] as const;
    for (const [label, param, value] of toggles) {
      await router.navigate('/sinisters?page=3');
      await waitFor(() => expect(location().get('page')).toBe('3'));
      const toggle = screen.getByRole('button', { name: label });
      expect(toggle).toHaveAttribute('aria-pressed', 'false');
      await ui.click(toggle);
      await waitFor(() => expect(location().toString()).toBe(`${param}=${value}`));
      expect(screen.getByRole('button', { name: label })).toHaveAttribute('aria-pressed', 'true');
      await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ ...DEFAULT_QUERY, [param]: value }));
    }

    // Pressed again: the filter goes away.
    await ui.click(screen.getByRole('button', { name: 'Je ne suis pas responsable' }));
    await waitFor(() => expect(location().toString()).toBe(''));
  });

  it('keeps "Je suis responsable" and "Je ne suis pas responsable" exclusive, beside the other toggles', async () => {
    const { calls } = mockFetch([listRoute(), guaranteesRoute]);
    const { location } = renderSinisters('/sinisters?hasHumanInjury=true');
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /14\/03\/2026/ });

    await ui.click(screen.getByRole('button', { name: 'Je suis responsable' }));
    await waitFor(() => expect(location().get('responsible')).toBe('me'));
    await ui.click(screen.getByRole('button', { name: 'Je ne suis pas responsable' }));
    await waitFor(() => expect(location().getAll('responsible')).toEqual(['other']));
    expect(screen.getByRole('button', { name: 'Je suis responsable' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Je ne suis pas responsable' })).toHaveAttribute('aria-pressed', 'true');
    expect(location().get('hasHumanInjury')).toBe('true');
    await waitFor(() =>
      expect(listQueries(calls).at(-1)).toEqual({ ...DEFAULT_QUERY, hasHumanInjury: 'true', responsible: 'other' }),
    );
  });

  it('filters by status with status=<value>, and shows the count and total cost the API gives for the filter', async () => {
    const closed = makeSinister({ status: 'closed', closedAt: '2026-04-02', paidAmount: 1234.56, reserveAmount: 0 });
    const { calls } = mockFetch([
      listRoute((query) => ({
        body: query.get('status') === 'closed' ? registerPage([closed], { total: 12, sums: { totalCost: 45300 } }) : registerPage([glass, collision], { total: 37 }),
      })),
      guaranteesRoute,
    ]);
    const { location } = renderSinisters('/sinisters?page=2');
    const ui = userEvent.setup();
    const row = await screen.findByRole('row', { name: /14\/03\/2026/ });
    // The status is a chip with its label, not a colour alone.
    expect(within(row).getByText('Ouvert')).toBeInTheDocument();

    const select = screen.getByRole('combobox', { name: 'Statut du sinistre' });
    expect(select).toHaveDisplayValue('Tous les statuts');
    await ui.selectOptions(select, 'Clos');
    await waitFor(() => expect(location().toString()).toBe('status=closed'));
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ ...DEFAULT_QUERY, status: 'closed' }));
    expect(await screen.findByText(summaryLine(`12 sinistres · 45 300,00 € du ${frDate(startOfYear)} au ${frDate(today)}`))).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /14\/03\/2026/ })).getByText('Clos')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Effacer les filtres' })).toBeInTheDocument();
  });

  it('filters on a guarantee with garantee=<uuid>', async () => {
    const { calls } = mockFetch([listRoute(), guaranteesRoute]);
    const { location } = renderSinisters('/sinisters?page=2');
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /14\/03\/2026/ });

    const select = screen.getByRole('combobox', { name: 'Garantie' });
    expect(select).toHaveDisplayValue('Toutes les garanties');
    await ui.selectOptions(select, 'Bris de glace');
    await waitFor(() => expect(location().toString()).toBe(`garantee=${GUARANTEES[1]!.uuid}`));
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ ...DEFAULT_QUERY, garantee: GUARANTEES[1]!.uuid }));
    expect(screen.getByRole('combobox', { name: 'Garantie' })).toHaveDisplayValue('Bris de glace');

    await ui.click(screen.getByRole('button', { name: 'Effacer les filtres' }));
    await waitFor(() => expect(location().toString()).toBe(''));
  });

  it('shows one driver’s claims from driver=<uuid> as a chip naming the driver, kept in the URL and removed with its cross', async () => {
    const elodie = glass.driver!;
    const { calls } = mockFetch([listRoute((query) => ({ body: registerPage(query.get('driver') ? [glass] : [glass, collision]) })), guaranteesRoute]);
    const { location } = renderSinisters(`/sinisters?responsible=me&driver=${elodie.uuid}`);
    const ui = userEvent.setup();
    // The name comes from the claims on the page: no other request.
    const chip = await screen.findByRole('button', { name: 'Conducteur : Élodie Écuyer (retirer ce filtre)' });
    expect(chip).toHaveTextContent('Conducteur : Élodie Écuyer');
    expect(listQueries(calls).at(-1)).toEqual({ ...DEFAULT_QUERY, responsible: 'me', driver: elodie.uuid });
    expect(calls.some((call) => new URL(call.url).pathname.startsWith('/api/driver/'))).toBe(false);
    expect(screen.getByRole('button', { name: 'Effacer les filtres' })).toBeInTheDocument();

    await ui.click(chip);
    await waitFor(() => expect(location().toString()).toBe('responsible=me'));
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ ...DEFAULT_QUERY, responsible: 'me' }));
    expect(screen.queryByRole('button', { name: /^Conducteur/ })).not.toBeInTheDocument();
  });

  it('names the driver from GET /api/driver/{uuid} when no claim is on the page, and says when the driver is not found', async () => {
    const known = makeDriver({ firstName: 'Jean', lastName: 'Martin' });
    const gone = 'd0000000-0000-4000-8000-0000000009ff';
    mockFetch([
      listRoute(() => ({ body: registerPage([]) })),
      guaranteesRoute,
      { path: `/api/driver/${known.uuid}`, body: known },
      { path: `/api/driver/${gone}`, status: 404, body: apiErrorBody(404, 'Conducteur introuvable') },
    ]);
    const { unmount } = renderSinisters(`/sinisters?driver=${known.uuid}`);
    expect(await screen.findByRole('button', { name: 'Conducteur : Jean Martin (retirer ce filtre)' })).toBeInTheDocument();
    unmount();
    renderSinisters(`/sinisters?driver=${gone}`);
    expect(await screen.findByRole('button', { name: 'Conducteur introuvable (retirer ce filtre)' })).toBeInTheDocument();
  });

  it('shows a claim from GET /api/sinister/{id} with every field in French', async () => {
    const fresh = { ...glass, hasHumanInjury: true, documents: [] };
    mockFetch([listRoute(), guaranteesRoute, { path: `/api/sinister/${glass.uuid}`, body: fresh }, { path: `/api/sinister/${glass.uuid}/documents`, body: { data: [] } }]);
    renderSinisters();
    const ui = userEvent.setup();

    await ui.click(await screen.findByRole('button', { name: 'Voir AB-123-CD · sinistre du 14/03/2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sinistre du 14/03/2026 (AB-123-CD)' });
    const detail = (label: string) => within(dialog).getByText(label).nextElementSibling?.textContent;
    // The fresh claim replaces the listed one.
    await waitFor(() => expect(detail('Dommages corporels')).toBe('Oui'));
    expect(detail('N° de sinistre')).toBe('SIN-2026-0042');
    expect(detail('Véhicule')).toBe('AB-123-CD · Renault Master');
    expect(detail('Conducteur')).toBe('Élodie Écuyer');
    expect(detail('Garantie')).toBe('Bris de glace');
    expect(detail('Taux de responsabilité')).toBe('100\u00a0%');
    expect(detail('Coût total')).toBe('1\u202f234,56\u00a0€');
    expect(detail('Déclaré à l’assureur')).toBe('Oui');
    expect(detail('Convention IDA')).toBe('Oui');
    expect(detail('Tiers impliqué')).toBe('Oui');
    expect(within(dialog).getByText('Aucun document')).toBeInTheDocument();
  });

  it('archives with an undo that restores and refreshes the list', async () => {
    const { calls } = mockFetch([
      listRoute(),
      guaranteesRoute,
      { method: 'DELETE', path: `/api/sinister/${glass.uuid}`, body: { ...glass, isArchived: true, archivedAt: '2026-06-02T08:00:00.000Z' } },
      { method: 'POST', path: `/api/sinister/restore/${glass.uuid}`, body: glass },
    ]);
    renderSinisters();
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'AB-123-CD · sinistre du 14/03/2026');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Voir', 'Modifier', 'Télécharger le dossier', 'Archiver']);
    await ui.click(within(menu).getByRole('menuitem', { name: 'Archiver' }));

    expect(await screen.findByText('Sinistre archivé')).toBeInTheDocument();
    expect(screen.getByText('Le sinistre du 14/03/2026 (AB\u2011123\u2011CD) ne figure plus parmi les sinistres actifs.')).toBeInTheDocument();
    await waitFor(() => expect(listQueries(calls)).toHaveLength(2));
    await ui.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(await screen.findByText('Sinistre restauré')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => new URL(call.url).pathname)).toEqual([
      `/api/sinister/restore/${glass.uuid}`,
    ]);
    await waitFor(() => expect(listQueries(calls)).toHaveLength(3));
  });

  describe('« Télécharger le dossier »', () => {
    const PACK = 'Sinistre-SIN-2026-0042-2026-03-14.zip';
    /** The ZIP's first bytes: enough for a download. */
    const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04]);

    function catchSaves() {
      const saved: { href: string; download: string }[] = [];
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:dossier', revokeObjectURL: vi.fn() }));
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        saved.push({ href: this.href, download: this.download });
      });
      return saved;
    }

    it('downloads the claim’s pack from its row menu, with « Préparation du dossier… » meanwhile', async () => {
      const saved = catchSaves();
      let release: () => void = () => {};
      const answered = new Promise<void>((resolve) => (release = resolve));
      const { calls, fetchMock } = mockFetch([
        listRoute(),
        guaranteesRoute,
        { path: `/api/sinister/${glass.uuid}/pack`, respond: () => ({ body: ZIP, headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${PACK}"` } }) },
      ]);
      const original = fetchMock.getMockImplementation()!;
      fetchMock.mockImplementation(async (input, init) => {
        if (String(input).includes('/pack')) await answered;
        return original(input, init);
      });
      renderSinisters();
      const ui = userEvent.setup();
      const menu = await openRowMenu(ui, 'AB-123-CD · sinistre du 14/03/2026');
      await ui.click(within(menu).getByRole('menuitem', { name: 'Télécharger le dossier' }));
      await waitFor(() => expect(snackbar.getCurrent()).toMatchObject({ type: 'loading', title: 'Préparation du dossier…' }));
      release();
      expect(await screen.findByText('Dossier téléchargé')).toBeInTheDocument();
      expect(saved).toEqual([{ href: 'blob:dossier', download: PACK }]);
      const pack = calls.find((call) => new URL(call.url).pathname === `/api/sinister/${glass.uuid}/pack`)!;
      expect(pack.headers.get('authorization')).toBe('Bearer token');
      expect(pack.headers.get('accept')).toContain('application/zip');
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
    });

    it('downloads it from the claim’s details too, and tells the API’s French reason of a failure', async () => {
      const saved = catchSaves();
      const reason = 'Un fichier du sinistre est introuvable dans le stockage : réessayez plus tard.';
      mockFetch([
        listRoute(),
        guaranteesRoute,
        { path: `/api/sinister/${glass.uuid}`, body: glass },
        { path: `/api/sinister/${glass.uuid}/documents`, body: { data: [] } },
        { path: `/api/sinister/${glass.uuid}/pack`, status: 503, body: apiErrorBody(503, reason) },
      ]);
      renderSinisters();
      const ui = userEvent.setup();
      await ui.click(await screen.findByRole('button', { name: 'Voir AB-123-CD · sinistre du 14/03/2026' }));
      const dialog = await screen.findByRole('dialog', { name: 'Sinistre du 14/03/2026 (AB-123-CD)' });
      await ui.click(within(dialog).getByRole('button', { name: 'Télécharger le dossier' }));
      expect(await screen.findByText(reason)).toBeInTheDocument();
      expect(snackbar.getCurrent()).toMatchObject({ type: 'error', title: 'Erreur' });
      expect(saved).toEqual([]);
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
    });
  });

  it('declares a claim: French messages, the server detail on the vehicle field, then saved', async () => {
    const unknown = 'Véhicule introuvable dans votre flotte';
    const { calls } = mockFetch([
      listRoute(),
      guaranteesRoute,
      ...formRoutes,
      {
        method: 'POST',
        path: '/api/sinister',
        respond: (_, call) =>
          call === 1
            ? { status: 400, body: apiErrorBody(400, unknown, [{ path: 'vehicule', message: unknown }]) }
            : { status: 201, body: makeSinister({ sinisterDate: today }) },
      },
    ]);
    renderSinisters();
    const ui = userEvent.setup();
    await screen.findByRole('row', { name: /14\/03\/2026/ });

    await ui.click(screen.getByRole('button', { name: 'Déclarer un sinistre' }));
    const dialog = await screen.findByRole('dialog', { name: 'Déclarer un sinistre' });
    // The form arrives with its module (lazy): wait for it.
    const cost = await within(dialog).findByRole('textbox', { name: 'Provision' });
    await ui.type(cost, 'douze');
    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer le sinistre' }));
    expect(await within(dialog).findByText('Choisissez le véhicule concerné')).toBeInTheDocument();
    expect(within(dialog).getByText('Montant invalide (ex. 1 234,56)')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    const vehicule = within(dialog).getByRole('combobox', { name: 'Véhicule' });
    await ui.type(vehicule, 'ab123');
    await ui.click(await screen.findByRole('option', { name: 'AB-123-CD · Renault Master' }));
    await ui.click(within(dialog).getByRole('combobox', { name: 'Conducteur' }));
    await ui.click(await screen.findByRole('option', { name: 'Pierre Martin' }));
    await ui.type(within(dialog).getByRole('textbox', { name: 'N° de sinistre' }), 'SIN-77');
    await ui.type(within(dialog).getByRole('textbox', { name: 'Ville' }), 'Mâcon');
    await ui.click(within(dialog).getByRole('combobox', { name: 'Garantie' }));
    await ui.click(await screen.findByRole('option', { name: 'Responsabilité civile' }));
    await ui.click(within(dialog).getByRole('combobox', { name: 'Taux de responsabilité' }));
    await ui.click(await screen.findByRole('option', { name: '50 % (responsabilité partagée)' }));
    await ui.clear(cost);
    await ui.type(cost, '1 234,56');
    await ui.click(within(dialog).getByRole('switch', { name: 'Tiers impliqué' }));
    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer le sinistre' }));

    expect(await within(dialog).findByText(unknown)).toBeInTheDocument();
    expect(vehicule).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(screen.getAllByText(unknown)).toHaveLength(2));

    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer le sinistre' }));
    expect(await screen.findByText('Sinistre enregistré')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const posts = calls.filter((call) => call.method === 'POST');
    expect(await posts[1]!.json()).toEqual({
      vehicule: VEHICULES[0]!.uuid,
      driver: pierre.uuid,
      sinisterDate: today,
      sinisterIntermediateRef: 'SIN-77',
      city: 'Mâcon',
      guarantee: GUARANTEES[0]!.uuid,
      responsibilityRate: 50,
      // A new claim: open, opened today, its cost reserved (nothing paid yet).
      status: 'open',
      openedAt: today,
      closedAt: null,
      paidAmount: 0,
      reserveAmount: 1234.56,
      description: null,
      isDeclared: false,
      hasHumanInjury: false,
      damagedVehicule: false,
      isThirdImplicated: true,
      ida: false,
    });
    // A small fleet's vehicles come all at once, in one request (CHOICES_LIMIT), and the plate
    // typed is found in the browser.
    const vehiculeCalls = calls.filter((call) => new URL(call.url).pathname === '/api/vehicule/choices');
    expect(vehiculeCalls.map((call) => Object.fromEntries(new URL(call.url).searchParams))).toEqual([
      { page: '1', limit: String(CHOICES_LIMIT), sortBy: 'immatriculation' },
    ]);
    // Types into a dozen fields: seconds of user-event on a loaded 2-core machine.
  }, 45_000);

  it('edits a claim from its current values', async () => {
    const { calls } = mockFetch([
      listRoute(),
      guaranteesRoute,
      ...formRoutes,
      { method: 'PATCH', path: `/api/sinister/${glass.uuid}`, body: { ...glass, reserveAmount: 2000, totalCost: 2000 } },
    ]);
    renderSinisters();
    const ui = userEvent.setup();
    const dialog = await openEditDialog(ui);
    expect(within(dialog).getByRole('combobox', { name: 'Véhicule' })).toHaveValue('AB-123-CD · Renault Master');
    expect(within(dialog).getByRole('combobox', { name: 'Conducteur' })).toHaveValue('Élodie Écuyer');
    const cost = within(dialog).getByRole('textbox', { name: 'Provision' });
    expect(cost).toHaveValue('1\u202f234,56');
    await ui.clear(cost);
    await ui.type(cost, '2000');
    await ui.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Sinistre modifié')).toBeInTheDocument();
    const patch = calls.find((call) => call.method === 'PATCH');
    // A PATCH of what changed only.
    expect(await patch!.json()).toEqual({ reserveAmount: 2000 });
  });

  it('edits a claim whose vehicle and driver lie beyond the first page of a large fleet’s choices', async () => {
    const others = Array.from({ length: CHOICES_LIMIT }, (_, i) => ({
      uuid: `e1000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      immatriculation: `AA${String(i).padStart(3, '0')}AA`,
      brand: 'Iveco',
      model: 'Daily',
    }));
    const { calls } = mockFetch([
      listRoute(),
      guaranteesRoute,
      { path: '/api/vehicule/choices', body: { ...page(others), nbOfPages: 15, total: 3000 } },
      { path: '/api/driver/choices', body: { ...page([]), total: 0 } },
    ]);
    renderSinisters();
    const ui = userEvent.setup();
    const dialog = await openEditDialog(ui);
    // From the claim's own data: neither is among the choices loaded.
    expect(within(dialog).getByRole('combobox', { name: 'Véhicule' })).toHaveValue('AB-123-CD · Renault Master');
    expect(within(dialog).getByRole('combobox', { name: 'Conducteur' })).toHaveValue('Élodie Écuyer');
    await waitFor(() => expect(calls.some((call) => new URL(call.url).pathname === '/api/vehicule/choices')).toBe(true));
    expect(within(dialog).getByRole('combobox', { name: 'Véhicule' })).toHaveValue('AB-123-CD · Renault Master');
    expect(calls.filter((call) => new URL(call.url).searchParams.has('search') && call.url.includes('/choices'))).toHaveLength(0);
  });

  it('lets only an administrator delete permanently, after a confirmation', async () => {
    const { calls } = mockFetch([listRoute(), guaranteesRoute, { method: 'DELETE', path: `/api/sinister/${glass.uuid}/hard`, status: 204 }]);
    renderSinisters('/sinisters', makeUser({ roles: ['ADMIN'] }));
    const ui = userEvent.setup();

    const menu = await openRowMenu(ui, 'AB-123-CD · sinistre du 14/03/2026');
    await ui.click(within(menu).getByRole('menuitem', { name: 'Supprimer définitivement' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer définitivement le sinistre du 14/03/2026 (AB\u2011123\u2011CD) ?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Supprimer définitivement' }));
    expect(await screen.findByText('Sinistre supprimé définitivement')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE' && call.url.endsWith('/hard'))).toBe(true);
  });

  it('invites to declare a claim when the period has none, and empties the list on a failure', async () => {
    const message = 'Trop de requêtes : réessayez dans une minute.';
    mockFetch([
      listRoute((query) => (query.get('search') ? { status: 429, body: apiErrorBody(429, message) } : { body: registerPage([]) })),
      guaranteesRoute,
    ]);
    const { router } = renderSinisters();
    expect(
      await screen.findByText(`Aucun sinistre du ${frDate(startOfYear)} au ${frDate(today)}. Élargissez la période ou déclarez un sinistre.`),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Déclarer un sinistre' })).toHaveLength(2);

    await router.navigate('/sinisters?search=zz');
    // Told once, inline (no snackbar for a failed query).
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(snackbar.getCurrent()).toBeNull();
  });
});

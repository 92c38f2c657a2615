import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const table = (page: Page) => page.getByRole('table', { name: 'Liste des sinistres' });
const dataRows = (page: Page) => table(page).locator('tbody tr');
// Cell texts with French typographic spaces (no-break, narrow no-break) read as plain spaces.
const column = (page: Page, index: number) =>
  dataRows(page).evaluateAll(
    (rows, i) => rows.map((r) => (r.querySelectorAll('td, th')[i]?.textContent ?? '').replace(/\s+/g, ' ').trim()),
    index,
  );
const toggle = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const today = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());

async function openSinisters(page: Page, email: string, query = '') {
  await login(page, email);
  await page.goto(`/sinisters${query}`);
  await expect.poll(() => dataRows(page).count()).toBeGreaterThan(0);
}

describe('sinisters register', () => {
  it('shows this year by default, with the seven toggles, the guarantee and the dates in the URL', async () => {
    const { page, context } = await newPage(browser);
    await openSinisters(page, 'user@demo.fr');
    const year = new Date().getFullYear();
    await expect.poll(() => page.getByText(new RegExp(`du 01/01/${year} au ${today().replace(/\//g, '\\/')}`)).isVisible()).toBe(true);
    expect(new URL(page.url()).search).toBe('');
    expect((await column(page, 0)).every((d) => d.endsWith(String(year)))).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'sinisters');

    const params = async () => new URL(page.url()).searchParams;
    for (const [label, param, value] of [
      ['Dommages corporels', 'hasHumanInjury', 'true'],
      ['Véhicules endommagés', 'damagedVehicule', 'true'],
      ['Tiers impliqués', 'isThirdImplicated', 'true'],
      ['Sinistres déclarés', 'showDeclared', 'true'],
      ['Sinistres non déclarés', 'showNotDeclared', 'true'],
    ] as const) {
      await toggle(page, label).click();
      await expect.poll(async () => (await params()).get(param)).toBe(value);
      await expect.poll(() => toggle(page, label).getAttribute('aria-pressed')).toBe('true');
      await toggle(page, label).click();
      await expect.poll(async () => (await params()).has(param)).toBe(false);
      // The screen caught up with the URL: the next click starts from it, not from the toggle still on.
      await expect.poll(() => toggle(page, label).getAttribute('aria-pressed')).toBe('false');
    }
    // Declared only: every row says Oui.
    await toggle(page, 'Sinistres déclarés').click();
    await expect.poll(async () => [...new Set(await column(page, 7))]).toEqual(['Oui']);
    await toggle(page, 'Sinistres déclarés').click();

    // 'Je suis responsable' and 'Je ne suis pas responsable' exclude each other.
    await toggle(page, 'Je suis responsable').click();
    await expect.poll(async () => (await params()).get('responsible')).toBe('me');
    await toggle(page, 'Je ne suis pas responsable').click();
    await expect.poll(async () => (await params()).get('responsible')).toBe('other');
    await expect.poll(() => toggle(page, 'Je suis responsable').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => toggle(page, 'Je ne suis pas responsable').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => [...new Set(await column(page, 6))]).toEqual(['0 %']);
    await toggle(page, 'Je ne suis pas responsable').click();
    // The guarantee at once, while the toggle's list may still load: neither change undoes the other.
    await page.getByRole('combobox', { name: 'Garantie' }).selectOption({ label: 'Bris de glace' });
    await expect.poll(async () => (await params()).has('garantee')).toBe(true);
    expect((await params()).has('responsible')).toBe(false);
    await expect.poll(async () => [...new Set(await column(page, 4))]).toEqual(['Bris de glace']);
    await screenshot(page, 'sinisters-filtered');

    // Dates: a shared link with a period restores it (and its page).
    await page.goto(`/sinisters?startDate=${year - 1}-01-01&endDate=${year - 1}-12-31&sortBy=-totalCost`);
    await expect.poll(() => page.getByText(new RegExp(`du 01/01/${year - 1} au 31/12/${year - 1}`)).isVisible()).toBe(true);
    await expect.poll(async () => (await column(page, 0)).every((d) => d.endsWith(String(year - 1)))).toBe(true);
    const costs = (await column(page, 8)).map((c) => Number(c.replace(/[^\d,]/g, '').replace(',', '.')));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    await page.reload();
    await expect.poll(() => page.getByText(new RegExp(`du 01/01/${year - 1} au 31/12/${year - 1}`)).isVisible()).toBe(true);
    await context.close();
  });

  it('finds a claim by its driver’s name', async () => {
    const { page, context } = await newPage(browser);
    await openSinisters(page, 'user@demo.fr');
    // A driver of this year's claims, by last name, as a fleet manager remembers them.
    const driver = (await column(page, 3)).find((name) => name !== '' && !name.includes('Non renseigné'))!;
    const lastName = driver.split(' ').at(-1)!;
    const search = page.getByRole('searchbox', { name: 'Rechercher un sinistre' });
    expect(await search.getAttribute('placeholder')).toBe('N° de sinistre, immatriculation, ville ou conducteur');
    await search.fill(lastName.toLowerCase());
    await page.waitForURL((url) => url.searchParams.get('search') === lastName.toLowerCase());
    // Every claim found names that driver (or, rarely, a city with that name): the previous page,
    // kept on screen while the search runs, does not.
    const matches = async () => {
      const [drivers, cities] = [await column(page, 3), await column(page, 5)];
      return drivers.length > 0 && drivers.every((name, index) => name.includes(lastName) || cities[index]!.includes(lastName));
    };
    await expect.poll(matches).toBe(true);
    expect(await column(page, 3)).toContainEqual(driver);
    await screenshot(page, 'sinisters-driver-search');
    await context.close();
  });

  describe('on a claim it declares', () => {
    afterEach(async () => {
      // Gone already when the test got to its permanent deletion; otherwise put the seed back.
      const api = await apiAs('admin2@demo.fr');
      await api.purge('/api/sinister', 'E2E-0001', (sinister) => sinister.sinisterIntermediateRef === 'E2E-0001');
    });

    it('declares a claim, edits it, archives it with Annuler, restores it and deletes it', async () => {
      const { page, context } = await newPage(browser);
      await openSinisters(page, 'admin2@demo.fr');
      await page.getByRole('button', { name: 'Déclarer un sinistre' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Enregistrer le sinistre' }).click();
      await expect.poll(() => dialog.getByText('Choisissez le véhicule concerné').isVisible()).toBe(true);
      await dialog.getByRole('combobox', { name: /^Véhicule/ }).click();
      await page.getByRole('option').first().click();
      await dialog.getByLabel(/^N° de sinistre/).fill('E2E-0001');
      await dialog.getByLabel(/^Ville/).fill('Saint-Étienne');
      await dialog.getByRole('combobox', { name: /^Garantie/ }).click();
      await page.getByRole('option', { name: 'Bris de glace' }).click();
      // In progress: 500 € paid, 734,56 € reserved, the total their sum.
      await dialog.getByRole('combobox', { name: /^Statut/ }).click();
      await page.getByRole('option', { name: 'En cours' }).click();
      await dialog.getByLabel(/^Montant réglé/).fill('500');
      await dialog.getByLabel(/^Provision/).fill('734,56');
      await dialog.getByLabel(/^Circonstances/).fill('Impact de gravillon sur l’autoroute A6.');
      await expect.poll(async () => (await dialog.getByText(/^Coût total \(réglé \+ provision\)/).textContent())?.replace(/\s+/g, ' ')).toBe('Coût total (réglé + provision) : 1 234,56 €');
      await expectAccessible(page);
      await screenshot(page, 'sinisters-form');
      await dialog.getByRole('button', { name: 'Enregistrer le sinistre' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

      await page.getByRole('searchbox', { name: 'Rechercher un sinistre' }).fill('e2e-0001');
      await expect.poll(() => column(page, 1)).toEqual(['E2E-0001']);
      expect((await column(page, 8))[0]).toBe('1 234,56 €');
      expect((await column(page, 0))[0]).toBe(today());
      expect((await column(page, 9))[0]).toBe('En cours');

      // Filtered by status: the count and the total cost of the filter.
      await page.getByRole('combobox', { name: 'Statut du sinistre' }).selectOption({ label: 'En cours' });
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('inProgress');
      await expect.poll(() => page.getByText(/^1 sinistre · 1\s234,56\s€ du /).isVisible()).toBe(true);
      await page.getByRole('combobox', { name: 'Statut du sinistre' }).selectOption({ label: 'Clos' });
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('closed');
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await expect.poll(() => page.getByText(/^0 sinistre · 0,00\s€ du /).isVisible()).toBe(true);
      await page.getByRole('combobox', { name: 'Statut du sinistre' }).selectOption({ label: 'En cours' });
      await expect.poll(() => column(page, 1)).toEqual(['E2E-0001']);
      await screenshot(page, 'sinisters-status-filter');

      const actions = () => table(page).getByRole('button', { name: /^Actions pour/ }).first();
      await actions().click();
      await page.getByRole('menuitem', { name: 'Modifier' }).click();
      await page.getByRole('dialog').getByLabel(/^Ville/).fill('Lyon');
      await page.getByRole('dialog').getByRole('button', { name: 'Enregistrer' }).click();
      await expect.poll(() => column(page, 5)).toEqual(['Lyon']);

      await actions().click();
      await page.getByRole('menuitem', { name: 'Archiver' }).click();
      await expect.poll(() => page.getByText('Sinistre archivé').isVisible()).toBe(true);
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await page.getByRole('button', { name: 'Annuler' }).click();
      await expect.poll(() => column(page, 1)).toEqual(['E2E-0001']);

      await actions().click();
      await page.getByRole('menuitem', { name: 'Archiver' }).click();
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await page.getByRole('button', { name: /^Archivés/ }).click();
      await expect.poll(() => column(page, 1)).toEqual(['E2E-0001']);
      await actions().click();
      await page.getByRole('menuitem', { name: 'Restaurer' }).click();
      await page.getByRole('button', { name: /^Actifs/ }).click();
      await expect.poll(() => column(page, 1)).toEqual(['E2E-0001']);

      await actions().click();
      await page.getByRole('menuitem', { name: 'Supprimer définitivement' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer définitivement' }).click();
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await context.close();
    });
  });

  it('shows a claim’s follow-up, and a vehicle’s and a driver’s claims with their count and total, at 1366 px', async () => {
    const { page, context } = await newPage(browser, { width: 1366, height: 900 });
    await openSinisters(page, 'user@demo.fr');
    // Every column in view, the status last.
    await expect.poll(() => table(page).getByRole('columnheader', { name: 'Statut' }).isVisible()).toBe(true);
    await screenshot(page, 'sinisters-1366');
    await table(page).getByRole('button', { name: /^Actions pour/ }).first().click();
    await page.getByRole('menuitem', { name: 'Voir' }).click();
    const details = page.getByRole('dialog');
    const followUp = details.getByRole('region', { name: 'Suivi du dossier' });
    await expect.poll(() => followUp.getByText('Provision').isVisible()).toBe(true);
    expect(await followUp.getByText('Montant réglé').isVisible()).toBe(true);
    await page.waitForTimeout(400); // the opening transition, for the screenshot only
    await expectAccessible(page);
    await screenshot(page, 'sinisters-details');
    await details.getByRole('button', { name: 'Fermer' }).first().click();

    for (const [path, name] of [['/vehicules', 'vehicules'], ['/drivers', 'drivers']] as const) {
      await page.goto(path);
      await page.getByRole('table').getByRole('button', { name: /^Actions pour/ }).first().click();
      await page.getByRole('menuitem', { name: 'Voir' }).click();
      const claims = page.getByRole('dialog').getByRole('region', { name: 'Sinistres' });
      await expect.poll(async () => (await claims.textContent())?.replace(/\s+/g, ' ') ?? '').toMatch(/^Sinistres(\d+ sinistres? · [\d ]+,\d\d € \(réglé et provisions\)|Aucun sinistre\.)/);
      await page.waitForTimeout(400);
      await expectAccessible(page);
      await screenshot(page, `${name}-details-claims`);
    }
    await context.close();
  });

  it('works at 390 px', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'user@demo.fr');
    await page.goto('/sinisters');
    await expect.poll(() => page.getByRole('list', { name: 'Liste des sinistres' }).locator('li').count()).toBeGreaterThan(0);
    await expectAccessible(page);
    await screenshot(page, 'sinisters-mobile');
    await context.close();
  });
});

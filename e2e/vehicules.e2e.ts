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

const table = (page: Page) => page.getByRole('table', { name: 'Liste des véhicules' });
const dataRows = (page: Page) => table(page).locator('tbody tr');
const column = (page: Page, index: number) =>
  dataRows(page).evaluateAll((rows, i) => rows.map((r) => r.querySelectorAll('td, th')[i]?.textContent?.trim() ?? ''), index);
const search = (page: Page) => page.getByRole('searchbox', { name: 'Rechercher un véhicule' });

async function openVehicules(page: Page, email: string, query = '') {
  await login(page, email);
  await page.goto(`/vehicules${query}`);
  await expect.poll(() => dataRows(page).count()).toBeGreaterThan(0);
}

describe('vehicules register', () => {
  it('lists, sorts, searches a plate in any spelling and filters by category, all in the URL', async () => {
    const { page, context } = await newPage(browser);
    await openVehicules(page, 'user@demo.fr');
    expect(await page.getByRole('heading', { name: 'Véhicules', level: 1 }).isVisible()).toBe(true);
    expect(await dataRows(page).count()).toBe(10);
    const plates = await column(page, 0);
    expect(plates.every((p) => /^[A-Z]{2}-\d{3}-[A-Z]{2}/.test(p))).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'vehicules');

    await table(page).getByRole('button', { name: /^Immatriculation/ }).click();
    await page.waitForURL(/sortBy=-immatriculation/);
    await expect.poll(async () => (await column(page, 0))[0]).not.toBe(plates[0]);

    // 'AB-123-CD' typed as 'ab 123': spaces, dashes and case do not matter.
    const plate = plates[0]!.slice(0, 9);
    const typed = `${plate.slice(0, 2).toLowerCase()} ${plate.slice(3, 6)}`;
    await search(page).fill(typed);
    await page.waitForURL((url) => url.searchParams.get('search') === typed);
    await expect.poll(() => column(page, 0)).toContainEqual(expect.stringContaining(plate));

    await search(page).fill('');
    await page.waitForURL((url) => !url.searchParams.has('search'));
    await page.getByRole('combobox', { name: 'Catégories' }).click();
    await page.getByRole('option', { name: /PL \(poids lourd/ }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL(/types=PL/);
    await expect.poll(async () => [...new Set(await column(page, 3))]).toEqual(['PL']);
    await screenshot(page, 'vehicules-filtered');

    // The period filter lives in the URL too: a shared link restores it.
    await page.goto('/vehicules?types=PL&start=2024-01-01&end=2024-12-31');
    await expect.poll(() => dataRows(page).count()).toBeGreaterThan(0);
    await page.reload();
    await expect.poll(() => page.getByRole('group', { name: 'Présents dans la flotte' }).innerText()).toContain('2024');
    await context.close();
  });

  describe('on a vehicle it creates', () => {
    afterEach(async () => {
      // Gone already when the test got to its permanent deletion; otherwise put the seed back.
      const api = await apiAs('admin2@demo.fr');
      await api.purge('/api/vehicule', 'ZX404QA', (vehicule) => vehicule.immatriculation === 'ZX404QA');
    });

    it('creates through a draft, refuses a duplicate plate, edits, archives with Annuler, restores and deletes', async () => {
      const { page, context } = await newPage(browser);
      await openVehicules(page, 'admin2@demo.fr');
      const add = async (plate: string) => {
        await page.getByRole('button', { name: 'Ajouter un véhicule' }).first().click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(/^Immatriculation/).fill(plate);
        await dialog.getByLabel(/^Marque/).fill('Renault');
        await dialog.getByLabel(/^Modèle/).fill('Master');
        await dialog.getByRole('combobox', { name: /^Catégorie/ }).click();
        await page.getByRole('option', { name: /^VUL/ }).click();
        await dialog.getByRole('button', { name: 'Ajouter le véhicule' }).click();
        return dialog;
      };
      await add('zx 404 qa');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      await search(page).fill('zx404');
      await expect.poll(() => column(page, 0)).toEqual([expect.stringContaining('ZX-404-QA')]);

      const duplicate = await add('ZX-404-QA');
      await expect.poll(() => duplicate.getByText(/ZX-404-QA existe déjà/).first().isVisible()).toBe(true);
      await screenshot(page, 'vehicules-duplicate');
      await duplicate.getByRole('button', { name: 'Fermer' }).click();

      await table(page).getByRole('button', { name: /^Actions pour ZX-404-QA/ }).click();
      await page.getByRole('menuitem', { name: 'Modifier' }).click();
      await page.getByRole('dialog').getByLabel(/^Modèle/).fill('Trafic');
      await page.getByRole('dialog').getByRole('button', { name: 'Enregistrer' }).click();
      await expect.poll(() => column(page, 2)).toEqual(['Trafic']);

      await table(page).getByRole('button', { name: /^Actions pour ZX-404-QA/ }).click();
      await page.getByRole('menuitem', { name: 'Archiver' }).click();
      await expect.poll(() => page.getByRole('dialog').innerText()).toMatch(/Date de sortie de la flotte[\s\S]*\d{2}\s*\/\s*\d{2}\s*\/\s*\d{4}/);
      await screenshot(page, 'vehicules-archive-dialog');
      await page.getByRole('dialog').getByRole('button', { name: 'Archiver' }).click();
      await expect.poll(() => page.getByText('Véhicule archivé').isVisible()).toBe(true);
      await expect.poll(() => dataRows(page).count()).toBe(0);
      // The archive dialog (with its own 'Annuler') is gone: this one is the snackbar's.
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      await page.getByRole('button', { name: 'Annuler' }).click();
      await expect.poll(() => column(page, 0)).toEqual([expect.stringContaining('ZX-404-QA')]);
      // Undone: still in the fleet, no exit date.
      await expect.poll(async () => (await column(page, 6))[0]).toContain('Non renseigné');

      await table(page).getByRole('button', { name: /^Actions pour ZX-404-QA/ }).click();
      await page.getByRole('menuitem', { name: 'Archiver' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Archiver' }).click();
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await page.getByRole('button', { name: /^Archivés/ }).click();
      await expect.poll(() => column(page, 0)).toEqual([expect.stringContaining('ZX-404-QA')]);
      // Archived: it left the fleet today.
      await expect.poll(async () => (await column(page, 6))[0]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
      await table(page).getByRole('button', { name: /^Actions pour ZX-404-QA/ }).click();
      await page.getByRole('menuitem', { name: 'Restaurer' }).click();
      // Back in the fleet: the restore cleared the exit date, and says so.
      await expect.poll(() => page.getByText(/ZX-404-QA figure de nouveau parmi les véhicules actifs\. Sa date de sortie \(\d{2}\/\d{2}\/\d{4}\) a été effacée\./).isVisible()).toBe(true);
      await screenshot(page, 'vehicules-restored-snackbar');
      await page.getByRole('button', { name: /^Actifs/ }).click();
      await expect.poll(() => column(page, 0)).toEqual([expect.stringContaining('ZX-404-QA')]);
      await expect.poll(async () => (await column(page, 6))[0]).toContain('Non renseigné');

      await table(page).getByRole('button', { name: /^Actions pour ZX-404-QA/ }).click();
      await page.getByRole('menuitem', { name: 'Supprimer définitivement' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer définitivement' }).click();
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await context.close();
    });
  });

  it('works at 390 px', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'user@demo.fr');
    await page.goto('/vehicules');
    await expect.poll(() => page.getByRole('list', { name: 'Liste des véhicules' }).locator('li').count()).toBeGreaterThan(0);
    await expectAccessible(page);
    await screenshot(page, 'vehicules-mobile');
    await context.close();
  });
});

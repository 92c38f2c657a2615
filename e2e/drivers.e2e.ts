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

const table = (page: Page) => page.getByRole('table', { name: 'Liste des conducteurs' });
const dataRows = (page: Page) => table(page).locator('tbody tr');
const firstCellOfRows = async (page: Page) => dataRows(page).evaluateAll((rows) => rows.map((r) => r.querySelector('td, th')?.textContent?.trim() ?? ''));

async function openDrivers(page: Page, email: string, query = '') {
  await login(page, email);
  await page.goto(`/drivers${query}`);
  await expect.poll(() => dataRows(page).count()).toBeGreaterThan(0);
}

describe('drivers register', () => {
  it('lists, sorts and searches, with everything in the URL', async () => {
    const { page, context } = await newPage(browser);
    await openDrivers(page, 'user@demo.fr');
    expect(await page.getByRole('heading', { name: 'Conducteurs', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.title()).toMatch(/^Conducteurs/);
    expect(await dataRows(page).count()).toBe(10);
    expect(await page.getByText(/1–10 sur 39/).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'drivers');

    // 'Voir' opens the details with the documents section.
    await table(page).getByRole('button', { name: /^Actions pour/ }).first().click();
    await page.getByRole('menuitem', { name: 'Voir' }).click();
    const details = page.getByRole('dialog');
    await expect.poll(() => details.getByText('Aucun document').isVisible()).toBe(true);
    expect(await details.getByText('Téléphone').isVisible()).toBe(true);
    await page.waitForTimeout(400); // let the opening transition end, for the screenshot only
    await screenshot(page, 'drivers-details');
    await details.getByRole('button', { name: 'Fermer' }).first().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Sort: the Nom header toggles descending; the URL says so.
    const ascending = await firstCellOfRows(page);
    await table(page).getByRole('button', { name: /^Nom/ }).click();
    await page.waitForURL(/sortBy=-lastName/);
    await expect.poll(async () => (await firstCellOfRows(page))[0]).not.toBe(ascending[0]);
    const descending = await firstCellOfRows(page);
    expect(descending[0]!.localeCompare(ascending[0]!, 'fr')).toBeGreaterThan(0);

    // Page 2, then a search resets to page 1.
    await page.getByRole('button', { name: /page suivante/i }).click();
    await page.waitForURL(/page=2/);
    const name = ascending[0]!;
    await page.getByRole('searchbox', { name: 'Rechercher un conducteur' }).fill(name.slice(0, 4).toLowerCase());
    await page.waitForURL((url) => url.searchParams.get('search') === name.slice(0, 4).toLowerCase() && !url.searchParams.has('page'));
    await expect.poll(async () => (await firstCellOfRows(page)).every((cell) => cell.toLowerCase().includes(name.slice(0, 4).toLowerCase()))).toBe(true);

    // The URL round trip: reload and a shared link restore the same view.
    const url = page.url();
    await page.reload();
    await expect.poll(() => page.getByRole('searchbox', { name: 'Rechercher un conducteur' }).inputValue()).toBe(name.slice(0, 4).toLowerCase());
    const other = await newPage(browser);
    await login(other.page, 'user@demo.fr');
    await other.page.goto(url.replace(/^https?:\/\/[^/]+/, ''));
    await expect.poll(() => other.page.getByRole('searchbox', { name: 'Rechercher un conducteur' }).inputValue()).toBe(name.slice(0, 4).toLowerCase());
    await other.context.close();
    // Back returns to the unfiltered, sorted view.
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has('search'));
    await context.close();
  });

  describe('on a driver it creates', () => {
    afterEach(async () => {
      // Gone already when the test got to its permanent deletion; otherwise put the seed back.
      const api = await apiAs('admin2@demo.fr');
      await api.purge('/api/driver', 'zebulon', (driver) => driver.lastName === 'Zébulon');
    });

    it('creates, edits, archives with Annuler, restores and deletes permanently', async () => {
      const { page, context } = await newPage(browser);
      await openDrivers(page, 'admin2@demo.fr');
      await page.getByRole('button', { name: 'Ajouter un conducteur' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Ajouter le conducteur' }).click();
      await expect.poll(() => dialog.getByText('Le prénom est obligatoire').isVisible()).toBe(true);
      await dialog.getByLabel(/^Prénom/).fill('Lucie');
      await dialog.getByLabel(/^Nom/).fill('Zébulon');
      await dialog.getByLabel(/^Téléphone/).fill('06 11 22 33 44');
      await dialog.getByRole('button', { name: 'Ajouter le conducteur' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

      await page.getByRole('searchbox', { name: 'Rechercher un conducteur' }).fill('zebulon');
      await expect.poll(() => firstCellOfRows(page)).toEqual(['Zébulon']);
      expect(await table(page).getByText('06 11 22 33 44').isVisible()).toBe(true);

      await table(page).getByRole('button', { name: 'Actions pour Lucie Zébulon' }).click();
      await page.getByRole('menuitem', { name: 'Modifier' }).click();
      await page.getByRole('dialog').getByLabel(/^E-mail/).fill('lucie.zebulon@btp-durand.fr');
      await page.getByRole('dialog').getByRole('button', { name: 'Enregistrer' }).click();
      await expect.poll(() => table(page).getByText('lucie.zebulon@btp-durand.fr').isVisible()).toBe(true);

      // Archive, then 'Annuler' in the snackbar puts it back.
      await table(page).getByRole('button', { name: 'Actions pour Lucie Zébulon' }).click();
      await page.getByRole('menuitem', { name: 'Archiver' }).click();
      await expect.poll(() => page.getByText('Conducteur archivé').isVisible()).toBe(true);
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await screenshot(page, 'drivers-archived-snackbar');
      await page.getByRole('button', { name: 'Annuler' }).click();
      await expect.poll(() => firstCellOfRows(page)).toEqual(['Zébulon']);

      // Archive for good, find it among the archived, restore it.
      await table(page).getByRole('button', { name: 'Actions pour Lucie Zébulon' }).click();
      await page.getByRole('menuitem', { name: 'Archiver' }).click();
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await page.getByRole('button', { name: /^Archivés/ }).click();
      await page.waitForURL(/archived=only/);
      await expect.poll(() => firstCellOfRows(page)).toEqual(['Zébulon']);
      await table(page).getByRole('button', { name: 'Actions pour Lucie Zébulon' }).click();
      await page.getByRole('menuitem', { name: 'Restaurer' }).click();
      await page.getByRole('button', { name: /^Actifs/ }).click();
      await expect.poll(() => firstCellOfRows(page)).toEqual(['Zébulon']);

      // Permanent deletion asks first, naming the driver.
      await table(page).getByRole('button', { name: 'Actions pour Lucie Zébulon' }).click();
      await page.getByRole('menuitem', { name: 'Supprimer définitivement' }).click();
      const confirm = page.getByRole('alertdialog');
      await expect.poll(() => confirm.getByText(/Supprimer définitivement Lucie Zébulon\s?\?/).isVisible()).toBe(true);
      // A new driver: no claim refers to it.
      await expect.poll(() => confirm.getByText('Aucun sinistre ne fait référence à ce conducteur.').isVisible()).toBe(true);
      await screenshot(page, 'drivers-confirm-delete');
      await confirm.getByRole('button', { name: 'Supprimer définitivement' }).click();
      await expect.poll(() => dataRows(page).count()).toBe(0);
      await expect.poll(() => page.getByText(/Aucun résultat pour « zebulon »/).isVisible()).toBe(true);
      await context.close();
    });
  });

  describe('a driver that exists already (issue 13)', () => {
    afterEach(async () => {
      const api = await apiAs('admin2@demo.fr');
      await api.purge('/api/driver', 'doublon', (driver) => driver.lastName === 'Doublon');
    });

    for (const viewport of [
      { name: 'desktop', width: 1366, height: 768 },
      { name: 'mobile', width: 390, height: 844 },
    ]) {
      it(`asks before creating a second one, at ${viewport.width} px`, async () => {
        const api = await apiAs('admin2@demo.fr');
        await api.call('POST', '/api/driver', { firstName: 'Gaëlle', lastName: 'Doublon', email: 'gaelle.doublon@btp-durand.fr' });
        const { page, context } = await newPage(browser, { width: viewport.width, height: viewport.height });
        await login(page, 'admin2@demo.fr');
        await page.goto('/drivers');
        await page.getByRole('button', { name: 'Ajouter un conducteur' }).first().click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(/^Prénom/).fill('Gaelle');
        await dialog.getByLabel(/^Nom/).fill('Doublon');
        await dialog.getByLabel(/^E-mail/).fill('Gaelle.Doublon@btp-durand.fr');
        await dialog.getByRole('button', { name: 'Ajouter le conducteur' }).click();
        const ask = page.getByRole('alertdialog', { name: 'Ce conducteur existe peut-être déjà' });
        await expect.poll(() => ask.getByText('Un conducteur avec cette adresse e-mail existe déjà : Gaëlle Doublon. Voulez-vous quand même en créer un second ?').isVisible()).toBe(true);
        await page.waitForTimeout(400); // the opening transition, for the screenshot only
        await expectAccessible(page);
        await screenshot(page, `drivers-duplicate-${viewport.name}`);
        await ask.getByRole('button', { name: 'Créer quand même' }).click();
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
        const found = (await api.call('GET', '/api/driver?search=doublon')) as { total: number };
        expect(found.total).toBe(2);
        await context.close();
      });
    }
  });

  it('gives a plain user no permanent deletion, and works at 390 px', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'user@demo.fr');
    await page.goto('/drivers');
    await expect.poll(() => page.getByRole('list', { name: 'Liste des conducteurs' }).locator('li').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: /^Actions pour/ }).first().click();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Archiver' }).isVisible()).toBe(true);
    expect(await page.getByRole('menuitem', { name: 'Supprimer définitivement' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expectAccessible(page);
    await screenshot(page, 'drivers-mobile');
    await context.close();
  });
});

import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// The 'Exporter' menu of a register (decision 0XX-exports), on /vehicules: the file downloaded is
// the list's current view (its search and sort), every row of it, as the API lists them.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Vehicule = { immatriculation: string; brand: string | null; model: string | null };
const dataRows = (page: Page) => page.getByRole('table', { name: 'Liste des véhicules' }).locator('tbody tr');
const shownPlate = (plate: string) => (/^[A-Z]{2}\d{3}[A-Z]{2}$/.test(plate) ? `${plate.slice(0, 2)}-${plate.slice(2, 5)}-${plate.slice(5)}` : plate);

async function openFiltered(page: Page, query: string, phone = false) {
  await login(page, 'user@demo.fr');
  await page.goto(`/vehicules?${query}`);
  // A table on a desktop, cards on a phone.
  if (phone) await expect.poll(() => page.getByText(/^[A-Z]{2}-\d{3}-[A-Z]{2}$/).first().isVisible()).toBe(true);
  else await expect.poll(() => dataRows(page).count()).toBeGreaterThan(0);
}

/** The menu at the end of its fade-in: what the screenshot shows. */
async function menuShown(page: Page) {
  await page.waitForFunction(() => {
    const paper = document.querySelector('[role="menu"]')?.closest('.MuiPaper-root');
    return paper !== null && paper !== undefined && getComputedStyle(paper).opacity === '1';
  });
}

async function choose(page: Page, label: string) {
  await page.getByRole('button', { name: 'Exporter' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: new RegExp(`^${label}`) }).click()]);
  return download;
}

describe('export of a register', () => {
  it('downloads the filtered and sorted view as CSV, then as Excel', async () => {
    const { context, page, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await openFiltered(page, 'search=renault&sortBy=-immatriculation');
    const api = await apiAs('user@demo.fr');
    const expected = ((await api.call('GET', '/api/vehicule?search=renault&sortBy=-immatriculation&limit=1000')) as { data: Vehicule[] }).data;
    expect(expected.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Exporter' }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: /^CSV/ }).isVisible()).toBe(true);
    await expectAccessible(page);
    await menuShown(page);
    await screenshot(page, 'export-menu-1366');
    await page.keyboard.press('Escape');

    const csv = await choose(page, 'CSV');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    expect(csv.suggestedFilename()).toBe(`vehicules-${today}.csv`);
    const text = (await readFile((await csv.path())!)).toString('utf8');
    expect(text.startsWith('\uFEFFImmatriculation;Marque;Modèle;Catégorie;')).toBe(true);
    const lines = text.split('\r\n').slice(1, -1);
    expect(lines.map((line) => line.split(';')[0])).toEqual(expected.map((v) => shownPlate(v.immatriculation)));
    expect(lines.every((line) => line.split(';')[1] === 'Renault' || line.toLowerCase().includes('renault'))).toBe(true);
    await expect.poll(() => page.getByText('Export terminé').isVisible()).toBe(true);

    const xlsx = await choose(page, 'Excel');
    expect(xlsx.suggestedFilename()).toBe(`vehicules-${today}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile((await xlsx.path())!)) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(expected.length + 1);
    expect(sheet.getCell('A2').value).toBe(shownPlate(expected[0]!.immatriculation));
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('on a phone, the menu opens under the toolbar; a refusal says why in French', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await openFiltered(page, 'sortBy=brand', true);
    await page.getByRole('button', { name: 'Exporter' }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: /^Excel/ }).isVisible()).toBe(true);
    await menuShown(page);
    await screenshot(page, 'export-menu-390');
    await page.keyboard.press('Escape');
    await page.route('**/api/vehicule/export*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', json: { statusCode: 503, error: 'Service Unavailable', message: 'Le service est momentanément surchargé. Réessayez dans quelques instants.' } }),
    );
    await page.getByRole('button', { name: 'Exporter' }).click();
    await page.getByRole('menuitem', { name: /^CSV/ }).click();
    await expect.poll(() => page.getByText('Le service est momentanément surchargé. Réessayez dans quelques instants.').isVisible()).toBe(true);
    await context.close();
  });

  it.each([
    ['drivers', 'Conducteurs'],
    ['sinisters', 'Sinistres'],
  ])('/%s offers the same menu, on a desktop and on a phone', async (path, title) => {
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      const { context, page, consoleErrors } = await newPage(browser, { width, height });
      await login(page, 'user@demo.fr');
      await page.goto(`/${path}`);
      await expect.poll(() => page.getByRole('heading', { name: title, level: 1 }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Exporter' }).click();
      await expect.poll(() => page.getByRole('menuitem', { name: /^Excel/ }).isVisible()).toBe(true);
      await menuShown(page);
      await screenshot(page, `export-menu-${path}-${width}`);
      expect(consoleErrors).toEqual([]);
      await context.close();
    }
  });
});

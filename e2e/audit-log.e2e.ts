import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot, SCREENSHOTS } from './support/browser.js';

// The activity log (issue 16, decision 041): Transports Martin's administrator (admin@demo.fr,
// Julien Martin) archives a vehicle this file creates, then reads on /parameters who archived it.
// The vehicle is the file's own (its plate no other file uses) and is deleted at the end.

const PLATE = 'JA-041-AD';
const STORED = 'JA041AD';
let browser: Browser;
let admin: Awaited<ReturnType<typeof apiAs>>;

const journal = (page: Page) => page.getByRole('region', { name: 'Journal d’activité' });

async function openJournal(page: Page) {
  await page.goto('/parameters#journal');
  const section = journal(page);
  await expect.poll(() => section.count(), { timeout: 15_000 }).toBe(1);
  await section.scrollIntoViewIfNeeded();
  await section.getByRole('searchbox', { name: 'Rechercher' }).fill(PLATE);
  return section;
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiAs('admin@demo.fr');
  await admin.purge('/api/vehicule', STORED, (v) => v.immatriculation === STORED);
  await admin.call('POST', '/api/vehicule', { immatriculation: PLATE, brand: 'Iveco', model: 'Daily', type: 'VUL', entryDate: '2023-01-01' });
});
afterAll(async () => {
  await admin?.purge('/api/vehicule', STORED, (v) => v.immatriculation === STORED);
  await browser?.close();
});

describe('the activity log', () => {
  it('an administrator archives a vehicle, then reads in the journal who archived it', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin@demo.fr');
    await page.goto(`/vehicules?search=${STORED}`);
    const table = page.getByRole('table', { name: 'Liste des véhicules' });
    await table.getByRole('button', { name: new RegExp(`^Actions pour ${PLATE}`) }).click();
    await page.getByRole('menuitem', { name: 'Archiver' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archiver' }).click();
    await expect.poll(() => page.getByText('Véhicule archivé').isVisible()).toBe(true);

    const section = await openJournal(page);
    const rows = section.getByRole('table', { name: 'Journal d’activité' }).locator('tbody tr');
    // Newest first: the archiving by Julien Martin, then the creation (the API call of this file).
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const archived = rows.nth(0);
    await expect.poll(async () => (await archived.innerText()).replace(/\s+/g, ' ')).toMatch(/Julien Martin Administrateur Archivage Véhicule JA-041-AD/);
    await expect.poll(() => archived.innerText()).toMatch(/Sortie\s:\s\(vide\) → \d{2}\/\d{2}\/\d{4}/);
    await expect.poll(() => rows.nth(1).innerText()).toMatch(/Création[\s\S]*Marque\s:\sIveco/);
    await expectAccessible(page);
    await screenshot(page, 'audit-log-1366');
    await section.screenshot({ path: path.join(SCREENSHOTS, 'audit-log-section-1366.png') });

    // Filtered by its kind and its author, it is still there; another kind shows nothing.
    await section.getByRole('combobox', { name: 'Élément' }).click();
    await page.getByRole('option', { name: 'Conducteur' }).click();
    await expect.poll(() => section.getByText('Aucune écriture ne correspond à ces filtres.').count()).toBe(1);
    await section.getByRole('combobox', { name: 'Élément' }).click();
    await page.getByRole('option', { name: 'Véhicule' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it('reads well on a phone: one card per entry', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'admin@demo.fr');
    const section = await openJournal(page);
    const cards = section.getByRole('list', { name: 'Journal d’activité' }).locator(':scope > li');
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(async () => (await cards.nth(0).innerText()).replace(/\s+/g, ' ')).toMatch(/Julien Martin.*Archivage.*JA-041-AD/);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await section.screenshot({ path: path.join(SCREENSHOTS, 'audit-log-section-390.png') });
    await screenshot(page, 'audit-log-390');
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 120_000);
});

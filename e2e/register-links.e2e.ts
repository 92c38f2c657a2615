import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { launchBrowser, login, newPage, screenshot } from './support/browser.js';

// What one register's writes do to another's screens, moving inside the app as a user does
// (the sidebar, never a reload): the web's query cache must follow the writes.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PLATE = 'ZX-505-QB';
const REF = 'E2E-ZX505';

const sidebar = (page: Page, name: string) => page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name, exact: true });
const rows = (page: Page, table: string) => page.getByRole('table', { name: table }).locator('tbody tr');
const cells = (page: Page, table: string, index: number) =>
  rows(page, table).evaluateAll((all, i) => all.map((r) => (r.querySelectorAll('td, th')[i]?.textContent ?? '').trim()), index);

async function openClaimForm(page: Page) {
  await page.getByRole('button', { name: 'Déclarer un sinistre' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Déclarer un sinistre' });
  await dialog.getByRole('combobox', { name: /^Véhicule/ }).click();
  return dialog;
}

describe('a vehicle and its claims', () => {
  afterEach(async () => {
    // Puts the seed back, whether the test got to the end or not.
    const api = await apiAs('admin2@demo.fr');
    await api.purge('/api/sinister', REF, (sinister) => sinister.sinisterIntermediateRef === REF);
    await api.purge('/api/vehicule', 'ZX505QB', (vehicule) => vehicule.immatriculation === 'ZX505QB');
  });

  it('offers a new vehicle in the claim form at once, counts its claims before a permanent deletion, and keeps them', async () => {
    const { page, context } = await newPage(browser);
    await login(page, 'admin2@demo.fr');

    // The claim form's vehicle choices are loaded (and cached) before the vehicle exists.
    await sidebar(page, 'Sinistres').click();
    let dialog = await openClaimForm(page);
    await expect.poll(() => page.getByRole('option').count()).toBeGreaterThan(0);
    expect(await page.getByRole('option', { name: new RegExp(PLATE) }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Fermer' }).click();

    await sidebar(page, 'Véhicules').click();
    await page.getByRole('button', { name: 'Ajouter un véhicule' }).first().click();
    const form = page.getByRole('dialog', { name: 'Ajouter un véhicule' });
    await form.getByLabel(/^Immatriculation/).fill(PLATE);
    await form.getByLabel(/^Marque/).fill('Renault');
    await form.getByLabel(/^Modèle/).fill('Master');
    await form.getByRole('combobox', { name: /^Catégorie/ }).click();
    await page.getByRole('option', { name: /^VUL/ }).click();
    await form.getByRole('button', { name: 'Ajouter le véhicule' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Without a reload, the new vehicle is among the choices.
    await sidebar(page, 'Sinistres').click();
    dialog = await openClaimForm(page);
    await dialog.getByRole('combobox', { name: /^Véhicule/ }).fill('zx505');
    await page.getByRole('option', { name: `${PLATE} · Renault Master` }).click();
    await dialog.getByLabel(/^N° de sinistre/).fill(REF);
    await dialog.getByRole('button', { name: 'Enregistrer le sinistre' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Its permanent deletion says what becomes of the claim.
    await sidebar(page, 'Véhicules').click();
    await page.getByRole('searchbox', { name: 'Rechercher un véhicule' }).fill('zx505');
    await expect.poll(() => cells(page, 'Liste des véhicules', 0)).toEqual([expect.stringContaining(PLATE)]);
    await page.getByRole('button', { name: `Actions pour ${PLATE}` }).click();
    await page.getByRole('menuitem', { name: 'Supprimer définitivement' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Supprimer définitivement le véhicule ${PLATE} ?` });
    await expect
      .poll(() => confirm.getByText('1 sinistre fait référence à ce véhicule : il est conservé, sans lien vers lui (son immatriculation reste inscrite).').isVisible())
      .toBe(true);
    await page.waitForTimeout(300); // the opening transition, for the screenshot only
    await screenshot(page, 'vehicules-confirm-delete');
    await confirm.getByRole('button', { name: 'Supprimer définitivement' }).click();
    await expect.poll(() => page.getByText('Véhicule supprimé définitivement').isVisible()).toBe(true);

    // The claim stays, with the plate it was declared with.
    await sidebar(page, 'Sinistres').click();
    await page.getByRole('searchbox', { name: 'Rechercher un sinistre' }).fill(REF.toLowerCase());
    await expect.poll(() => cells(page, 'Liste des sinistres', 1)).toEqual([REF]);
    expect((await cells(page, 'Liste des sinistres', 2))[0]).toBe(PLATE);
    await context.close();
  });
});

describe('a list the app holds', () => {
  it('is asked again with its ETag once stale, and kept as it is on the 304', async () => {
    const { page, context } = await newPage(browser);
    // The page's clock, to move past the list's freshness without waiting for it.
    await page.clock.install();
    await login(page, 'admin2@demo.fr');
    const answers: { ifNoneMatch: string | null; status: number; etag: string | null }[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname !== '/api/sinister' || response.request().method() !== 'GET') return;
      answers.push({ ifNoneMatch: response.request().headers()['if-none-match'] ?? null, status: response.status(), etag: response.headers().etag ?? null });
    });
    await sidebar(page, 'Sinistres').click();
    await expect.poll(() => rows(page, 'Liste des sinistres').count()).toBeGreaterThan(0);
    const shown = await cells(page, 'Liste des sinistres', 0);
    expect(answers).toEqual([{ ifNoneMatch: null, status: 200, etag: expect.any(String) }]);

    // Elsewhere past the list's 30 s of freshness, then back: asked again with the ETag held.
    await sidebar(page, 'Véhicules').click();
    await page.clock.fastForward(31_000);
    await sidebar(page, 'Sinistres').click();
    await expect.poll(() => answers.length).toBe(2);
    expect(answers[1]).toEqual({ ifNoneMatch: answers[0]!.etag, status: 304, etag: answers[0]!.etag });
    await expect.poll(() => cells(page, 'Liste des sinistres', 0)).toEqual(shown);
    await context.close();
  });
});


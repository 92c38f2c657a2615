import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, inBatches } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// A fleet larger than the claim form's first page of choices (CHOICES_LIMIT): every vehicle can
// still be chosen, by typing part of its plate, and a claim on a vehicle far down the list shows
// it when edited (issue 22).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const EMAIL = 'admin2@demo.fr';
/** The contract's CHOICES_LIMIT: the choices a form loads at once. */
const CHOICES_LIMIT = 200;
const COUNT = CHOICES_LIMIT + 10;
/** QX-100-EZ … QX-309-EZ: the last ones sort beyond the first page of choices. */
const plate = (i: number) => `QX-${100 + i}-EZ`;
const OURS = /^QX\d{3}EZ$/;
const FAR = plate(COUNT - 1);
const FAR_LABEL = `${FAR} · Renault Trafic`;
const REF = 'E2E-QX-FAR';

const sidebar = (page: Page, name: string) => page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name, exact: true });

async function openCreateForm(page: Page) {
  await sidebar(page, 'Sinistres').click();
  await page.getByRole('button', { name: 'Déclarer un sinistre' }).first().click();
  return page.getByRole('dialog', { name: 'Déclarer un sinistre' });
}

async function openEditForm(page: Page) {
  await sidebar(page, 'Sinistres').click();
  await page.getByRole('searchbox', { name: 'Rechercher un sinistre' }).fill(REF.toLowerCase());
  const actions = page.getByRole('button', { name: new RegExp(`^Actions pour ${FAR}`) }).first();
  await expect.poll(() => actions.count()).toBe(1);
  await actions.click();
  await page.getByRole('menuitem', { name: 'Modifier' }).click();
  return page.getByRole('dialog', { name: 'Modifier le sinistre' });
}

describe('the claim form in a fleet of more than CHOICES_LIMIT vehicles', () => {
  beforeAll(async () => {
    const api = await apiAs(EMAIL);
    // A leftover of an interrupted run would make the creations conflict.
    await api.purge('/api/vehicule', 'QX', (vehicule) => OURS.test(String(vehicule.immatriculation)));
    await inBatches(
      Array.from({ length: COUNT }, (_, i) => i),
      (i) => api.call('POST', '/api/vehicule', { immatriculation: plate(i), brand: i === COUNT - 1 ? 'Renault' : 'Iveco', model: i === COUNT - 1 ? 'Trafic' : 'Daily', type: 'VUL' }),
    );
    // The vehicle is beyond the first page of choices the form loads.
    const first = (await api.call('GET', `/api/vehicule/choices?page=1&limit=${CHOICES_LIMIT}&sortBy=immatriculation`)) as { total: number; data: { immatriculation: string }[] };
    expect(first.total).toBeGreaterThan(CHOICES_LIMIT);
    expect(first.data.map((v) => v.immatriculation)).not.toContain(FAR.replace(/-/g, ''));
  });
  afterEach(async () => {
    const api = await apiAs(EMAIL);
    await api.purge('/api/sinister', REF, (sinister) => sinister.sinisterIntermediateRef === REF);
  });
  afterAll(async () => {
    // Puts the seed back, whether the tests got to the end or not.
    const api = await apiAs(EMAIL);
    await api.purge('/api/sinister', REF, (sinister) => sinister.sinisterIntermediateRef === REF);
    await api.purge('/api/vehicule', 'QX', (vehicule) => OURS.test(String(vehicule.immatriculation)));
  });

  it('finds a vehicle beyond the first page by part of its plate, and shows it when the claim is edited', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, EMAIL);
    let dialog = await openCreateForm(page);
    const vehicule = dialog.getByRole('combobox', { name: /^Véhicule/ });
    await vehicule.click();
    // Too many to list: the field asks to type.
    await expect.poll(() => page.getByText(/^Tapez pour rechercher parmi les \d[\d\s]* véhicules…$/).isVisible()).toBe(true);
    await screenshot(page, 'claim-choices-type-to-search');
    // A brand most of the fleet shares: more found than offered, the list says so.
    await vehicule.fill('iveco');
    await expect.poll(() => page.getByText(/^Seuls les 200 premiers des \d[\d\s]* véhicules trouvés sont proposés : précisez la recherche\.$/).isVisible()).toBe(true);
    await screenshot(page, 'claim-choices-more-found');
    // Part of the plate, as a fleet manager reads it off the vehicle, without the dashes.
    await vehicule.fill(`qx${FAR.slice(3, 6)}`);
    await page.getByRole('option', { name: FAR_LABEL }).click();
    await expect.poll(() => vehicule.inputValue()).toBe(FAR_LABEL);
    await dialog.getByRole('combobox', { name: /^Conducteur/ }).click();
    const driver = page.getByRole('option').first();
    const driverName = (await driver.textContent())!;
    await driver.click();
    await dialog.getByLabel(/^N° de sinistre/).fill(REF);
    await dialog.getByLabel(/^Ville/).fill('Chambéry');
    await expectAccessible(page);
    await screenshot(page, 'claim-choices-create');
    await dialog.getByRole('button', { name: 'Enregistrer le sinistre' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    dialog = await openEditForm(page);
    await expect.poll(() => dialog.getByRole('combobox', { name: /^Véhicule/ }).inputValue()).toBe(FAR_LABEL);
    expect(await dialog.getByRole('combobox', { name: /^Conducteur/ }).inputValue()).toBe(driverName);
    await page.waitForTimeout(300); // the opening transition, for the screenshot only
    await screenshot(page, 'claim-choices-edit');
    // Saved as it is: the claim keeps its vehicle.
    await dialog.getByLabel(/^Ville/).fill('Annecy');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const api = await apiAs(EMAIL);
    const saved = (await api.call('GET', `/api/sinister?search=${REF}&startDate=2000-01-01`)) as { data: { city: string; vehicule: { immatriculation: string } }[] };
    expect(saved.data).toEqual([expect.objectContaining({ city: 'Annecy', vehicule: expect.objectContaining({ immatriculation: FAR.replace(/-/g, '') }) })]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('works at 390 px: the claim created on a far vehicle shows it when edited', async () => {
    const api = await apiAs(EMAIL);
    const far = (await api.call('GET', `/api/vehicule/choices?search=${FAR}`)) as { data: { uuid: string }[] };
    await api.call('POST', '/api/sinister', { vehicule: far.data[0]!.uuid, sinisterDate: new Date().toISOString().slice(0, 10), sinisterIntermediateRef: REF });

    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, EMAIL);
    await page.goto('/sinisters');
    await page.getByRole('button', { name: 'Déclarer un sinistre' }).first().click();
    let dialog = page.getByRole('dialog', { name: 'Déclarer un sinistre' });
    const vehicule = dialog.getByRole('combobox', { name: /^Véhicule/ });
    await vehicule.click();
    await vehicule.fill(FAR.slice(0, 6).toLowerCase());
    await expect.poll(() => page.getByRole('option', { name: FAR_LABEL }).isVisible()).toBe(true);
    await screenshot(page, 'claim-choices-create-mobile');
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Fermer' }).click();

    await page.getByRole('searchbox', { name: 'Rechercher un sinistre' }).fill(REF.toLowerCase());
    const actions = page.getByRole('button', { name: new RegExp(`^Actions pour ${FAR}`) }).first();
    await expect.poll(() => actions.count()).toBe(1);
    await actions.click();
    await page.getByRole('menuitem', { name: 'Modifier' }).click();
    dialog = page.getByRole('dialog', { name: 'Modifier le sinistre' });
    await expect.poll(() => dialog.getByRole('combobox', { name: /^Véhicule/ }).inputValue()).toBe(FAR_LABEL);
    await page.waitForTimeout(300);
    await screenshot(page, 'claim-choices-edit-mobile');
    await expectAccessible(page);
    await context.close();
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { drawnPng, expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// /superadmin/settings as courtier@demo.fr (Cabinet Réglages), whose environment, card and digest
// choice change here; its client client@demo.fr (Garage Réglages) reads the card in « Aide et
// support ». No other e2e file uses these two accounts or that environment.
const BROKER = 'courtier@demo.fr';
const CLIENT = 'client@demo.fr';
const BOOKING = 'https://agenda.cabinet-reglages.fr/rdv-30-minutes';
const DESCRIPTION = 'Votre courtier flottes : sinistres, renouvellements, prévention. Du lundi au vendredi.';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A 600 × 600 photo drawn by the browser: green, a white square in the middle. */
const photo = (page: Page) =>
  drawnPng(page, 600, 600, [
    { fill: '#2e7d32', rect: [0, 0, 600, 600] },
    { fill: '#ffffff', rect: [200, 200, 200, 200] },
  ]);

describe('Paramètres du superadmin', () => {
  it('edits the booking link and the card; the client sees the card in « Aide et support »', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, BROKER);
    // From here on, no error in the console (the dashboard it lands on, of a client without any period, answers a 404 of its own).
    await page.waitForLoadState('networkidle');
    const earlier = consoleErrors.length;
    await page.locator('a[href="/superadmin/settings"]').click();
    await page.waitForURL('**/superadmin/settings');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Paramètres' }).isVisible()).toBe(true);
    const environment = page.getByRole('region', { name: 'Environnement' });
    await expect.poll(() => environment.getByLabel(/^Nom de l’environnement/).inputValue()).toBe('Cabinet Réglages');

    // The booking link: an http address is refused in French, an https one saved.
    const booking = environment.getByLabel(/^Lien de prise de rendez-vous/);
    await booking.fill('http://agenda.cabinet-reglages.fr');
    await environment.getByRole('button', { name: 'Enregistrer' }).click();
    await environment.getByText('Lien de prise de rendez-vous invalide : une adresse https://… est attendue').waitFor();
    await booking.fill(BOOKING);
    await environment.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Paramètres enregistrés').waitFor();

    // The card: description and phone through the account's form, a photo through its crop dialog.
    const card = page.getByRole('region', { name: 'Votre carte' });
    await card.getByLabel(/^Description/).fill(DESCRIPTION);
    await card.getByLabel(/^Téléphone/).fill('06 11 22 33 44');
    await card.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Profil mis à jour').waitFor();
    const preview = card.getByTestId('apercu-carte');
    await expect.poll(() => preview.innerText()).toContain(DESCRIPTION);
    expect(await preview.innerText()).toContain('06 11 22 33 44');
    const chooser = page.waitForEvent('filechooser');
    await card.getByRole('button', { name: 'Choisir une photo' }).click();
    await (await chooser).setFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: await photo(page) });
    const dialog = page.getByRole('dialog', { name: 'Recadrer la photo' });
    await dialog.getByRole('button', { name: 'Enregistrer la photo' }).click();
    await page.getByText('Photo enregistrée').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => preview.locator('img').getAttribute('src')).toMatch(/^\/api\/user\/[\w-]+\/avatar\/[\w-]+$/);

    // Two-factor sign-in cannot be required before the broker uses it: the page says why.
    const security = page.getByRole('region', { name: 'Sécurité des superadmins' });
    const requirement = security.getByRole('switch', { name: 'Double authentification obligatoire pour les superadmins' });
    await requirement.waitFor();
    expect(await requirement.isDisabled()).toBe(true);
    expect(await security.getByText(/Activez-la d’abord sur votre propre compte/).isVisible()).toBe(true);

    // The daily digest: turned off for this broker.
    const digest = page.getByRole('region', { name: 'Récapitulatif quotidien des alertes' }).getByRole('switch');
    await expect.poll(() => digest.isChecked()).toBe(true);
    await digest.click();
    await page.getByText('Récapitulatif désactivé').waitFor();

    await page.reload();
    await expect.poll(() => page.getByRole('region', { name: 'Environnement' }).getByLabel(/^Lien de prise de rendez-vous/).inputValue()).toBe(BOOKING);
    await expect.poll(() => page.getByRole('region', { name: 'Récapitulatif quotidien des alertes' }).getByRole('switch').isChecked()).toBe(false);
    await expectAccessible(page);
    await screenshot(page, 'superadmin-settings');
    const api = await apiAs(BROKER);
    const saved = await api.call('GET', '/api/environment/current');
    expect(saved).toMatchObject({ title: 'Cabinet Réglages', bookingUrl: BOOKING, requireSuperadminTotp: false });
    // The refused http link is checked in the browser: no 400 either.
    expect(consoleErrors.slice(earlier)).toEqual([]);
    await context.close();
  });

  it('reads well on a phone (390 px)', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, BROKER);
    await page.goto('/superadmin/settings');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Paramètres' }).isVisible()).toBe(true);
    await page.getByRole('region', { name: 'Récapitulatif quotidien des alertes' }).getByRole('switch').waitFor();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, 'superadmin-settings-390');
    await context.close();
  });

  it('shows the client the broker’s card as edited, in « Aide et support »', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, CLIENT);
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Aide et support' }).click();
    const help = page.getByRole('dialog', { name: 'Aide et support' });
    await expect.poll(() => help.getByText('Bruno Carré').isVisible()).toBe(true);
    expect(await help.getByText(DESCRIPTION).isVisible()).toBe(true);
    expect(await help.getByRole('link', { name: /06 11 22 33 44/ }).getAttribute('href')).toBe('tel:+33611223344');
    await expect.poll(() => help.locator('img').first().getAttribute('src')).toMatch(/^\/api\/user\/[\w-]+\/avatar\/[\w-]+$/);
    // SPEC section 2: with a superadmin to answer, its card, not the booking choice.
    expect(await help.getByRole('link', { name: /Prendre un rendez-vous/ }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'superadmin-settings-client-help');
    await context.close();
  });
});

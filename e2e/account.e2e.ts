import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, drawnPng, expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';
import { mailMark, waitForMail } from './support/mailbox.js';

// user3@demo.fr (Julien Roux) is used by no other e2e file: its names, photo and e-mail address
// change here for the rest of the run, and its sessions end.
const ACCOUNT = 'user3@demo.fr';
const NEW_ADDRESS = 'julien.roux@demo.fr';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A 900 × 600 photo, drawn by the browser: a blue band on the left, orange elsewhere. */
const photo = (page: Page) =>
  drawnPng(page, 900, 600, [
    { fill: '#e07020', rect: [0, 0, 900, 600] },
    { fill: '#1f5fbf', rect: [0, 0, 300, 600] },
  ]);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('« Paramètres compte », end to end', () => {
  it('edits names and phone, crops and sends a photo, changes the address through the e-mail received, and closes another session', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, ACCOUNT);
    await page.getByRole('button', { name: /Julien Roux/ }).click();
    await page.getByRole('menuitem', { name: 'Paramètres compte' }).click();
    await page.waitForURL('**/account');
    await page.getByRole('heading', { level: 1, name: 'Paramètres compte' }).waitFor();
    // The organization's name shows in the sidebar and in the account's organizations.
    await page.getByText('Transports Martin').first().waitFor();

    // Names and phone.
    await page.getByLabel(/^Prénom/).fill('Julien-Pierre');
    await page.getByLabel(/^Téléphone/).fill('06 55 44 33 22');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Profil mis à jour').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel(/^Prénom/).inputValue()).toBe('Julien-Pierre');
    expect(await page.getByLabel(/^Téléphone/).inputValue()).toBe('06 55 44 33 22');

    // The photo: chosen, cropped square in the dialog (drag and zoom), sent, shown in the menu.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choisir une photo' }).click();
    await (await chooser).setFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: await photo(page) });
    const dialog = page.getByRole('dialog', { name: 'Recadrer la photo' });
    await dialog.waitFor();
    const canvas = dialog.getByRole('img', { name: /Aperçu du recadrage/ });
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await dialog.getByRole('slider', { name: 'Zoom' }).focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    expect(Number(await dialog.getByRole('slider', { name: 'Zoom' }).getAttribute('aria-valuenow'))).toBeGreaterThan(1.4);
    await expectAccessible(page);
    await screenshot(page, 'account-avatar-crop');
    await dialog.getByRole('button', { name: 'Enregistrer la photo' }).click();
    await page.getByText('Photo enregistrée').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const menuPhoto = page.locator('nav img, aside img, [aria-haspopup="menu"] img').first();
    await expect.poll(() => menuPhoto.getAttribute('src')).toMatch(/^\/api\/user\/[\w-]+\/avatar\/[\w-]+$/);
    await expect.poll(() => menuPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);

    // The e-mail change: a link to the new address, a word to the old one; the link makes the change.
    const mark = await mailMark();
    await page.getByLabel(/^Nouvelle adresse e-mail/).fill(NEW_ADDRESS);
    await page.locator('#adresse-email').getByLabel(/^Mot de passe actuel/).fill('Demo1234!');
    await page.getByRole('button', { name: 'Changer d’adresse' }).click();
    await page.getByText(`Un lien de confirmation valable 24 heures vient d’être envoyé à ${NEW_ADDRESS}.`, { exact: false }).waitFor();
    const notice = await waitForMail(ACCOUNT, { since: mark, subject: /^Changement d’adresse e-mail demandé/ });
    expect(notice.text).toContain(NEW_ADDRESS);
    expect(notice.text).toContain(`${baseUrl()}/recover`);
    const mail = await waitForMail(NEW_ADDRESS, { since: mark, subject: /^Confirmez votre nouvelle adresse e-mail/ });
    expect(mail.text).toContain('Bonjour Julien-Pierre,');
    const link = new RegExp(`${escape(baseUrl())}/account\\?emailToken=[\\w-]+`).exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByText(`C’est fait : vous vous connectez désormais avec ${NEW_ADDRESS}.`).waitFor();
    expect(page.url()).toMatch(/\/account$/);
    await page.locator('#adresse-email').getByText(NEW_ADDRESS).waitFor();

    // Sessions: another device signs in with the new address; this page lists it and closes it.
    const other = await newPage(browser, { width: 390, height: 844 });
    await login(other.page, NEW_ADDRESS);
    await page.reload();
    const sessions = page.getByRole('list', { name: 'Sessions actives' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    expect(await sessions.getByText('Cet appareil').count()).toBe(1);
    expect(await sessions.getByText('Chrome sur Linux').count()).toBe(2);
    await expectAccessible(page);
    await screenshot(page, 'account-1366');
    await sessions.getByRole('button', { name: /^Fermer la session/ }).click();
    await page.getByText('Session fermée').waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    const refused = await other.page.evaluate(async () => (await fetch('/api/auth/refresh-token', { method: 'POST', headers: { 'x-requested-with': 'flotteassur' } })).status);
    expect(refused).toBe(401);
    await other.context.close();

    expect(consoleErrors.filter((text) => !/401|400/.test(text))).toEqual([]);
    await context.close();
  });

  it('reads well on a phone, and « Se déconnecter partout » ends every session, this one included', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    const elsewhere = await newPage(browser);
    await login(elsewhere.page, NEW_ADDRESS);
    await login(page, NEW_ADDRESS);
    await page.goto('/account');
    await page.getByRole('heading', { level: 1, name: 'Paramètres compte' }).waitFor();
    // This phone, the desktop beside it, and the first test's page (closed, its session still open).
    await expect.poll(() => page.getByRole('list', { name: 'Sessions actives' }).getByRole('listitem').count()).toBe(3);
    await expectAccessible(page);
    await screenshot(page, 'account-390');

    await page.getByRole('button', { name: 'Se déconnecter partout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Se déconnecter partout ?' });
    await dialog.getByRole('button', { name: 'Se déconnecter partout' }).click();
    await page.getByRole('button', { name: 'Se connecter' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const refused = await elsewhere.page.evaluate(async () => (await fetch('/api/auth/refresh-token', { method: 'POST', headers: { 'x-requested-with': 'flotteassur' } })).status);
    expect(refused).toBe(401);
    await elsewhere.context.close();
    await context.close();
  });
});

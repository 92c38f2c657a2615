import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DEMO_PASSWORD, expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';
import { mailCount, mailMark, waitForMail } from './support/mailbox.js';

// user2@demo.fr (Sophie Lambert) is used by no other e2e file: its password changes here for the
// rest of the run (the server and its data folder are the run's own), and its sessions end.
const ACCOUNT = 'user2@demo.fr';
const NEW_PASSWORD = 'Le chantier de Lyon ferme tard 2026';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('password recovery, end to end', () => {
  it('from « Mot de passe oublié ? » to a new password, through the e-mail a real SMTP server received', async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto('/');
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await page.waitForURL('**/recover/email');
    await page.getByRole('heading', { level: 1, name: 'Mot de passe oublié' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'recover-email');

    const mark = await mailMark();
    await page.getByLabel(/Adresse e-mail/).fill(ACCOUNT);
    await page.getByRole('button', { name: 'Recevoir le lien' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vérifiez votre messagerie' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'recover-email-sent');

    const mail = await waitForMail(ACCOUNT, { since: mark, subject: /^Réinitialisation de votre mot de passe/ });
    expect(mail.text).toContain('Bonjour Sophie,');
    expect(mail.text).toContain('1 heure');
    const link = new RegExp(`${baseUrl().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/recover/password\\?token=[\\w-]+`).exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();

    await page.goto(link!);
    await page.getByText('u••••@demo.fr').waitFor();
    await page.getByLabel(/^Nouveau mot de passe/).fill('azerty123456');
    expect(await page.getByText('Robustesse : Trop courant').isVisible()).toBe(true);
    await page.getByLabel(/^Nouveau mot de passe/).fill(NEW_PASSWORD);
    expect(await page.getByText('Robustesse : Excellent').isVisible()).toBe(true);
    await page.getByLabel(/^Confirmez le mot de passe/).fill(NEW_PASSWORD);
    await expectAccessible(page);
    await screenshot(page, 'recover-password');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await page.waitForURL('**/recover/confirmation');
    await page.getByRole('heading', { level: 1, name: 'Mot de passe modifié' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'recover-confirmation');

    // The link served once.
    await page.goto(link!);
    await page.getByText('Ce lien est invalide ou a expiré : il ne sert qu’une fois, et pour une durée limitée. Demandez-en un nouveau.').waitFor();
    expect(await page.getByRole('link', { name: 'Demander un nouveau lien' }).getAttribute('href')).toBe('/recover/email');

    // The old password is refused, the new one opens the account.
    await page.goto('/');
    await page.getByLabel('Adresse e-mail').fill(ACCOUNT);
    await page.getByLabel(/^Mot de passe/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByText('Adresse e-mail ou mot de passe incorrect').waitFor();
    await login(page, ACCOUNT, NEW_PASSWORD);
    expect(page.url()).toMatch(/\/dashboard$/);
    expect(consoleErrors.filter((text) => !/401|400/.test(text))).toEqual([]);
    await context.close();
  });

  it('answers an unknown address the same way, and sends it nothing; reads well on a phone', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await page.goto('/recover');
    await page.waitForURL('**/recover/email');
    await page.getByRole('heading', { level: 1, name: 'Mot de passe oublié' }).waitFor();
    await screenshot(page, 'recover-email-390');
    await page.getByLabel(/Adresse e-mail/).fill('personne@demo.fr');
    await page.getByRole('button', { name: 'Recevoir le lien' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vérifiez votre messagerie' }).waitFor();
    expect(await page.getByText(/Si un compte existe avec cette adresse/).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'recover-email-sent-390');
    // Whatever the outbox would send has gone by now: a known address's message arrives within a second or two.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await mailCount('personne@demo.fr')).toBe(0);
    await context.close();
  });
});

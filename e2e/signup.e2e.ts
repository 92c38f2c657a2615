import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, expectAccessible, launchBrowser, logoPng, newPage, screenshot } from './support/browser.js';
import { mailMark, waitForMail } from './support/mailbox.js';

// The accounts made here are this file's own: new addresses, unknown to the demo seed.
const ACCOUNT = `lea.moreau.${Date.now()}@exemple.fr`;
const PASSWORD = 'Les camions partent à six heures 2026';
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The same screen at a phone's width too. */
async function bothWidths(page: Page, name: string) {
  await screenshot(page, name);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-390`);
  if (size) await page.setViewportSize(size);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('signup, end to end', () => {
  it('from « Créer un compte » to the dashboard: the e-mail a real SMTP server received, the confirmation, the onboarding', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(new URL(response.url()).pathname);
    });
    await page.goto('/');
    await page.getByRole('link', { name: 'Créer un compte' }).click();
    await page.waitForURL('**/signup');
    await page.getByRole('heading', { level: 1, name: 'Créer un compte' }).waitFor();
    await page.getByLabel(/^Prénom/).fill('Léa');
    await page.getByLabel(/^Nom/).fill('Moreau');
    await page.getByLabel(/Adresse e-mail/).fill(ACCOUNT);
    await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
    expect(await page.getByText('Robustesse : Excellent').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    // The CGU must be ticked.
    await page.getByText('Acceptez les conditions générales d’utilisation pour créer votre compte').waitFor();
    await page.getByRole('checkbox', { name: /conditions générales/ }).check();
    await expectAccessible(page);
    await screenshot(page, 'signup');

    const mark = await mailMark();
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.waitForURL('**/signup/confirmation?email=*');
    await page.getByRole('heading', { level: 1, name: 'Vérifiez votre messagerie' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'signup-confirmation');

    const mail = await waitForMail(ACCOUNT, { since: mark, subject: /^Confirmez votre adresse e-mail/ });
    expect(mail.text).toContain('Bonjour Léa,');
    expect(mail.text).toContain('24 heures');
    const link = new RegExp(`${escaped(baseUrl())}/signup/confirmation\\?token=[\\w-]+`).exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();

    // Before the confirmation, the login refuses the right password and offers a new link.
    await page.goto('/');
    await page.getByLabel('Adresse e-mail').fill(ACCOUNT);
    await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByText(/Votre adresse e-mail n’est pas encore confirmée/).waitFor();
    expect(await page.getByRole('link', { name: 'Renvoyer l’e-mail de confirmation' }).isVisible()).toBe(true);

    // The link confirms, signs in and opens the onboarding.
    await page.goto(link!);
    await page.waitForURL('**/onboarding');
    await page.getByRole('heading', { level: 1, name: 'Bienvenue sur FlotteAssur, Léa !' }).waitFor();
    await expectAccessible(page);
    await bothWidths(page, 'onboarding-welcome');
    await page.getByRole('button', { name: 'Commencer' }).click();

    await page.waitForURL('**/onboarding/company');
    await page.getByLabel(/Nom de l’organisation/).fill('Transports Moreau');
    await page.getByLabel(/SIREN ou SIRET/).fill('732 829 321');
    await page.getByLabel(/^Adresse/).fill('12 rue des Lilas\n69003 Lyon');
    await page.getByRole('combobox', { name: /Taille de la flotte/ }).click();
    await page.getByRole('option', { name: '10 à 49 véhicules' }).click();
    await page.getByRole('button', { name: 'Créer mon organisation' }).click();
    await page.getByText('Ce SIREN est invalide : vérifiez les chiffres (clé de contrôle incorrecte)').waitFor();
    await page.getByLabel(/SIREN ou SIRET/).fill('732 829 320');
    // The logo: chosen, shown whole in the 2 : 1 crop, kept; sent once the organization exists.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choisir un logo' }).click();
    await (await chooser).setFiles({ name: 'logo-moreau.png', mimeType: 'image/png', buffer: await logoPng(page) });
    const crop = page.getByRole('dialog', { name: 'Recadrer le logo' });
    await crop.getByRole('img', { name: /Aperçu du recadrage/ }).waitFor();
    await expectAccessible(page);
    await bothWidths(page, 'onboarding-company-logo-crop');
    await crop.getByRole('button', { name: 'Garder ce logo' }).click();
    await crop.waitFor({ state: 'detached' });
    await page.getByRole('img', { name: 'Aperçu du logo' }).waitFor();
    await page.getByRole('button', { name: 'Changer le logo' }).waitFor();
    await expectAccessible(page);
    await bothWidths(page, 'onboarding-company');

    // A reload midway resumes at the same step.
    await page.getByRole('button', { name: 'Créer mon organisation' }).click();
    await page.waitForURL('**/onboarding/members');
    await page.getByRole('heading', { level: 1, name: 'Invitez vos collègues' }).waitFor();
    await page.goto('/dashboard');
    await page.waitForURL('**/onboarding/members');
    await page.getByRole('heading', { level: 1, name: 'Invitez vos collègues' }).waitFor();
    await expectAccessible(page);
    await bothWidths(page, 'onboarding-members');
    // The invitations' route is the members feature's: skipped here.
    await page.getByRole('button', { name: 'Passer cette étape' }).click();

    await page.waitForURL('**/onboarding/finish');
    await page.getByRole('heading', { level: 1, name: 'Votre espace est prêt' }).waitFor();
    await page.getByText('732 829 320').waitFor();
    await page.getByText('10 à 49 véhicules').waitFor();
    // The logo sent after the organization was made: the resumed summary shows the API's WebP, whole (3 : 1 → 512 × 171).
    const logo = page.getByRole('img', { name: 'Logo de Transports Moreau' });
    await expect.poll(() => logo.getAttribute('src')).toMatch(/^\/api\/organization\/[\w-]+\/logo\/[\w-]+$/);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && `${img.naturalWidth}×${img.naturalHeight}`)).toBe('512×171');
    await expectAccessible(page);
    await bothWidths(page, 'onboarding-finish');
    await page.getByRole('button', { name: 'Accéder au tableau de bord' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Transports Moreau').first().waitFor();
    // The organization's logo where the organization is shown: the sidebar's top.
    const sidebarLogo = page.locator('img[src^="/api/organization/"]').first();
    await expect.poll(() => sidebarLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(512);
    await expectAccessible(page);
    await bothWidths(page, 'onboarding-dashboard-logo');

    // The link served once; the onboarding is over for good.
    await page.goto(link!);
    await page.getByText('Ce lien de confirmation est invalide ou a expiré : il ne sert qu’une fois, pendant 24 heures. Demandez-en un nouveau.').waitFor();
    await page.goto('/onboarding');
    await page.waitForURL('**/dashboard');
    // A new organization has no indicator period yet: the dashboard's claim frequency answers 404
    // (« Aucune période ne contient la date d'aujourd'hui »), as for any organization without one.
    expect(missing.filter((url) => url !== '/api/dashboard/claim-frequency')).toEqual([]);
    expect(consoleErrors.filter((text) => !/40[0139]/.test(text) && !text.includes('404 (Not Found)'))).toEqual([]);
    await context.close();
  });

  it('reads well on a phone: the signup and the confirmation screen', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await page.goto('/signup');
    await page.getByRole('heading', { level: 1, name: 'Créer un compte' }).waitFor();
    await page.getByLabel(/^Mot de passe/).fill('azerty123456');
    expect(await page.getByText('Robustesse : Trop courant').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'signup-390');
    await page.goto('/signup/confirmation?email=lea%40exemple.fr');
    await page.getByRole('heading', { level: 1, name: 'Vérifiez votre messagerie' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'signup-confirmation-390');
    await page.goto('/signup/confirmation?token=lien-invente-0123456789');
    await page.getByText(/Ce lien de confirmation est invalide ou a expiré/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'signup-link-invalid-390');
    await context.close();
  });
});

import { generateSync } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, expectAccessible, login, newPage, launchBrowser, screenshot } from './support/browser.js';

// securite@demo.fr (Hugo Garnier) is this file's own account (README, seed): two-factor sign-in
// is turned on here for the rest of the run.
const ACCOUNT = 'securite@demo.fr';

let browser: Browser;
let secret = '';
let recoveryCodes: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The code the authenticator app would show `steps` periods from now. */
const codeAt = (steps = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function logout(page: Page) {
  await page.getByRole('button', { name: /Hugo Garnier/ }).click();
  await page.getByRole('menuitem', { name: 'Se déconnecter' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

async function typePassword(page: Page) {
  await page.goto('/');
  await page.getByLabel('Adresse e-mail').fill(ACCOUNT);
  await page.getByLabel(/^Mot de passe/).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

describe('two-factor sign-in, end to end', () => {
  it('sets it up on /account, then logs in with a code and remembers the browser', async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await login(page, ACCOUNT);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Double authentification' });
    await section.getByText(/^Désactivée/).waitFor();
    await section.getByRole('button', { name: 'Activer la double authentification' }).click();

    await section.getByRole('img', { name: 'QR code à scanner avec votre application d’authentification' }).waitFor();
    secret = (await section.getByTestId('totp-key').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page);
    await screenshot(page, 'totp-account-setup');

    await section.getByLabel(/^Code à 6 chiffres/).fill(codeAt());
    await section.getByRole('button', { name: 'Activer', exact: true }).click();
    const list = section.getByRole('list', { name: 'Codes de secours' });
    await list.waitFor();
    recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    await expectAccessible(page);
    await screenshot(page, 'totp-account-recovery-codes');
    const download = page.waitForEvent('download');
    await section.getByRole('button', { name: 'Télécharger (.txt)' }).click();
    expect((await download).suggestedFilename()).toBe('flotteassur-codes-de-secours.txt');
    await section.getByRole('button', { name: 'J’ai noté mes codes' }).click();
    await section.getByText(/^Activée depuis le .* Codes de secours restants : 10 sur 10\./).waitFor();
    await screenshot(page, 'totp-account-enabled');

    await logout(page);
    await typePassword(page);
    await page.getByRole('heading', { level: 1, name: 'Double authentification' }).waitFor();
    expect(page.url()).not.toMatch(/dashboard/);
    await expectAccessible(page);
    await screenshot(page, 'totp-login-code');
    // The enabling code cannot serve again: the next period's code, as a phone a little ahead shows.
    await page.getByLabel(/^Code de vérification/).fill('000000');
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await page.getByText('Code incorrect ou déjà utilisé').waitFor();
    await page.getByLabel(/^Code de vérification/).fill(codeAt(1));
    await page.getByRole('checkbox', { name: 'Se souvenir de cet appareil pendant 30 jours' }).check();
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await page.waitForURL('**/dashboard');

    // Remembered: the password alone opens the session on this browser.
    await logout(page);
    await login(page, ACCOUNT);
    expect(consoleErrors.filter((text) => !/401|400/.test(text))).toEqual([]);
    await context.close();
  });

  it('asks the code on another browser, takes a recovery code once; reads well on a phone', async () => {
    expect(recoveryCodes).toHaveLength(10);
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await typePassword(page);
    await page.getByRole('heading', { level: 1, name: 'Double authentification' }).waitFor();
    await screenshot(page, 'totp-login-code-390');
    await page.getByRole('button', { name: 'Utiliser un code de secours' }).click();
    await page.getByLabel(/^Code de secours/).fill(recoveryCodes[0]!);
    await expectAccessible(page);
    await screenshot(page, 'totp-login-recovery-390');
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await page.waitForURL('**/dashboard');

    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Double authentification' });
    await section.getByText(/Codes de secours restants : 9 sur 10\./).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'totp-account-390');

    await context.close();

    // The recovery code served once (another browser again).
    const other = await newPage(browser);
    const again = other.page;
    await typePassword(again);
    await again.getByRole('button', { name: 'Utiliser un code de secours' }).click();
    await again.getByLabel(/^Code de secours/).fill(recoveryCodes[0]!);
    await again.getByRole('button', { name: 'Vérifier' }).click();
    await again.getByText('Code de secours incorrect ou déjà utilisé.').waitFor();
    await other.context.close();
  });
});

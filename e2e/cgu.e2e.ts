import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('terms of use (/cgu)', () => {
  it('reads the terms in force, signed out on a phone and signed in on a desktop; demo users are not asked again', async () => {
    const phone = await newPage(browser, { width: 390, height: 844 });
    await phone.page.goto('/cgu');
    await phone.page.getByRole('heading', { level: 1, name: 'Conditions générales d’utilisation de FlotteAssur' }).waitFor();
    expect(await phone.page.getByRole('heading', { level: 2 }).count()).toBe(10);
    expect(await phone.page.getByText('Version du 26 novembre 2026.').isVisible()).toBe(true);
    expect(await phone.page.getByRole('link', { name: 'Retour à la connexion' }).getAttribute('href')).toBe('/');
    await expectAccessible(phone.page);
    await screenshot(phone.page, 'cgu-390');
    await phone.context.close();

    const desktop = await newPage(browser, { width: 1366, height: 900 });
    await login(desktop.page, 'user@demo.fr');
    // Seeded users accepted the version in force: no dialog over the dashboard.
    expect(await desktop.page.getByRole('dialog').count()).toBe(0);
    await desktop.page.goto('/cgu');
    await desktop.page.getByRole('heading', { level: 1, name: 'Conditions générales d’utilisation de FlotteAssur' }).waitFor();
    await screenshot(desktop.page, 'cgu');
    await desktop.context.close();
  });
});

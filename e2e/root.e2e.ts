import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';
import { mailMark, waitForMail } from './support/mailbox.js';

// The operator's console (issue 17, decision 043), as root@demo.fr. It only reads that account
// (no join: its current environment stays as seeded for shell.e2e.ts) and writes spaces of its
// own, named for the run, with a superadmin at a made-up address. The guarantees are not renamed:
// the claims files read their labels.
const run = Date.now().toString(36);
const PASSWORD = 'Les paliers du cabinet Levant 2026';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('root spaces, end to end', () => {
  it('ROOT creates a space with its superadmin (invited by e-mail) and adds a tier', async () => {
    const title = `Cabinet Levant ${run}`;
    const email = `levant-${run}@exemple.fr`;
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'root@demo.fr');

    // The root icon menu leads to the spaces.
    const menu = page.getByRole('navigation', { name: 'Menu root' });
    await menu.getByRole('link', { name: 'Espaces' }).click();
    await page.waitForURL('**/root/spaces');
    await page.getByRole('heading', { level: 1, name: 'Espaces' }).waitFor();
    await page.getByRole('table', { name: 'Espaces' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Menu root' }).getByRole('link', { name: 'Tableau de bord' }).getAttribute('href')).toBe('/dashboard');
    await expectAccessible(page);
    await screenshot(page, 'root-spaces');

    // A space and its first superadmin.
    await page.getByRole('button', { name: 'Créer un espace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Créer un espace' });
    await dialog.getByLabel(/Nom de l'espace/).fill(title);
    await dialog.getByLabel(/E-mail du référent/).fill(`contact-${run}@exemple.fr`);
    await dialog.getByLabel(/^Prénom/).fill('Inès');
    await dialog.getByLabel(/^Nom\W*$/).fill('Levant');
    await dialog.getByLabel(/Adresse e-mail du superadmin/).fill(email);
    await expectAccessible(page);
    await screenshot(page, 'root-space-create');
    const mark = await mailMark();
    await dialog.getByRole('button', { name: "Créer l'espace" }).click();
    await page.getByText(`« ${title} » : une invitation a été envoyée à ${email}`).waitFor();
    await dialog.waitFor({ state: 'detached' });

    const mail = await waitForMail(email, { since: mark, subject: /superadmin de l’espace/ });
    expect(mail.subject).toBe(`Vous êtes superadmin de l’espace ${title} sur FlotteAssur`);
    const link = new RegExp(`${escaped(baseUrl())}/recover/password\\?token=[\\w-]+`).exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();

    // The new space, found by the search, with its superadmin.
    await page.getByLabel('Rechercher un espace').fill(run);
    const row = page.getByRole('table', { name: 'Espaces' }).getByRole('row', { name: new RegExp(escaped(title)) });
    await row.waitFor();
    await expect.poll(() => page.getByRole('table', { name: 'Espaces' }).getByRole('row').count()).toBe(2);
    expect(await row.getByText('Inès Levant').isVisible()).toBe(true);
    expect(await row.getByText('Aucun palier', { exact: true }).isVisible()).toBe(true);

    // A tier from today: it is the one in force.
    await row.getByRole('button', { name: `Paliers : ${title}` }).click();
    const tiers = page.getByRole('dialog', { name: `Paliers de ${title}` });
    await tiers.getByText('Aucun palier pour cet espace.').waitFor();
    await tiers.getByRole('button', { name: 'Ajouter un palier' }).click();
    const form = tiers.getByRole('form', { name: 'Nouveau palier' });
    await form.getByLabel(/Nom du palier/).fill('Lancement');
    await form.getByLabel(/Prix par véhicule/).fill('12,50');
    await form.getByLabel(/Organisations incluses/).fill('5');
    await form.getByLabel(/Organisations gratuites/).fill('1');
    await form.getByRole('button', { name: 'Ajouter le palier' }).click();
    const item = tiers.getByRole('list', { name: 'Paliers' }).getByRole('listitem');
    await item.getByText('En vigueur').waitFor();
    expect(await item.innerText()).toMatch(/12,50\s€ HT \/ véhicule \/ mois · 5 organisations incluses · 1 gratuite/);
    await expectAccessible(page);
    await screenshot(page, 'root-space-tiers');
    await tiers.getByRole('button', { name: 'Fermer' }).click();
    await row.getByText('Lancement').waitFor();
    expect(await row.innerText()).toMatch(/12,50\s€ HT \/ véhicule \/ mois, depuis le/);
    expect(consoleErrors).toEqual([]);
    await context.close();

    // The superadmin chooses a password from the e-mail and signs in to its space.
    const invited = await newPage(browser, { width: 1366, height: 900 });
    await invited.page.goto(link!);
    await invited.page.getByLabel(/^Nouveau mot de passe/).fill(PASSWORD);
    await invited.page.getByLabel(/^Confirmez le mot de passe/).fill(PASSWORD);
    await invited.page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await invited.page.waitForURL('**/recover/confirmation');
    await login(invited.page, email, PASSWORD);
    await invited.page.getByRole('dialog', { name: 'Conditions générales d’utilisation' }).waitFor();
    await invited.context.close();
  });

  it('lays the spaces out for a phone', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'root@demo.fr');
    await page.goto('/root/spaces');
    await page.getByRole('heading', { level: 1, name: 'Espaces' }).waitFor();
    await page.getByRole('list', { name: 'Espaces' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'root-spaces-phone');
    await context.close();
  });

  it('answers an administrator at /root/spaces with the 404 page', async () => {
    const { page, context } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin@demo.fr');
    await page.goto('/root/spaces');
    await page.getByRole('heading', { name: 'This page could not be found' }).waitFor();
    await context.close();
  });
});

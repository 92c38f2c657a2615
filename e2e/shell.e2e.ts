import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('login', () => {
  it('shows the French login page, accessible, and a French error for a wrong password', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/');
    await expect.poll(() => page.title()).toMatch(/Connexion/);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    await expect.poll(() => page.getByRole('button', { name: 'Se connecter' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: /Mot de passe oublié/ }).getAttribute('href')).toBe('/recover');
    expect(await page.getByRole('link', { name: /Créer un compte/ }).getAttribute('href')).toBe('/signup');
    await expectAccessible(page);
    await screenshot(page, 'login');

    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect.poll(() => page.getByText("L'adresse e-mail est obligatoire").isVisible()).toBe(true);
    await page.getByLabel('Adresse e-mail').fill('admin@demo.fr');
    await page.getByLabel(/^Mot de passe/).fill('mauvais-mot-de-passe');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect.poll(() => page.getByText('Adresse e-mail ou mot de passe incorrect').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    await screenshot(page, 'login-error');
    await context.close();
  });

  it('logs in, keeps the session across a reload through /refresh, and logs out', async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await login(page, 'admin@demo.fr');
    await expect.poll(() => page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Julien Martin').first().isVisible()).toBe(true);
    await expect.poll(() => page.title()).toMatch(/Tableau de bord/);
    await expectAccessible(page);
    await screenshot(page, 'dashboard-admin');

    // Reopened cold: the server's HTML paints the page's frame (its title) before any script, and
    // the page replaces it once on screen.
    const html = await (await page.request.get('/dashboard')).text();
    expect(html).toMatch(/<div id="page-frame"[^>]*aria-hidden="true"[\s\S]*Tableau de bord[\s\S]*<div id="root">/);
    await page.reload();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByText('Julien Martin').first().isVisible()).toBe(true);
    expect(await page.locator('#page-frame').count()).toBe(0);

    await page.getByRole('button', { name: /Julien Martin/ }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Paramètres compte' }).isVisible()).toBe(true);
    await page.getByRole('menuitem', { name: 'Se déconnecter' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByRole('button', { name: 'Se connecter' }).isVisible()).toBe(true);
    // The only console errors allowed are the refused refresh calls after logout.
    expect(consoleErrors.filter((e) => !/401/.test(e))).toEqual([]);
    await context.close();
  });

  it('asks a register’s first page once on a cold load, as soon as the session is restored', async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await login(page, 'admin@demo.fr');
    await page.goto('/sinisters?sortBy=sinisterDate');
    await expect.poll(() => page.getByRole('heading', { name: 'Sinistres', level: 1 }).isVisible()).toBe(true);
    const lists: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname === '/api/sinister') lists.push(url.search);
    });
    await page.reload();
    await expect.poll(() => page.getByText(/\d+ sinistres? · /).first().isVisible()).toBe(true);
    // One request: the one started beside the page's chunks, taken by the screen (same query).
    await page.waitForTimeout(500);
    expect(lists).toHaveLength(1);
    expect(new URLSearchParams(lists[0]).get('sortBy')).toBe('sinisterDate');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('sends a visitor without session to login, then back to the page asked for', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/account');
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('route') === '/account');
    // The account page's frame goes with the redirection: the login page shows, usable.
    await expect.poll(() => page.locator('#page-frame').count()).toBe(0);
    await page.getByLabel('Adresse e-mail').fill('user@demo.fr');
    await page.getByLabel(/^Mot de passe/).fill('Demo1234!');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL('**/account');
    await expect.poll(() => page.getByLabel('Prénom').inputValue()).toBe('Claire');
    await screenshot(page, 'account');
    await context.close();
  });
});

describe('the shell', () => {
  describe('for a user of two organizations', () => {
    // The switch is saved on the demo admin: it gets its organization back after the test.
    let original: string | undefined;
    beforeEach(async () => {
      original = (await apiAs('admin@demo.fr')).user.currentOrganizationUser?.uuid;
    });
    afterEach(async () => {
      const api = await apiAs('admin@demo.fr');
      if (original && api.user.currentOrganizationUser?.uuid !== original) {
        await api.call('PATCH', `/api/user/${api.user.uuid}`, { currentOrganizationUser: original });
      }
    });

    it('switches organization through the loading modal', async () => {
      const { page, context } = await newPage(browser);
      await login(page, 'admin@demo.fr');
      const current = (await page.getByRole('button', { name: /Changer d.organisation/ }).innerText()).includes('BTP Durand') ? 'BTP Durand' : 'Transports Martin';
      const target = current === 'BTP Durand' ? 'Transports Martin' : 'BTP Durand';
      await page.getByRole('button', { name: /Changer d.organisation/ }).click();
      await page.getByRole('menuitem', { name: target }).click();
      await expect.poll(() => page.getByText("Chargement de l'organisation...").isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Veuillez patienter quelques secondes').isVisible()).toBe(true);
      await screenshot(page, 'organization-loading');
      await expect.poll(() => page.getByText("Chargement de l'organisation...").isVisible(), { timeout: 10_000 }).toBe(false);
      await expect.poll(() => page.getByText(`bienvenue dans l'espace de ${target}`, { exact: false }).isVisible()).toBe(true);
      await page.reload();
      await expect.poll(() => page.getByRole('button', { name: /Changer d.organisation/ }).innerText()).toContain(target);
      await context.close();
    });
  });

  it('shows a plain user a static organization block and no superadmin or root menu', async () => {
    const { page, context } = await newPage(browser);
    await login(page, 'user@demo.fr');
    await expect.poll(() => page.getByText('Transports Martin').first().isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /Changer d.organisation/ }).count()).toBe(0);
    expect(await page.getByText('Gestion organisations').count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Menu root' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Claire Petit/ }).innerText()).toContain('Utilisateur');
    // Every entry of the main menu is open now (alerts since issue 16): links, none greyed « À venir ».
    expect(await page.getByRole('link', { name: /Alertes prévention/ }).getAttribute('href')).toBe('/alerts');
    expect(await page.getByRole('link', { name: 'Gestion documentaire' }).getAttribute('href')).toBe('/ged');
    expect(await page.getByText('À venir').count()).toBe(0);
    await context.close();
  });

  it('shows the superadmin its menu and the root its icon menu', async () => {
    const superadmin = await newPage(browser);
    await login(superadmin.page, 'superadmin@demo.fr');
    await expect.poll(() => superadmin.page.getByText('Gestion organisations').isVisible()).toBe(true);
    expect(await superadmin.page.getByText('Gestion alertes').isVisible()).toBe(true);
    expect(await superadmin.page.getByRole('button', { name: /Sophie Lefèvre/ }).innerText()).toContain('Superadmin');
    expect(await superadmin.page.getByRole('navigation', { name: 'Menu root' }).count()).toBe(0);
    await expectAccessible(superadmin.page);
    await screenshot(superadmin.page, 'dashboard-superadmin');
    await superadmin.context.close();

    const root = await newPage(browser);
    await login(root.page, 'root@demo.fr');
    await expect.poll(() => root.page.getByRole('navigation', { name: 'Menu root' }).isVisible()).toBe(true);
    expect(await root.page.getByRole('link', { name: 'Espaces' }).getAttribute('href')).toBe('/root/spaces');
    expect(await root.page.getByText('Gestion organisations').count()).toBe(0);
    expect(await root.page.getByRole('button', { name: /Alex Moreau/ }).innerText()).toContain('Root');
    await expectAccessible(root.page);
    await screenshot(root.page, 'dashboard-root');
    await root.context.close();
  });

  it('sends a bug through the support dialog, with the 800-character counter', async () => {
    const { page, context } = await newPage(browser);
    await login(page, 'user@demo.fr');
    await page.getByRole('button', { name: 'Aide et support' }).click();
    await expect.poll(() => page.getByRole('dialog').getByText('Sophie Lefèvre').isVisible()).toBe(true);
    expect(await page.getByRole('dialog').getByText('06 12 34 56 78').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'support-choices');
    await page.getByText('Signaler un bug').click();
    await page.getByLabel('Titre').fill("L'export ne démarre pas");
    const description = page.getByLabel('Description');
    await description.fill('x'.repeat(801));
    const counter = page.getByText('801/800 caractères max.');
    await expect.poll(() => counter.isVisible()).toBe(true);
    const red = await counter.evaluate((el) => getComputedStyle(el).color);
    await description.fill('Le bouton Exporter reste grisé depuis ce matin.');
    const normal = page.getByText('47/800 caractères max.');
    await expect.poll(() => normal.isVisible()).toBe(true);
    expect(red).not.toBe(await normal.evaluate((el) => getComputedStyle(el).color));
    await screenshot(page, 'support-bug-form');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await expect.poll(() => page.getByText('Envoi du bug').isVisible()).toBe(true);
    expect(await page.getByText('Votre bug a bien été envoyé').isVisible()).toBe(true);
    await expect.poll(() => page.getByLabel('Titre').inputValue()).toBe('');
    await screenshot(page, 'support-sent');
    await context.close();
  });

  it('shows the 404 page for an unknown route', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/nimporte-quoi');
    await expect.poll(() => page.getByText('This page could not be found').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: /accueil/i }).getAttribute('href')).toBe('/');
    await expectAccessible(page);
    await screenshot(page, 'not-found');
    await context.close();
  });

  it('shows the mobile top bar at 390 px and opens the menu', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'admin@demo.fr');
    const topBar = page.getByRole('banner');
    await expect.poll(() => topBar.getByText('Tableau de bord').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await expect.poll(() => page.getByRole('dialog').getByText('Conducteurs').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'mobile-menu');
    await page.getByRole('dialog').getByRole('button', { name: 'Fermer le menu' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'mobile-dashboard');
    await context.close();
  });
});

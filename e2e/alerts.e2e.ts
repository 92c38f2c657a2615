import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// Prevention alerts (issue 16): the demo's broker writes one for BTP Durand only; Durand's user
// (user2@demo.fr) sees it on /alerts with the menu's unread badge, and reads it. The test owns
// the alert it writes (removed at the end) and only reads that one.

const TITLE = `Pneus hiver : contrôle avant le 1er décembre (${Date.now().toString(36)})`;
const BODY = 'Avant les premières gelées :\n\n- faites contrôler la **pression** et l’usure des pneus ;\n- prévoyez du lave-glace antigel.';

let browser: Browser;
let superadmin: Awaited<ReturnType<typeof apiAs>>;
let environment: string;

type Written = { uuid: string; title: string; organizations: number; organizationsRead: number; readers: number };
const written = async () => ((await superadmin.call('GET', `/api/environment/${environment}/alert`)) as { data: Written[] }).data.find((a) => a.title === TITLE);

beforeAll(async () => {
  browser = await launchBrowser();
  superadmin = await apiAs('superadmin@demo.fr');
  const me = (await superadmin.call('GET', '/api/auth/me')) as { currentEnvironmentUser: { environment: { uuid: string } } };
  environment = me.currentEnvironmentUser.environment.uuid;
});
afterAll(async () => {
  const alert = await written().catch(() => undefined);
  if (alert) await superadmin.call('DELETE', `/api/environment/${environment}/alert/${alert.uuid}`);
  await browser?.close();
});

describe('prevention alerts', () => {
  it('a superadmin writes an alert for one client on /superadmin/alerts', async () => {
    const { page, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'superadmin@demo.fr');
    await page.getByRole('link', { name: 'Gestion alertes' }).click();
    await page.waitForURL('**/superadmin/alerts');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Gestion des alertes' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('tab', { name: 'Questionnaires' }).count()).toBe(1);
    // The broker's demo alert is there, published.
    await expect.poll(() => page.getByText('Hiver : préparez vos véhicules').count()).toBeGreaterThan(0);
    await expectAccessible(page);

    await page.getByRole('textbox', { name: 'Titre' }).fill(TITLE);
    await page.getByRole('textbox', { name: 'Message' }).fill(BODY);
    await page.getByRole('combobox', { name: 'Gravité' }).click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await page.getByRole('radio', { name: 'Des organisations choisies' }).check();
    await page.getByRole('combobox', { name: 'Organisations' }).click();
    await page.getByRole('option', { name: 'BTP Durand' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Aperçu' }).click();
    await expect.poll(() => page.getByLabel('Aperçu du message').locator('strong', { hasText: 'pression' }).count()).toBe(1);
    await screenshot(page, 'superadmin-alerts-form-1366');
    await page.getByRole('button', { name: "Publier l'alerte" }).click();
    await expect.poll(() => page.getByText('Alerte publiée').count()).toBe(1);
    const item = page.getByRole('listitem').filter({ hasText: TITLE });
    await expect.poll(() => item.count()).toBe(1);
    await expect.poll(async () => (await item.textContent()) ?? '').toContain('Lue dans 0 organisation sur 1');
    expect(await written()).toMatchObject({ organizations: 1, organizationsRead: 0 });
    await expectAccessible(page);
    await screenshot(page, 'superadmin-alerts-1366');

    const phone = await newPage(browser, { width: 390, height: 844 });
    await login(phone.page, 'superadmin@demo.fr');
    await phone.page.goto('/superadmin/alerts');
    await expect.poll(() => phone.page.getByRole('listitem').filter({ hasText: TITLE }).count()).toBe(1);
    await expectAccessible(phone.page);
    await screenshot(phone.page, 'superadmin-alerts-390');
    expect(consoleErrors).toEqual([]);
    await phone.context.close();
  }, 120_000);

  it('the client’s user sees it on /alerts with the unread badge, and reads it', async () => {
    const { page, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'user2@demo.fr');
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    const entry = nav.getByRole('link', { name: /Alertes prévention/ });
    const badge = entry.getByTestId('unread-alerts-badge');
    await expect.poll(() => badge.count()).toBe(1);
    const before = Number(await badge.textContent());
    expect(before).toBeGreaterThan(0);
    await entry.click();
    await page.waitForURL('**/alerts');
    const card = page.getByRole('article', { name: TITLE });
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.getByText('Non lue').count()).toBe(1);
    expect(await card.getByText('Urgent').count()).toBe(1);
    expect(await card.locator('strong', { hasText: 'pression' }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'alerts-1366');

    await card.getByRole('button', { name: 'Marquer comme lue' }).click();
    await expect.poll(() => card.getByText('Non lue').count()).toBe(0);
    await expect.poll(async () => ((await badge.count()) === 0 ? 0 : Number(await badge.textContent()))).toBe(before - 1);
    await expect.poll(async () => (await written())?.organizationsRead).toBe(1);

    // Filtered on « Urgent »: the broker's attention message of the demo is not there.
    await page.getByRole('combobox', { name: 'Gravité' }).click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await page.waitForURL('**/alerts?severity=urgent');
    await expect.poll(() => page.getByRole('article', { name: 'Hiver : préparez vos véhicules' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('article', { name: TITLE }).count()).toBe(1);
    expect(consoleErrors).toEqual([]);

    const phone = await newPage(browser, { width: 390, height: 844 });
    await login(phone.page, 'user2@demo.fr');
    await phone.page.goto('/alerts');
    await expect.poll(() => phone.page.getByRole('article', { name: TITLE }).count()).toBe(1);
    await expectAccessible(phone.page);
    await screenshot(phone.page, 'alerts-390');
    await phone.page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await expect.poll(() => phone.page.getByRole('link', { name: /Alertes prévention/ }).count()).toBe(1);
    await screenshot(phone.page, 'alerts-menu-390');
    await phone.context.close();
  }, 120_000);
});

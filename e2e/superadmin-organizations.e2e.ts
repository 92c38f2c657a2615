import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, logoPng, newPage, screenshot } from './support/browser.js';
import { mailMark, waitForMail } from './support/mailbox.js';

// /superadmin/organization as the demo superadmin (README): the broker's clients side by side,
// sorted and searched on the server, one created, one opened (a full page load onto its
// dashboard). The superadmin's current organization changes: this file owns that account's
// organization (the shell's test only reads its menu).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Row = { title: string; lossRatio: number | null; vehicles: number };

describe('Gestion organisations', () => {
  it('shows the clients with their figures, sorts, searches, creates and opens one', async () => {
    const { context, page, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'superadmin@demo.fr');
    await page.getByRole('link', { name: 'Gestion organisations' }).click();
    await page.waitForURL('**/superadmin/organization');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Gestion organisations' }).isVisible()).toBe(true);

    // The figures the API gives, as the table shows them.
    const api = await apiAs('superadmin@demo.fr');
    const table = (await api.call('GET', '/api/broker/organization')) as { data: Row[]; total: number };
    expect(table.total).toBeGreaterThanOrEqual(2);
    const martin = page.getByRole('row', { name: /Transports Martin/ });
    await martin.waitFor();
    const martinRow = table.data.find((o) => o.title === 'Transports Martin')!;
    expect(await martin.innerText()).toContain(String(martinRow.vehicles));
    // S/P in words as well as in colour.
    expect(await martin.innerText()).toMatch(/(Sous la limite|Proche de la limite|Au-dessus de la limite|Non calculable)/);
    await expectAccessible(page);
    await screenshot(page, 'superadmin-organizations-1366');

    // Sorted by the server: vehicles, most first.
    await page.getByRole('button', { name: 'Véhicules' }).click();
    await page.getByRole('button', { name: 'Véhicules' }).click();
    await page.waitForURL(/sortBy=-vehicles/);
    const byVehicles = (await api.call('GET', '/api/broker/organization?sortBy=-vehicles')) as { data: Row[] };
    await expect.poll(async () => (await page.getByRole('row').nth(1).innerText()).split(/[\n\t]/)[0]?.trim()).toBe(byVehicles.data[0]!.title);

    // Searched.
    await page.getByRole('searchbox', { name: 'Rechercher une organisation' }).fill('durand');
    await expect.poll(() => page.getByRole('row', { name: /Transports Martin/ }).count()).toBe(0);
    expect(await page.getByRole('row', { name: /BTP Durand/ }).count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Rechercher une organisation' }).fill('');

    // Created.
    const title = `Taxis Lumière ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Créer une organisation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Créer une organisation' });
    await dialog.getByRole('button', { name: "Créer l'organisation" }).click();
    await expect.poll(() => dialog.getByText(/Le nom de l'organisation/).count()).toBeGreaterThan(0);
    await dialog.getByRole('textbox', { name: /Nom de l'organisation/ }).fill(title);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: "Créer l'organisation" }).click();
    await expect.poll(() => page.getByText(`« ${title} » a rejoint votre environnement`).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('row', { name: new RegExp(title) }).count()).toBe(1);

    // Opened: the switch reloads the whole app on the organization's dashboard.
    await page.getByRole('button', { name: 'Actions pour BTP Durand' }).click();
    await page.getByRole('menuitem', { name: 'Ouvrir' }).click();
    await page.waitForURL('**/dashboard', { timeout: 20_000 });
    await expect.poll(() => page.getByText('BTP Durand').first().isVisible(), { timeout: 20_000 }).toBe(true);
    const me = (await (await apiAs('superadmin@demo.fr')).call('GET', '/api/auth/me')) as { currentOrganizationUser: { organization: { title: string } } };
    expect(me.currentOrganizationUser.organization.title).toBe('BTP Durand');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('creates an organization with its logo and first administrator, who receives the invitation', async () => {
    const { context, page, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'superadmin@demo.fr');
    await page.goto('/superadmin/organization');
    await page.getByRole('button', { name: 'Créer une organisation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Créer une organisation' });
    const title = `Ambulances Soleil ${Date.now().toString(36)}`;
    const adminEmail = `premier.admin.${Date.now().toString(36)}@exemple.fr`;
    await dialog.getByRole('textbox', { name: /Nom de l'organisation/ }).fill(title);
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choisir un logo' }).click();
    await (await chooser).setFiles({ name: 'soleil.png', mimeType: 'image/png', buffer: await logoPng(page) });
    const crop = page.getByRole('dialog', { name: 'Recadrer le logo' });
    await crop.getByRole('img', { name: /Aperçu du recadrage/ }).waitFor();
    await crop.getByRole('button', { name: 'Garder ce logo' }).click();
    await crop.waitFor({ state: 'detached' });
    await dialog.getByRole('img', { name: 'Aperçu du logo' }).waitFor();
    await dialog.getByRole('textbox', { name: /E-mail de l’administrateur/ }).fill('pas-une-adresse');
    await dialog.getByRole('button', { name: "Créer l'organisation" }).click();
    await dialog.getByText('Adresse e-mail invalide').waitFor();
    await dialog.getByRole('textbox', { name: /E-mail de l’administrateur/ }).fill(adminEmail);
    await expectAccessible(page);
    await screenshot(page, 'superadmin-organization-create-1366');

    const mark = await mailMark();
    await dialog.getByRole('button', { name: "Créer l'organisation" }).click();
    await expect.poll(() => page.getByText(`une invitation est partie à ${adminEmail}`).isVisible()).toBe(true);
    const mail = await waitForMail(adminEmail, { since: mark, subject: new RegExp(`vous invite à rejoindre ${title}`) });
    expect(mail.text).toMatch(/\/signup\?invitation=[\w-]+/);

    // The logo in the table's row, whole (the WebP the API keeps: 3 : 1 inside 512 × 256).
    const row = page.getByRole('row', { name: new RegExp(title) });
    await row.waitFor();
    const logo = row.locator('img');
    await expect.poll(() => logo.getAttribute('src'), { timeout: 10_000 }).toMatch(/^\/api\/organization\/[\w-]+\/logo\/[\w-]+$/);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(512);
    await expectAccessible(page);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('becomes cards on a phone', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'superadmin@demo.fr');
    await page.goto('/superadmin/organization');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Gestion organisations' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Transports Martin').first().isVisible()).toBe(true);
    expect(await page.getByRole('table').count()).toBe(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await screenshot(page, 'superadmin-organizations-390');
    await page.getByRole('button', { name: 'Créer une organisation' }).click();
    await page.getByRole('dialog', { name: 'Créer une organisation' }).getByRole('button', { name: 'Choisir un logo' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'superadmin-organization-create-390');
    await page.keyboard.press('Escape');
    await context.close();
  });
});

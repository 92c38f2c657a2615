import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

type Contract = {
  uuid: string;
  insurer: string;
  policyNumber: string;
  startDate: string;
  renewalDate: string;
  annualPremium: number;
  guarantees: { guaranteeUuid: string; deductible: number }[];
};
type Intermediary = { name: string; contactLastName: string; contactFirstName: string; email: string; productionEmail: string; startDate: string };

let browser: Browser;
// BTP Durand's contract and intermediary as seeded: the write test leaves them in force again.
let seeded: { contract: Contract; intermediary: Intermediary };

beforeAll(async () => {
  browser = await launchBrowser();
  const api = await apiAs('admin2@demo.fr');
  const [contract] = (await api.call('GET', '/api/contract')) as Contract[];
  const intermediary = (await api.call('GET', '/api/insurance-intermediary/current')) as Intermediary;
  seeded = { contract: contract!, intermediary };
});
afterAll(async () => {
  await browser?.close();
  // History is kept by design: the seed's values become the newest version again.
  const api = await apiAs('admin2@demo.fr');
  const [latest] = (await api.call('GET', '/api/contract')) as Contract[];
  if (latest && latest.uuid !== seeded.contract.uuid) {
    const { insurer, policyNumber, startDate, renewalDate, annualPremium, guarantees } = seeded.contract;
    await api.call('POST', '/api/contract/create-or-update', {
      uuid: latest.uuid,
      insurer,
      policyNumber,
      startDate,
      renewalDate,
      annualPremium,
      guarantees: guarantees.map((g) => ({ guaranteeUuid: g.guaranteeUuid, deductible: g.deductible })),
    });
  }
  const current = (await api.call('GET', '/api/insurance-intermediary/current')) as Intermediary | null;
  if (current?.name !== seeded.intermediary.name) {
    const { name, contactLastName, contactFirstName, email, productionEmail } = seeded.intermediary;
    await api.call('POST', '/api/insurance-intermediary', { name, contactLastName, contactFirstName, email, productionEmail, startDate: new Date(Date.now() - 60_000).toISOString() });
  }
});

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describe('/parameters', () => {
  it('shows the organization, the contract in force with its guarantees, and the intermediary with its history', async () => {
    for (const width of [1366, 390]) {
      const { page, context, consoleErrors } = await newPage(browser, { width, height: width > 500 ? 900 : 844 });
      await login(page, 'user@demo.fr');
      // From the menu ('Paramètres' is no longer locked); on a phone the menu is behind the bar's button.
      if (width < 500) await page.getByRole('button', { name: /menu/i }).first().click();
      await page.getByRole('link', { name: 'Paramètres', exact: true }).first().click();
      await page.waitForURL('**/parameters');
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Paramètres' }).isVisible()).toBe(true);
      await expect.poll(() => page.title()).toMatch(/^Paramètres/);

      await expect.poll(() => section(page, 'Organisation').getByText('Transports Martin').count()).toBeGreaterThan(0);
      expect(await section(page, 'Organisation').getByText('Cabinet Démo Courtage').isVisible()).toBe(true);

      const contract = section(page, 'Contrat');
      await expect.poll(() => contract.getByText('FLT-2024-001873', { exact: true }).isVisible()).toBe(true);
      expect(await contract.getByText('Axa France', { exact: true }).isVisible()).toBe(true);
      expect(await contract.getByRole('table', { name: 'Garanties couvertes' }).getByRole('row', { name: /Bris de glace/ }).textContent()).toMatch(/100,00\s€/);
      expect(await contract.getByText('Versions précédentes (1)').isVisible()).toBe(true);
      // A plain member reads, does not edit.
      expect(await contract.getByRole('button', { name: 'Modifier le contrat' }).count()).toBe(0);

      const intermediary = section(page, 'Intermédiaire');
      // A table from tablet width, a list on a phone.
      const entries =
        width < 500
          ? intermediary.getByRole('list', { name: 'Historique des intermédiaires' }).getByRole('listitem')
          : intermediary.getByRole('table', { name: 'Historique des intermédiaires' }).locator('tbody tr');
      await expect.poll(() => entries.count()).toBe(2);
      expect(await entries.first().textContent()).toContain('Cabinet Démo Courtage (en fonction)');
      expect(await intermediary.getByRole('link', { name: 'production@cabinet-demo-courtage.fr' }).isVisible()).toBe(true);

      await expectAccessible(page);
      await screenshot(page, `parameters-${width}`);
      expect(consoleErrors).toEqual([]);
      await context.close();
    }
  });

  it('lets an administrator save the contract and name a new intermediary, with French validation first', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin2@demo.fr');
    await page.goto('/parameters');
    const contract = section(page, 'Contrat');
    await expect.poll(() => contract.getByText('MMA-FL-55021', { exact: true }).isVisible()).toBe(true);

    await contract.getByRole('button', { name: 'Modifier le contrat' }).click();
    const form = page.getByRole('form', { name: "Contrat d'assurance" });
    const premium = form.getByLabel(/Prime annuelle/);
    await premium.fill('-10');
    await form.getByRole('button', { name: 'Enregistrer le contrat' }).click();
    await expect.poll(() => form.getByText('Le montant ne peut pas être négatif').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'parameters-contract-form');

    await premium.fill('22 750,40');
    await form.getByLabel(/Assureur/).fill('MMA Entreprise Flottes');
    await form.getByRole('button', { name: 'Enregistrer le contrat' }).click();
    await expect.poll(() => page.getByText('Contrat enregistré').isVisible()).toBe(true);
    await expect.poll(() => contract.getByText('MMA Entreprise Flottes', { exact: true }).isVisible()).toBe(true);
    expect(await contract.getByText(/22\s750,40\s€/).isVisible()).toBe(true);
    expect(await contract.getByText('Versions précédentes (1)').isVisible()).toBe(true);

    const intermediary = section(page, 'Intermédiaire');
    await intermediary.getByRole('button', { name: 'Nouvel intermédiaire' }).click();
    const add = page.getByRole('form', { name: 'Nouvel intermédiaire' });
    await add.getByLabel(/Nom du cabinet/).fill('Courtage Garnier');
    await add.getByLabel(/Prénom du contact/).fill('Luc');
    await add.getByLabel(/^Nom du contact/).fill('Garnier');
    await add.getByLabel(/E-mail du contact/).fill('luc@garnier');
    await add.getByLabel(/E-mail de production/).fill('production@courtage-garnier.fr');
    await add.getByRole('button', { name: "Enregistrer l'intermédiaire" }).click();
    await expect.poll(() => add.getByText('Adresse e-mail invalide').isVisible()).toBe(true);
    await add.getByLabel(/E-mail du contact/).fill('luc@courtage-garnier.fr');
    await add.getByRole('button', { name: "Enregistrer l'intermédiaire" }).click();
    await expect.poll(() => page.getByText('Intermédiaire enregistré').isVisible()).toBe(true);
    const history = intermediary.getByRole('table', { name: 'Historique des intermédiaires' });
    await expect.poll(() => history.locator('tbody tr').count()).toBe(2);
    expect(await history.getByRole('row', { name: /Courtage Garnier/ }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'parameters-saved');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
type Period = { uuid: string; startDate: string; endDate: string; motorsCount: number; cashReceived: number };
type Limits = { lossRatioPercentage: number; claimFrequencyPercentage: number };

const frDate = (iso: string) => iso.split('-').reverse().join('/');
const frEuros = (amount: number) => amount.toLocaleString('fr-FR', { style: 'currency', currency: 'EUR' }).replace(/\s/g, ' ');
const text = (value: string | null) => (value ?? '').replace(/\s+/g, ' ').trim();
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

let browser: Browser;
// BTP Durand's contract and intermediary as seeded: the write test leaves them in force again.
let seeded: { contract: Contract; intermediary: Intermediary; periods: Period[]; limits: Limits };

beforeAll(async () => {
  browser = await launchBrowser();
  const api = await apiAs('admin2@demo.fr');
  const [contract] = (await api.call('GET', '/api/contract')) as Contract[];
  const intermediary = (await api.call('GET', '/api/insurance-intermediary/current')) as Intermediary;
  const periods = (await api.call('GET', '/api/indicators')) as Period[];
  const limits = (await api.call('GET', '/api/dashboard/config')) as Limits;
  seeded = { contract: contract!, intermediary, periods, limits };
});
afterEach(async () => {
  // BTP Durand's periods and limits as seeded, whatever a test did: added periods go, edited ones come back.
  const api = await apiAs('admin2@demo.fr');
  const now = (await api.call('GET', '/api/indicators')) as Period[];
  for (const period of now.filter((p) => !seeded.periods.some((s) => s.uuid === p.uuid))) await api.call('DELETE', `/api/indicators/${period.uuid}`);
  const changed = seeded.periods.filter((s) => {
    const p = now.find((n) => n.uuid === s.uuid);
    return p && (p.motorsCount !== s.motorsCount || p.cashReceived !== s.cashReceived || p.startDate !== s.startDate || p.endDate !== s.endDate);
  });
  if (changed.length > 0) {
    await api.call('POST', '/api/indicators', {
      currentIndicators: changed.map(({ uuid, startDate, endDate, motorsCount, cashReceived }) => ({ uuid, startDate, endDate, motorsCount, cashReceived })),
    });
  }
  await api.call('PUT', '/api/dashboard/config', seeded.limits);
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
  it('shows a member every section read-only: organization, contract, intermediary and history, periods, limits', async () => {
    const member = await apiAs('user@demo.fr');
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

      // Indicateurs: the periods of the API, newest first, a table from tablet width, cards on a phone.
      const indicators = section(page, 'Indicateurs');
      const periods = (await member.call('GET', '/api/indicators')) as Period[];
      expect(periods.length).toBeGreaterThan(1);
      const rows =
        width < 500
          ? indicators.getByRole('list', { name: "Périodes d'assurance" }).getByRole('listitem')
          : indicators.getByRole('table', { name: "Périodes d'assurance" }).locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(periods.length);
      const newest = text(await rows.first().textContent());
      expect(newest).toContain(`Du ${frDate(periods[0]!.startDate)} au ${frDate(periods[0]!.endDate)}`);
      expect(newest).toContain(frEuros(periods[0]!.cashReceived));
      if (width < 500) expect(newest).toMatch(new RegExp(`Véhicules en début ?${periods[0]!.motorsCount}`));

      // Limites: the two thresholds, read.
      const limits = section(page, 'Limites');
      const config = (await member.call('GET', '/api/dashboard/config')) as Limits;
      await expect.poll(async () => text(await limits.locator('dl').textContent())).toBe(
        `Limite du S/P${config.lossRatioPercentage} %Limite de la fréquence${config.claimFrequencyPercentage} %`,
      );
      expect(await section(page, 'Organisation').getByText('Utilisateur', { exact: true }).isVisible()).toBe(true);

      // A plain member reads every section: no button that writes, no field.
      const main = page.getByRole('main');
      for (const name of ['Modifier le contrat', 'Renseigner le contrat', 'Nouvel intermédiaire', 'Ajouter une période', 'Enregistrer les limites']) {
        expect(await main.getByRole('button', { name }).count(), name).toBe(0);
      }
      expect(await main.getByRole('button', { name: /^(Modifier|Supprimer) la période/ }).count()).toBe(0);
      expect(await main.getByRole('textbox').count()).toBe(0);

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

  it('lets an administrator change the limits, with French validation first', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'admin2@demo.fr');
    await page.goto('/parameters#limites');
    const limits = section(page, 'Limites');
    await expect.poll(() => section(page, 'Organisation').getByText('Administrateur', { exact: true }).isVisible()).toBe(true);
    const lossRatio = limits.getByRole('textbox', { name: /Limite du S\/P/ });
    await expect.poll(() => lossRatio.inputValue()).toBe(String(seeded.limits.lossRatioPercentage));
    const frequency = limits.getByRole('textbox', { name: /Limite de la fréquence/ });
    await frequency.fill('12,5');
    await lossRatio.fill('0');
    await limits.getByRole('button', { name: 'Enregistrer les limites' }).click();
    await expect.poll(() => limits.getByText('La limite de la fréquence doit être un nombre entier').isVisible()).toBe(true);
    expect(await limits.getByText('La limite du S/P doit être d’au moins 1 %').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'parameters-limits-invalid-390');
    // Nothing was written.
    const api = await apiAs('admin2@demo.fr');
    expect(await api.call('GET', '/api/dashboard/config')).toEqual(seeded.limits);

    await lossRatio.fill('65');
    await frequency.fill('15');
    await limits.getByRole('button', { name: 'Enregistrer les limites' }).click();
    await expect.poll(() => page.getByText('Limites enregistrées').isVisible()).toBe(true);
    expect(await api.call('GET', '/api/dashboard/config')).toEqual({ lossRatioPercentage: 65, claimFrequencyPercentage: 15 });
    // Read again after a reload: saved.
    await page.reload();
    await expect.poll(() => section(page, 'Limites').getByRole('textbox', { name: /Limite du S\/P/ }).inputValue()).toBe('65');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('lets an administrator add, edit and delete periods: French validation, the API’s overlap message, the confirmation dialog', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin2@demo.fr');
    await page.goto('/parameters#indicateurs');
    const indicators = section(page, 'Indicateurs');
    const table = indicators.getByRole('table', { name: "Périodes d'assurance" });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(seeded.periods.length);

    // Add: the contract's messages first, then the API's refusal of an overlap (the default period starts today, inside the current one).
    await indicators.getByRole('button', { name: 'Ajouter une période' }).click();
    const add = page.getByRole('dialog', { name: 'Ajouter une période' });
    await add.getByRole('textbox', { name: /Nombre de véhicules/ }).fill('-3');
    await add.getByRole('textbox', { name: /Prime acquise/ }).fill('12,345');
    await add.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => add.getByText('Le nombre de véhicules ne peut pas être négatif').isVisible()).toBe(true);
    expect(await add.getByText('Le montant a au plus deux décimales (centimes)').isVisible()).toBe(true);
    await add.getByRole('textbox', { name: /Nombre de véhicules/ }).fill('12');
    await add.getByRole('textbox', { name: /Prime acquise/ }).fill('13 500');
    await add.getByRole('button', { name: 'Enregistrer' }).click();
    // Under the start date, the period it runs into (the current one, which contains today).
    const current = seeded.periods[0]!;
    await expect.poll(() => add.getByText(`Chevauche la période du ${frDate(current.startDate)} au ${frDate(current.endDate)}`).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/Les périodes ne doivent pas se chevaucher : /).first().isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'parameters-period-overlap');
    await add.getByRole('button', { name: 'Annuler' }).click();
    const api = await apiAs('admin2@demo.fr');
    expect(((await api.call('GET', '/api/indicators')) as Period[]).length).toBe(seeded.periods.length);

    // Edit the newest period's premium.
    const newest = seeded.periods[0]!;
    const label = `du ${frDate(newest.startDate)} au ${frDate(newest.endDate)}`;
    await indicators.getByRole('button', { name: `Modifier la période ${label}` }).click();
    const edit = page.getByRole('dialog', { name: 'Modifier la période' });
    await edit.getByRole('textbox', { name: /Prime acquise/ }).fill('14 250,50');
    await edit.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => page.getByText('Période modifiée').isVisible()).toBe(true);
    await expect.poll(async () => text(await table.locator('tbody tr').first().textContent())).toContain(frEuros(14_250.5));

    // Delete a period after the newest one (added through the API): the app's dialog, never window.confirm.
    const startDate = addDays(newest.endDate, 1);
    const endDate = addDays(startDate, 364);
    await api.call('POST', '/api/indicators', { currentIndicators: [{ startDate, endDate, motorsCount: 12, cashReceived: 13_500 }] });
    page.on('dialog', (dialog) => void dialog.dismiss().then(() => expect.fail(`window.${dialog.type()} must not be used`)));
    await page.reload();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(seeded.periods.length + 1);
    const doomed = `du ${frDate(startDate)} au ${frDate(endDate)}`;
    await indicators.getByRole('button', { name: `Supprimer la période ${doomed}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Supprimer la période ${doomed} ?` });
    await expect.poll(() => confirm.isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Annuler');
    expect(text(await confirm.textContent())).toContain('Cette action est irréversible.');
    await expectAccessible(page);
    await screenshot(page, 'parameters-period-delete');
    await confirm.getByRole('button', { name: 'Supprimer la période' }).click();
    await expect.poll(() => page.getByText('Période supprimée').isVisible()).toBe(true);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(seeded.periods.length);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Ajouter une période');
    expect(((await api.call('GET', '/api/indicators')) as Period[]).map((p) => p.uuid)).toEqual(seeded.periods.map((p) => p.uuid));
    // Chromium logs the overlap's 400 itself; nothing else.
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await context.close();
  });
});

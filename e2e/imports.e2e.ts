import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// Issue 13's import screens: a member imports a small CSV of vehicles (French headers, `;`) from
// « Importer » on /vehicules, goes through the five steps, sees the vehicles in the list, then
// « Annuler l'import » takes them out again. Each step is checked by axe and photographed.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const letters = () =>
  Array.from({ length: 2 }, () => 'ABCDEFGHJKLMNPQRSTVWXYZ'[Math.floor(Math.random() * 23)]).join('');
const digits = () => String(Math.floor(100 + Math.random() * 900));

/** A CSV as Excel-FR writes it: `;`, French headers, dd/mm/yyyy dates; one row without a plate (invalid). */
function writeCsv(model: string) {
  const plates = [`${letters()}-${digits()}-${letters()}`, `${letters()}-${digits()}-${letters()}`];
  const dir = mkdtempSync(path.join(tmpdir(), 'flotte-import-'));
  const file = path.join(dir, 'flotte-import.csv');
  writeFileSync(
    file,
    [
      'Immatriculation;Marque;Modèle;Date de mise en circulation',
      `${plates[0]};Renault;${model};04/07/2019`,
      `${plates[1]};Peugeot;${model};15/03/2021`,
      `;Citroën;${model};01/01/2020`,
    ].join('\r\n') + '\r\n',
  );
  return { file, plates };
}

/** How many of the plates the register shows (a table at 1366 px, cards at 390 px). */
const shown = async (page: Page, plates: string[]) => {
  let count = 0;
  for (const plate of plates) if ((await page.locator('main').getByText(plate, { exact: false }).count()) > 0) count++;
  return count;
};

describe('importing vehicles', () => {
  for (const viewport of [
    { width: 1366, height: 900, name: '1366' },
    { width: 390, height: 844, name: '390' },
  ]) {
    it(`a member imports a CSV of vehicles, sees them in the list, then reverts the import (${viewport.name} px)`, async () => {
      const model = `Essai${Date.now().toString(36)}`;
      const { file, plates } = writeCsv(model);
      const { context, page, consoleErrors } = await newPage(browser, viewport);
      await login(page, 'user@demo.fr');
      await page.goto(`/vehicules?search=${model}`);
      await expect.poll(() => page.getByRole('button', { name: 'Importer' }).isVisible()).toBe(true);
      expect(await shown(page, plates)).toBe(0);

      await page.getByRole('button', { name: 'Importer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Importer des véhicules' });
      await expect.poll(() => dialog.getByRole('button', { name: 'Choisir un fichier' }).isVisible()).toBe(true);
      await expectAccessible(page);
      await screenshot(page, `import-1-file-${viewport.name}`);

      await dialog.locator('input[type=file]').setInputFiles(file);
      await expect.poll(() => dialog.getByText('flotte-import.csv : 3 lignes, 4 colonnes', { exact: false }).isVisible()).toBe(true);
      // The loose headers are suggested: every required field is linked.
      await expect.poll(() => dialog.getByRole('button', { name: 'Vérifier' }).isEnabled()).toBe(true);
      expect(await dialog.getByLabel('Exemple : Modèle').textContent()).toContain(model);
      await expectAccessible(page);
      await screenshot(page, `import-2-columns-${viewport.name}`);

      await dialog.getByRole('button', { name: 'Vérifier' }).click();
      await expect.poll(() => dialog.getByText('2 lignes valides').isVisible()).toBe(true);
      expect(await dialog.getByText('1 ligne invalide').isVisible()).toBe(true);
      expect(await dialog.getByRole('list', { name: 'Erreurs' }).textContent()).toContain('Ligne 4');
      await expectAccessible(page);
      await screenshot(page, `import-3-check-${viewport.name}`);

      await dialog.getByRole('button', { name: 'Continuer' }).click();
      await expect.poll(() => dialog.getByText('2 véhicules à créer').isVisible()).toBe(true);
      await expectAccessible(page);
      await screenshot(page, `import-4-confirm-${viewport.name}`);

      await dialog.getByRole('button', { name: 'Importer' }).click();
      await expect.poll(() => dialog.getByText('Import terminé.').isVisible()).toBe(true);
      expect((await dialog.textContent()) ?? '').toContain('2 véhicules créés');
      // The list behind the dialog has refreshed: the two vehicles are there (axe after their fade-in).
      await expect.poll(() => shown(page, plates)).toBe(2);
      await page.waitForTimeout(600);
      await expectAccessible(page);
      await screenshot(page, `import-5-result-${viewport.name}`);

      await dialog.getByRole('button', { name: "Annuler l'import" }).click();
      await expect.poll(() => dialog.getByText('Import annulé : 2 lignes rétablies', { exact: false }).isVisible()).toBe(true);
      await screenshot(page, `import-6-reverted-${viewport.name}`);
      await dialog.getByRole('button', { name: 'Fermer' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);
      await expect.poll(() => shown(page, plates)).toBe(0);
      expect(consoleErrors).toEqual([]);
      await context.close();
    });
  }
});

import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// Issue 13's stepper for the other registers and modes (imports.e2e.ts does vehicles): drivers
// from an Excel-FR (Windows-1252) file dropped on the dialog, with their errors downloaded; claims
// from a UTF-8 file on a phone; the fleet compared with an insurer's file (new, changed, one exit
// with its date), then undone from /parameters' « Imports ». One test per flow, as BTP Durand's
// administrator (imports.e2e.ts is a plain member's); each checks the register's list, runs axe
// and photographs the steps at 1366 and 390 px.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A word no demo row holds, lower-case letters only (names, models and references take it). */
const stamp = () => `imp${Date.now().toString(36)}`;
const letters = () => Array.from({ length: 2 }, () => 'ABCDEFGHJKLMNPQRSTVWXYZ'[Math.floor(Math.random() * 23)]).join('');
const plate = () => `${letters()}-${String(Math.floor(100 + Math.random() * 900))}-${letters()}`;
const todayFr = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris' }).format(new Date());

/** Drops `bytes` on `target` as a file dragged from the desktop: dragover then drop, with a DataTransfer. */
async function dropFile(page: Page, target: Locator, bytes: Buffer, name: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ data, fileName }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], fileName, { type: 'text/csv' }));
      return transfer;
    },
    { data: [...bytes], fileName: name },
  );
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** The same screen at 390 px, then back: both widths photographed without a second run. */
async function bothWidths(page: Page, name: string) {
  const before = page.viewportSize() ?? DESKTOP;
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(300);
    await screenshot(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize(before);
  await page.waitForTimeout(300);
}

/**
 * The fleet manager of BTP Durand, an administrator: what a test imported is deleted for good
 * afterwards, which only an administrator may do.
 */
const EMAIL = 'admin2@demo.fr';

/** Removes for good what a test imported into `path` (rows whose `field` holds `word`), and checks nothing is left. */
async function purgeImported(path: string, word: string, field: string) {
  const api = await apiAs(EMAIL);
  await api.purge(path, word, (row) => String(row[field]).includes(word));
  const left = (await api.call('GET', `${path}?search=${word}&withArchived=true`)) as { data: unknown[] };
  expect(left.data).toEqual([]);
}

const texts = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ');

describe('importing into each register', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    // The demo seed is shared: whatever a test imported goes, whether it got to revert it or not.
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('drivers: a Windows-1252 CSV dropped on the dialog, its errors downloaded, the drivers in the list', async () => {
    const word = stamp();
    cleanups.push(() => purgeImported('/api/driver', word, 'lastName'));
    // Excel-FR's « CSV (séparateur : point-virgule) »: Windows-1252 (latin1 holds these letters), `;`, CRLF.
    const csv = Buffer.from(
      [
        'Nom;Prénom;Tél.;E-mail',
        `Lefèvre${word};Hélène;06 12 34 56 78;helene.${word}@exemple.fr`,
        `N'Diaye${word};Aïssatou;+33 7 11 22 33 44;`,
        `Bernard${word};Zoé;pas de numéro;zoe@exemple`,
      ].join('\r\n') + '\r\n',
      'latin1',
    );
    const { context, page, consoleErrors } = await newPage(browser, DESKTOP);
    await login(page, EMAIL);
    await page.goto(`/drivers?search=${word}`);
    await page.getByRole('button', { name: 'Importer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importer des conducteurs' });
    const dropZone = dialog.getByText('Déposez ici un fichier CSV ou Excel (.xlsx)');
    await dropZone.waitFor();

    await dropFile(page, dropZone, csv, 'conducteurs.csv');
    await expect.poll(() => dialog.getByText('conducteurs.csv : 3 lignes, 4 colonnes (séparateur « ; »)', { exact: false }).isVisible()).toBe(true);
    // Windows-1252 read as such: the accents of the sample are right; the loose headers are linked.
    expect(await dialog.getByLabel('Exemple : Nom').textContent()).toContain(`Lefèvre${word}`);
    expect(await dialog.getByLabel('Exemple : Prénom').textContent()).toContain('Hélène · Aïssatou · Zoé');
    await expect.poll(() => dialog.getByRole('button', { name: 'Vérifier' }).isEnabled()).toBe(true);
    await expectAccessible(page);
    await bothWidths(page, 'import-drivers-columns');

    await dialog.getByRole('button', { name: 'Vérifier' }).click();
    await expect.poll(() => dialog.getByText('2 lignes valides').isVisible()).toBe(true);
    expect(await texts(dialog.getByRole('list', { name: 'Erreurs' }))).toContain('Ligne 4 · E-mail : Adresse e-mail invalide');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Télécharger les erreurs' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^erreurs-conducteurs-\d{4}-\d{2}-\d{2}\.csv$/);
    const errors = readFileSync(await download.path());
    expect(errors.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(errors.subarray(3).toString('utf8').split('\r\n')).toEqual([
      'Ligne;Colonne;Erreur',
      '4;E-mail;Adresse e-mail invalide',
      '4;Tél.;Numéro de téléphone invalide (ex. 06 12 34 56 78)',
      '',
    ]);
    await expectAccessible(page);
    await bothWidths(page, 'import-drivers-check');

    await dialog.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => dialog.getByText('2 conducteurs à créer').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Importer' }).click();
    await expect.poll(() => dialog.getByText('Import terminé.').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    const rows = page.getByRole('main').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const listed = (await rows.allTextContents()).join(' | ');
    expect(listed).toContain(`Lefèvre${word}`);
    expect(listed).toContain('06 12 34 56 78');
    expect(listed).toContain(`N'Diaye${word}`);
    expect(listed).toContain('07 11 22 33 44');
    await expectAccessible(page);
    await bothWidths(page, 'import-drivers-list');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('claims: a UTF-8 statement imported on a phone, the claims in the list', async () => {
    const word = stamp();
    cleanups.push(() => purgeImported('/api/sinister', word, 'sinisterIntermediateRef'));
    const { context, page, consoleErrors } = await newPage(browser, PHONE);
    await login(page, EMAIL);
    await page.goto(`/sinisters?search=${word}`);
    await page.getByRole('button', { name: 'Importer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importer des sinistres' });
    await dialog.getByRole('button', { name: 'Choisir un fichier' }).waitFor();
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'bordereau.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'N° sinistre;Date de survenance;Ville;Coût total;Resp.;Circonstances',
          `${word}-1;${todayFr()};Saint-Étienne;1 234,56 €;50 %;"Choc arrière; feu rouge"`,
          `${word}-2;${todayFr()};Lyon;"2 500,00";0 %;Bris de glace`,
          `${word}-3;31/02/2026;Paris;10;;Date impossible`,
        ].join('\r\n') + '\r\n',
        'utf8',
      ),
    });
    await expect.poll(() => dialog.getByText('bordereau.csv : 3 lignes, 6 colonnes', { exact: false }).isVisible()).toBe(true);
    expect(await dialog.getByText('Étape 2 sur 5 : Colonnes').isVisible()).toBe(true);
    await expect.poll(() => dialog.getByRole('button', { name: 'Vérifier' }).isEnabled()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'import-claims-columns-390');

    await dialog.getByRole('button', { name: 'Vérifier' }).click();
    await expect.poll(() => dialog.getByText('2 lignes valides').isVisible()).toBe(true);
    expect(await texts(dialog.getByRole('list', { name: 'Erreurs' }))).toContain('Ligne 4');
    await expectAccessible(page);
    await screenshot(page, 'import-claims-check-390');
    await dialog.getByRole('button', { name: 'Continuer' }).click();
    await expect.poll(() => dialog.getByText('2 sinistres à créer').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Importer' }).click();
    await expect.poll(() => dialog.getByText('Import terminé.').isVisible()).toBe(true);
    expect(await texts(dialog)).toContain('2 sinistres créés');
    await screenshot(page, 'import-claims-result-390');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // On a phone the claims are cards: both references, their city and cost.
    const main = page.getByRole('main');
    await expect.poll(() => main.getByText(`${word}-1`).count()).toBe(1);
    expect(await main.getByText(`${word}-2`).count()).toBe(1);
    expect(await main.getByText(`${word}-3`).count()).toBe(0);
    expect(await texts(main)).toContain('1 234,56 €');
    await page.waitForTimeout(600);
    await expectAccessible(page);
    await bothWidths(page, 'import-claims-list');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('vehicles, compare mode: new, changed and one exit with its date applied; then undone from /parameters', async () => {
    const word = stamp();
    const api = await apiAs(EMAIL);
    cleanups.push(() => purgeImported('/api/vehicule', word, 'model'));
    const [kept, leaving, arriving] = [plate(), plate(), plate()];
    await api.call('POST', '/api/vehicule', { immatriculation: kept, brand: 'Renault', model: `Kangoo${word}`, type: 'VUL', entryDate: '2024-01-15' });
    await api.call('POST', '/api/vehicule', { immatriculation: leaving, brand: 'Peugeot', model: `Partner${word}`, type: 'VUL', entryDate: '2023-05-02' });

    const { context, page, consoleErrors } = await newPage(browser, DESKTOP);
    await login(page, EMAIL);
    await page.goto(`/vehicules?search=${word}`);
    const rows = page.getByRole('main').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByRole('button', { name: 'Importer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importer des véhicules' });
    await dialog.getByRole('button', { name: 'Choisir un fichier' }).waitFor();
    // The insurer's view of the fleet: the Kangoo became a van, an Iveco came, the Partner is not there.
    await dialog.locator('input[type=file]').setInputFiles({
      name: `flotte-${word}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(['Immat.;Marque;Modèle', `${kept};Renault;Kangoo${word}Van`, `${arriving};Iveco;Daily${word}`].join('\r\n') + '\r\n', 'latin1'),
    });
    await expect.poll(() => dialog.getByText(`flotte-${word}.csv : 2 lignes`, { exact: false }).isVisible()).toBe(true);
    await dialog.getByRole('radio', { name: /Comparer avec la flotte/ }).check();
    await dialog.getByRole('button', { name: 'Vérifier' }).click();
    await expect.poll(() => dialog.getByText('2 lignes valides').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Continuer' }).click();

    const added = dialog.getByRole('region', { name: 'Nouveaux véhicules' });
    const changed = dialog.getByRole('region', { name: 'Véhicules modifiés' });
    const missing = dialog.getByRole('region', { name: 'Absents du fichier' });
    await expect.poll(() => added.getByRole('checkbox', { name: `${arriving} — Iveco Daily${word}` }).isChecked()).toBe(true);
    expect(await changed.getByRole('checkbox', { name: new RegExp(`^${kept} — Renault Kangoo${word}Van`) }).isChecked()).toBe(true);
    expect(await texts(changed)).toContain(`Modèle : Kangoo${word} → Kangoo${word}Van`);
    // Every active vehicle of the fleet absent from the file is proposed; none is ticked.
    const exit = missing.getByRole('checkbox', { name: `Sortie de ${leaving} — Peugeot Partner${word}` });
    expect(await exit.isChecked()).toBe(false);
    await exit.check();
    // The app's French date field: the day, then the month and the year, as a French user types them.
    await missing.getByLabel('Date de sortie').first().hover(); // fetches the picker if it is not there yet
    const day = missing.getByRole('spinbutton', { name: 'Jour' });
    await day.click();
    await page.keyboard.type('30062025');
    await expect.poll(() => missing.innerText()).toMatch(/30\s*\/\s*06\s*\/\s*2025/);
    await expectAccessible(page);
    await bothWidths(page, 'import-compare-confirm');

    await dialog.getByRole('button', { name: 'Importer' }).click();
    await expect.poll(() => dialog.getByText('Import terminé.').isVisible()).toBe(true);
    const result = await texts(dialog);
    for (const line of ['1 véhicule créé', '1 véhicule mis à jour', '1 véhicule sorti de la flotte']) expect(result).toContain(line);
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    await expect.poll(() => rows.count()).toBe(3);
    const row = (plateText: string) => rows.filter({ hasText: plateText });
    expect(await texts(row(arriving))).toContain(`Daily${word}`);
    expect(await texts(row(kept))).toContain(`Kangoo${word}Van`);
    expect(await texts(row(leaving))).toContain('30/06/2025');
    await expectAccessible(page);
    await screenshot(page, 'import-compare-list-1366');

    // /parameters: the import heads the history, and its author undoes it there.
    await page.goto('/parameters#imports');
    const history = page.getByRole('region', { name: 'Imports', exact: true });
    const first = history.locator('tbody tr').filter({ hasText: `flotte-${word}.csv` });
    await expect.poll(() => first.count()).toBe(1);
    const line = await texts(first);
    for (const part of ['Véhicules', 'Importé, annulable jusqu’au']) expect(line).toContain(part);
    await expectAccessible(page);
    await bothWidths(page, 'import-history');
    await first.getByRole('button', { name: new RegExp(`^Annuler l’import flotte-${word}\\.csv`) }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Annuler l’import' }).click();
    await expect.poll(() => history.getByText(/annulé : 3 lignes rétablies/).isVisible()).toBe(true);
    await expect.poll(() => texts(first)).toContain('Annulé le');
    expect(await first.getByRole('button').count()).toBe(0);
    await screenshot(page, 'import-history-reverted-1366');

    // The fleet as it was: the Iveco gone, the Kangoo's model and the Partner's exit put back.
    await page.goto(`/vehicules?search=${word}`);
    await expect.poll(() => rows.count()).toBe(2);
    expect(await texts(row(kept))).toContain(`Kangoo${word}`);
    expect(await texts(row(kept))).not.toContain('Van');
    expect(await texts(row(leaving))).not.toContain('30/06/2025');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

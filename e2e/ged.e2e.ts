import { readFile } from 'node:fs/promises';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// The document management (issue 14) on the real API and storage, as BTP Durand's administrator:
// every folder of the run is under one root folder named after it, purged at the end.

let browser: Browser;
const stamp = Date.now().toString(36);
const ROOT = `Essai GED ${stamp}`;
const SUB = 'Constats 2026';
const EMAIL = 'admin2@demo.fr';

/** A PNG of `width`×`height` pixels, a blue-to-orange gradient: something to see in the preview. */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * (width * 3 + 1) + 1 + x * 3;
      const t = x / (width - 1);
      rows.set([Math.round(30 + 220 * t), Math.round(100 + 60 * (y / height)), Math.round(220 - 200 * t)], at);
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const PNG = makePng(480, 320);

/** A one-page PDF with its cross-reference table right, so Chromium's viewer opens it. */
function makePdf(text: string, padding = 0): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 30 100 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 30 100 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // A comment after the end: a bigger file (the upload's progress), the same document.
  return Buffer.concat([Buffer.from(body, 'latin1'), Buffer.alloc(padding, 0x25)]);
}

const SMALL_PDF = makePdf('Constat amiable');
const BIG_PDF = makePdf('Rapport d expertise', 6 * 1024 * 1024);

const list = (page: Page) => page.getByRole('table', { name: /^(Contenu de|Résultats pour)/ });
const row = (page: Page, name: string) => list(page).getByRole('row', { name: new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });

async function rowMenu(page: Page, name: string, item: string) {
  // Once the list has settled: a folder shown from the cache is asked again as it opens.
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  await page.getByRole('button', { name: `Actions pour ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

async function newFolder(page: Page, name: string) {
  await page.getByRole('button', { name: 'Nouveau dossier' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/Nom du dossier/).fill(name);
  await dialog.getByRole('button', { name: 'Créer' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => page.getByRole('button', { name: `Voir ${name}`, exact: true }).count()).toBe(1);
}

/**
 * Axe on the page once the snackbar of the last action is closed: one still fading out (its
 * 3.5 s are up while a dialog opens) is read at half its opacity, a false contrast failure.
 */
async function accessible(page: Page) {
  const close = page.locator('.MuiSnackbar-root').getByRole('button', { name: 'Fermer' });
  if ((await close.count()) > 0) await close.click().catch(() => undefined);
  await expect.poll(() => page.locator('.MuiSnackbar-root').count()).toBe(0);
  await expectAccessible(page);
}

async function settle(page: Page) {
  // The dialog's opening transition, for the screenshot only.
  await page.waitForTimeout(400);
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  // Whatever the tests got to: the run's root folder and anything of it in the trash, deleted for good.
  const api = await apiAs(EMAIL);
  const found = (await api.call('GET', `/api/document/ged/paginated?${new URLSearchParams({ search: stamp, limit: '100' })}`)) as { data: { uuid: string; parent: string | null }[] };
  for (const doc of found.data.filter((d) => d.parent === null)) {
    await api.call('DELETE', `/api/document/${doc.uuid}?recursive=true`).catch(() => undefined);
  }
  const trash = (await api.call('GET', '/api/document/trash?limit=100')) as { data: { uuid: string; folderName: string | null; media: { name: string } | null }[] };
  for (const doc of trash.data.filter((d) => (d.folderName ?? d.media?.name ?? '').includes(stamp) || d.media?.name.includes(stamp))) {
    await api.call('DELETE', `/api/document/${doc.uuid}/permanent`).catch(() => undefined);
  }
});

describe('document management (/ged)', () => {
  it('nests folders, uploads with progress, previews, downloads, renames, moves, deletes and restores', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, EMAIL);
    await page.getByRole('link', { name: 'Gestion documentaire' }).click();
    await page.waitForURL('**/ged');
    await expect.poll(() => page.getByRole('heading', { name: 'Gestion documentaire', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.title()).toMatch(/^Gestion documentaire/);
    expect(await page.getByRole('link', { name: 'Médiathèque' }).getAttribute('href')).toBe('/media');

    // Nested folders and the breadcrumb.
    await newFolder(page, ROOT);
    await page.getByRole('button', { name: `Voir ${ROOT}`, exact: true }).click();
    await page.waitForURL(/parent=/);
    const rootUrl = page.url();
    await expect.poll(() => page.getByText('Ce dossier est vide.', { exact: false }).isVisible()).toBe(true);
    await screenshot(page, 'ged-empty-folder');
    await newFolder(page, SUB);
    await page.getByRole('button', { name: `Voir ${SUB}`, exact: true }).click();
    const crumbs = page.getByRole('navigation', { name: 'Fil d’Ariane' });
    await expect.poll(() => crumbs.innerText()).toMatch(new RegExp(`Mes documents\\s*›\\s*${ROOT}\\s*›\\s*${SUB}`));
    expect(await crumbs.locator('[aria-current="page"]').innerText()).toBe(SUB);

    // Upload three files into the sub-folder, the network slowed so the percent shows.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
    const percents = new Set<string>();
    const watcher = setInterval(() => {
      void page
        .locator('.MuiSnackbar-root')
        .innerText({ timeout: 200 })
        .then((text) => {
          const percent = /(\d+)\s%/.exec(text)?.[1];
          if (percent) percents.add(percent);
        })
        .catch(() => undefined);
    }, 100);
    await page.locator('input[type="file"]').first().setInputFiles([
      { name: `photo ${stamp}.png`, mimeType: 'image/png', buffer: PNG },
      { name: 'constat.pdf', mimeType: 'application/pdf', buffer: SMALL_PDF },
      { name: 'expertise.pdf', mimeType: 'application/pdf', buffer: BIG_PDF },
    ]);
    await expect.poll(() => page.getByRole('progressbar', { name: /Envoi/ }).count(), { timeout: 10_000 }).toBe(1);
    await screenshot(page, 'ged-upload-progress');
    await expect.poll(() => page.getByText(/3 fichiers ajoutés/).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    clearInterval(watcher);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect([...percents].some((percent) => Number(percent) > 0 && Number(percent) < 100)).toBe(true);
    await expect.poll(() => list(page).locator('tbody tr').count()).toBe(3);
    expect(await row(page, 'expertise.pdf').innerText()).toMatch(/6\s?Mo/);
    await accessible(page);
    await screenshot(page, 'ged');

    // Preview: the image, then the PDF, both from blob URLs fetched with the bearer.
    await page.getByRole('button', { name: `Voir photo ${stamp}.png`, exact: true }).click();
    let dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.locator('img[src^="blob:"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
    await settle(page);
    await accessible(page);
    await screenshot(page, 'ged-preview-image');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await rowMenu(page, 'constat.pdf', 'Aperçu');
    dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.locator('[src^="blob:"], [data^="blob:"]').count()).toBe(1);
    await settle(page);
    await screenshot(page, 'ged-preview-pdf');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Download: the very bytes sent.
    const downloading = page.waitForEvent('download');
    await rowMenu(page, 'constat.pdf', 'Télécharger');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('constat.pdf');
    expect(Buffer.compare(await readFile((await download.path())!), SMALL_PDF)).toBe(0);

    // Rename.
    await rowMenu(page, 'constat.pdf', 'Renommer');
    dialog = page.getByRole('dialog', { name: 'Renommer « constat.pdf »' });
    await dialog.getByLabel(/Nouveau nom/).fill('constat/faux');
    await dialog.getByRole('button', { name: 'Renommer' }).click();
    await expect.poll(() => dialog.getByText('Le nom ne peut pas contenir les caractères', { exact: false }).isVisible()).toBe(true);
    await dialog.getByLabel(/Nouveau nom/).fill(`constat amiable ${stamp}.pdf`);
    await settle(page);
    await screenshot(page, 'ged-rename');
    await dialog.getByRole('button', { name: 'Renommer' }).click();
    await expect.poll(() => page.getByRole('button', { name: `Voir constat amiable ${stamp}.pdf`, exact: true }).count()).toBe(1);

    // Move the big PDF up into the run's root folder, through the picker.
    await rowMenu(page, 'expertise.pdf', 'Déplacer');
    dialog = page.getByRole('dialog', { name: 'Déplacer « expertise.pdf »' });
    await dialog.getByRole('button', { name: `Ouvrir ${ROOT}` }).click();
    await expect.poll(() => dialog.getByRole('button', { name: `Ouvrir ${SUB}` }).isVisible()).toBe(true);
    await settle(page);
    await accessible(page);
    await screenshot(page, 'ged-move');
    await dialog.getByRole('button', { name: 'Déplacer ici' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Voir expertise.pdf', exact: true }).count()).toBe(0);
    await crumbs.getByRole('link', { name: ROOT }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Voir expertise.pdf', exact: true }).count()).toBe(1);
    // The root folder cannot go into itself: its own row is not offered in the picker.
    await page.getByRole('link', { name: 'Mes documents' }).click();
    await rowMenu(page, ROOT, 'Déplacer');
    dialog = page.getByRole('dialog', { name: `Déplacer « ${ROOT} »` });
    expect(await dialog.getByRole('button', { name: `${ROOT} (le dossier déplacé)` }).getAttribute('aria-disabled')).toBe('true');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    // Back returns into the folder left.
    await page.goBack();
    await page.waitForURL((url) => url.toString() === rootUrl);

    // Search across the tree.
    await page.getByRole('searchbox', { name: 'Rechercher un document' }).fill(stamp);
    await expect.poll(() => page.getByRole('heading', { name: `Résultats pour « ${stamp} » dans tous les dossiers` }).isVisible()).toBe(true);
    await expect.poll(() => list(page).locator('tbody tr').count()).toBe(3);
    expect(await row(page, `photo ${stamp}.png`).innerText()).toContain('Image');
    expect(await row(page, ROOT).innerText()).toContain('Dossier');
    await accessible(page);
    await screenshot(page, 'ged-search');
    await page.getByRole('button', { name: /^Revenir à/ }).click();
    await page.waitForURL((url) => !url.searchParams.has('search'));

    // Delete a file, then restore it from the trash.
    await page.getByRole('button', { name: `Voir ${SUB}`, exact: true }).click();
    await rowMenu(page, `photo ${stamp}.png`, 'Supprimer');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
    await expect.poll(() => page.getByText('Fichier mis à la corbeille').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: `Voir photo ${stamp}.png`, exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Corbeille' }).click();
    dialog = page.getByRole('dialog', { name: 'Corbeille' });
    await dialog.getByRole('button', { name: `Restaurer photo ${stamp}.png` }).click();
    await expect.poll(() => page.getByText('Document restauré').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect.poll(() => page.getByRole('button', { name: `Voir photo ${stamp}.png`, exact: true }).count()).toBe(1);

    // An expiry date ten days ahead: the orange chip, and « À renouveler » links to the folder.
    const soon = new Date(Date.now() + 10 * 86_400_000);
    const typed = `${String(soon.getDate()).padStart(2, '0')}${String(soon.getMonth() + 1).padStart(2, '0')}${soon.getFullYear()}`;
    await rowMenu(page, `photo ${stamp}.png`, 'Date d’expiration');
    dialog = page.getByRole('dialog', { name: `Date d’expiration de « photo ${stamp}.png »` });
    // A desktop fetches the date pickers once idle (LazyDateField): the day is there to type in.
    await dialog.getByRole('spinbutton', { name: 'Jour' }).click();
    await page.keyboard.type(typed);
    await settle(page);
    await accessible(page);
    await screenshot(page, 'ged-expiry-dialog');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => row(page, `photo ${stamp}.png`).innerText()).toMatch(/Expire le \d+ \S+ \d{4}/);
    const panel = page.getByRole('region', { name: 'À renouveler' });
    await expect.poll(() => panel.getByRole('link', { name: `photo ${stamp}.png : ouvrir son dossier` }).getAttribute('href')).toMatch(/^\/ged\?parent=/);
    await accessible(page);
    await screenshot(page, 'ged-expiring');

    // A folder that is not empty asks again; then it goes, and the administrator deletes it for good.
    await crumbs.getByRole('link', { name: ROOT }).click();
    await rowMenu(page, SUB, 'Supprimer');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
    const again = page.getByRole('alertdialog', { name: 'Supprimer le dossier et tout son contenu ?' });
    await expect.poll(() => again.isVisible()).toBe(true);
    await settle(page);
    await accessible(page);
    await screenshot(page, 'ged-delete-folder');
    await again.getByRole('button', { name: 'Tout supprimer' }).click();
    await expect.poll(() => page.getByRole('button', { name: `Voir ${SUB}`, exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Corbeille' }).click();
    dialog = page.getByRole('dialog', { name: 'Corbeille' });
    await expect.poll(() => dialog.getByRole('button', { name: `Restaurer ${SUB}` }).isVisible()).toBe(true);
    await settle(page);
    await accessible(page);
    await screenshot(page, 'ged-trash');
    await dialog.getByRole('button', { name: `Supprimer définitivement ${SUB}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer définitivement' }).click();
    await expect.poll(() => dialog.getByRole('button', { name: `Restaurer ${SUB}` }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Fermer' }).click();

    // The one refusal of the run: the folder that was not empty (409), before « tout son contenu ».
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
    await context.close();
  }, 180_000);

  it('works at 390 px: cards, the menu, the dialogs, nothing wider than the screen', async () => {
    const api = await apiAs(EMAIL);
    const root = (await api.call('POST', '/api/document/folder', { folderName: `${ROOT} mobile`, parent: null })) as { uuid: string };
    await api.call('POST', '/api/document/folder', { folderName: 'Cartes grises', parent: root.uuid });
    const { page, context, consoleErrors } = await newPage(browser, { width: 390, height: 844 });
    await login(page, EMAIL);
    await page.goto(`/ged?parent=${root.uuid}`);
    const cards = page.getByRole('list', { name: `Contenu de « ${ROOT} mobile »` });
    await expect.poll(() => cards.getByRole('button', { name: 'Voir Cartes grises' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await accessible(page);
    await screenshot(page, 'ged-390');

    await page.locator('input[type="file"]').first().setInputFiles([{ name: `carte ${stamp}.png`, mimeType: 'image/png', buffer: PNG }]);
    await expect.poll(() => cards.getByRole('button', { name: `Voir carte ${stamp}.png` }).isVisible()).toBe(true);
    await page.getByRole('button', { name: `Actions pour carte ${stamp}.png` }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Date d’expiration' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Nouveau dossier' }).click();
    await settle(page);
    await accessible(page);
    await screenshot(page, 'ged-390-new-folder');
    await page.getByRole('dialog').getByRole('button', { name: 'Annuler' }).click();

    await page.getByRole('searchbox', { name: 'Rechercher un document' }).fill(stamp);
    await expect.poll(() => page.getByRole('heading', { name: `Résultats pour « ${stamp} » dans tous les dossiers` }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'ged-390-search');

    await page.getByRole('button', { name: 'Corbeille' }).click();
    await settle(page);
    await accessible(page);
    await screenshot(page, 'ged-390-trash');
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 120_000);
});

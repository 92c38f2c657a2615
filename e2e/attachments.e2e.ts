import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// Attachments of drivers, vehicles and claims (issue 14, decision 030), on the real built app: a
// constat attached to a claim from its details, seen in the GED and in the claim's pack; a photo
// taken for a vehicle on a phone; the three details dialogs with their files, at 1366 and 390 px.

const EMAIL = 'admin2@demo.fr';
const STAMP = String(Date.now()).slice(-6);
const REF = `PJ-E2E-${STAMP}`;
const CONSTAT = `Constat amiable ${STAMP}.pdf`;
const PLATE = `PJ-${STAMP.slice(-3)}-EZ`;
/** A driver of this run only: « Essai-Bcdefg » (letters from the stamp). */
const DRIVER_NAME = `Essai-${[...STAMP].map((digit, i) => String.fromCharCode((i === 0 ? 65 : 97) + Number(digit))).join('')}`;

/** A one-page PDF Chromium's viewer opens. */
const PDF = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj',
    '4 0 obj << /Length 44 >> stream',
    'BT /F1 18 Tf 40 100 Td (Constat amiable) Tj ET',
    'endstream endobj',
    '5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n'),
  'latin1',
);
/** A 1×1 PNG, as a phone's camera would give a (larger) picture. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The names of a ZIP's entries, read from its central directory. */
function zipEntries(zip: Buffer): string[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('pas un fichier ZIP');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('répertoire central illisible');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** Records every progress bar the page shows from now on (a snackbar's percent comes and goes quickly). */
async function watchProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      for (const bar of Array.from(document.querySelectorAll('[role="progressbar"][aria-valuenow]'))) {
        seen.push(`${bar.getAttribute('aria-label')} ${bar.getAttribute('aria-valuenow')} %`);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Doc = { uuid: string; kind: string; folderName: string | null; media: { name: string } | null };

/** Takes the test's files out of the GED for good: its automatic folders and what is in them. */
async function purgeDocuments(api: Awaited<ReturnType<typeof apiAs>>, names: string[]) {
  for (const name of names) {
    const found = (await api.call('GET', `/api/document/ged/paginated?search=${encodeURIComponent(name)}&limit=100`)) as { data: Doc[] };
    for (const doc of found.data) {
      await api.call('DELETE', `/api/document/${doc.uuid}?recursive=true`).catch(() => undefined);
      await api.call('DELETE', `/api/document/${doc.uuid}/permanent`).catch(() => undefined);
    }
  }
  const trash = (await api.call('GET', '/api/document/trash?limit=100')) as { data: Doc[] };
  for (const doc of trash.data.filter((d) => names.some((name) => (d.folderName ?? d.media?.name ?? '').includes(name)))) {
    await api.call('DELETE', `/api/document/${doc.uuid}/permanent`).catch(() => undefined);
  }
  // The registers' root folders the attachments made, when nothing is left in them.
  const root = (await api.call('GET', '/api/document/ged/paginated?limit=100')) as { data: Doc[] };
  for (const folder of root.data.filter((d) => ['Sinistres', 'Véhicules', 'Conducteurs'].includes(d.folderName ?? ''))) {
    const content = (await api.call('GET', `/api/document/ged/paginated?parent=${folder.uuid}`)) as { total: number };
    if (content.total > 0) continue;
    await api.call('DELETE', `/api/document/${folder.uuid}`).catch(() => undefined);
    await api.call('DELETE', `/api/document/${folder.uuid}/permanent`).catch(() => undefined);
  }
}

afterEach(async () => {
  const api = await apiAs(EMAIL);
  await api.purge('/api/sinister', REF, (claim) => claim.sinisterIntermediateRef === REF);
  await api.purge('/api/vehicule', PLATE.replace(/-/g, ''), (vehicule) => String(vehicule.immatriculation).replace(/-/g, '') === PLATE.replace(/-/g, ''));
  await api.purge('/api/driver', DRIVER_NAME, (driver) => driver.lastName === DRIVER_NAME);
  await purgeDocuments(api, [REF, STAMP, PLATE, DRIVER_NAME, 'photo-e2e', 'Carte verte E2E', 'Permis E2E', 'Rapport expert E2E']);
});

describe('attachments', { timeout: 240_000 }, () => {
  it('attaches a constat to a claim from its details: progress, list, preview, GED, pack, removal and undo', async () => {
    const api = await apiAs(EMAIL);
    const vehicules = (await api.call('GET', '/api/vehicule/choices?limit=1')) as { data: { uuid: string }[] };
    const today = new Date().toISOString().slice(0, 10);
    const claim = (await api.call('POST', '/api/sinister', { vehicule: vehicules.data[0]!.uuid, sinisterDate: today, sinisterIntermediateRef: REF })) as { uuid: string };

    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, EMAIL);
    await page.goto(`/sinisters?search=${REF}`);
    await page.getByRole('button', { name: /^Voir / }).first().click();
    const dialog = page.getByRole('dialog', { name: /^Sinistre du / });
    await expect.poll(() => dialog.getByText('Aucun document').isVisible()).toBe(true);

    const progress = await watchProgress(page);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Ajouter des fichiers' }).click()]);
    expect(chooser.isMultiple()).toBe(true);
    // A scan's size (3 MB) on a network slowed to 2 MB/s, as a phone's: the upload lasts long
    // enough for its percent to be seen even when the snackbar's own module is slow to arrive.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
    await chooser.setFiles({ name: CONSTAT, mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.alloc(3_000_000, 0x20)]) });
    await expect.poll(() => page.getByText('Fichier ajouté').isVisible()).toBe(true);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    // The loading snackbar's percent was shown on the way.
    const seen = await progress();
    expect(seen.some((p) => /^(Envoi du fichier|Enregistrement…) \d+ %$/.test(p)), seen.join(', ')).toBe(true);
    const files = dialog.getByRole('list', { name: 'Fichiers joints' });
    await expect.poll(() => files.getByText(CONSTAT).isVisible()).toBe(true);
    await expect.poll(() => files.getByText('2,9 Mo').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'attachments-claim-1366');

    // Preview: the PDF in the viewer, from a blob URL fetched with the session.
    await files.getByRole('button', { name: `Aperçu de ${CONSTAT}` }).click();
    const preview = page.getByRole('dialog', { name: CONSTAT });
    const frame = preview.locator(`iframe[title="Aperçu de ${CONSTAT}"]`);
    await expect.poll(async () => (await frame.getAttribute('src')) ?? '').toMatch(/^blob:/);
    await screenshot(page, 'attachments-claim-preview');
    await preview.getByRole('button', { name: 'Fermer' }).last().click();
    await expect.poll(() => preview.isVisible()).toBe(false);

    // The GED has it, under the claim's automatic folder.
    const found = (await api.call('GET', `/api/document/ged/paginated?search=${encodeURIComponent(CONSTAT)}`)) as { data: (Doc & { parent: string })[] };
    expect(found.data.map((d) => d.media?.name)).toEqual([CONSTAT]);
    const chain = (await api.call('GET', `/api/document/ancestors/${found.data[0]!.parent}`)) as { folderName: string }[];
    expect(chain.map((folder) => folder.folderName)).toEqual(['Sinistres', REF]);

    // The claim's pack: its summary and the constat.
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Télécharger le dossier' }).click()]);
    expect(download.suggestedFilename()).toBe(`Sinistre-${REF}-${today}.zip`);
    const entries = zipEntries(readFileSync((await download.path())!));
    expect(entries).toEqual(expect.arrayContaining(['Résumé du sinistre.pdf', `Pièces jointes/${CONSTAT}`]));
    await expect.poll(() => page.getByText('Dossier téléchargé').isVisible()).toBe(true);

    // « Retirer »: after a confirmation, to the trash; « Annuler » brings it back.
    await files.getByRole('button', { name: `Retirer ${CONSTAT}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Retirer « ${CONSTAT} » ?` });
    await confirm.getByRole('button', { name: 'Retirer' }).click();
    await expect.poll(() => page.getByText('Fichier retiré').isVisible()).toBe(true);
    await expect.poll(() => dialog.getByText('Aucun document').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Annuler' }).click();
    await expect.poll(() => page.getByText('Fichier rétabli').isVisible()).toBe(true);
    await expect.poll(() => files.getByText(CONSTAT).isVisible()).toBe(true);
    const attached = async () => ((await api.call('GET', `/api/sinister/${claim.uuid}/documents`)) as { data: Doc[] }).data.map((d) => d.media?.name);
    expect(await attached()).toEqual([CONSTAT]);

    // The list's row carries its files too (the register's page was refreshed).
    const page1 = (await api.call('GET', `/api/sinister?search=${REF}`)) as { data: { documents: { name: string }[] }[] };
    expect(page1.data[0]!.documents.map((d) => d.name)).toEqual([CONSTAT]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('takes a photo for a vehicle on a 390 px phone', async () => {
    const api = await apiAs(EMAIL);
    await api.call('POST', '/api/vehicule', { immatriculation: PLATE, brand: 'Renault', model: 'Kangoo', type: 'VUL' });

    const { page, context, consoleErrors } = await newPage(browser, { width: 390, height: 844 });
    await login(page, EMAIL);
    await page.goto(`/vehicules?search=${PLATE.replace(/-/g, '')}`);
    await page.getByRole('button', { name: /^Voir / }).first().click();
    const dialog = page.getByRole('dialog', { name: PLATE });
    const camera = dialog.getByRole('button', { name: 'Prendre une photo' });
    await expect.poll(() => camera.isVisible()).toBe(true);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), camera.click()]);
    expect(chooser.isMultiple()).toBe(false);
    expect(await chooser.element().getAttribute('capture')).toBe('environment');
    expect(await chooser.element().getAttribute('accept')).toBe('image/*');
    await chooser.setFiles({ name: 'photo-e2e.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => page.getByText('Fichier ajouté').isVisible()).toBe(true);
    const files = dialog.getByRole('list', { name: 'Fichiers joints' });
    await expect.poll(() => files.getByText('photo-e2e.png').isVisible()).toBe(true);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, 'attachments-vehicule-390');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('shows the files of a driver, a vehicle and a claim at 1366 and 390 px', async () => {
    const api = await apiAs(EMAIL);
    const vehicule = (await api.call('POST', '/api/vehicule', { immatriculation: PLATE, brand: 'Renault', model: 'Kangoo', type: 'VUL' })) as { uuid: string };
    const today = new Date().toISOString().slice(0, 10);
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const claim = (await api.call('POST', '/api/sinister', { vehicule: vehicule.uuid, sinisterDate: today, sinisterIntermediateRef: REF })) as { uuid: string };
    const driver = (await api.call('POST', '/api/driver', { firstName: 'Hélène', lastName: DRIVER_NAME })) as { uuid: string; firstName: string; lastName: string };
    const attach = async (path: string, name: string, type: string, content: Buffer, expiresOn?: string) => {
      const [doc] = await api.upload(path, [{ name, type, content }]);
      if (expiresOn) await api.call('PATCH', `/api/document/${doc!.uuid}`, { expiresOn });
    };
    await attach(`/api/driver/${driver.uuid}/documents`, 'Permis E2E.pdf', 'application/pdf', PDF, inDays(12));
    await attach(`/api/vehicule/${vehicule.uuid}/documents`, 'Carte verte E2E.pdf', 'application/pdf', PDF, inDays(-2));
    await attach(`/api/vehicule/${vehicule.uuid}/documents`, 'photo-e2e.png', 'image/png', PNG);
    await attach(`/api/sinister/${claim.uuid}/documents`, `${CONSTAT}`, 'application/pdf', PDF);
    await attach(`/api/sinister/${claim.uuid}/documents`, 'Rapport expert E2E.pdf', 'application/pdf', PDF, inDays(200));

    for (const width of [1366, 390]) {
      const { page, context, consoleErrors } = await newPage(browser, { width, height: width > 600 ? 900 : 844 });
      await login(page, EMAIL);
      for (const [path, search, name, shot] of [
        ['/drivers', driver.lastName, `${driver.firstName} ${driver.lastName}`, 'driver'],
        ['/vehicules', PLATE.replace(/-/g, ''), PLATE, 'vehicule'],
        ['/sinisters', REF, /^Sinistre du /, 'claim'],
      ] as const) {
        await page.goto(`${path}?search=${encodeURIComponent(search)}`);
        await page.getByRole('button', { name: /^Voir / }).first().click();
        const dialog = page.getByRole('dialog', { name });
        const files = dialog.getByRole('list', { name: 'Fichiers joints' });
        // The full items: sizes shown.
        await expect.poll(() => files.getByText(/octets|Ko/).first().isVisible()).toBe(true);
        await files.scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await expectAccessible(page);
        await screenshot(page, `attachments-${shot}-dialog-${width}`);
        if (shot === 'claim') {
          // The edit form lists them too.
          await dialog.getByRole('button', { name: 'Modifier' }).click();
          const form = page.getByRole('dialog', { name: 'Modifier le sinistre' });
          const formFiles = form.getByRole('list', { name: 'Fichiers joints' });
          await expect.poll(() => formFiles.getByText(CONSTAT).isVisible()).toBe(true);
          await formFiles.scrollIntoViewIfNeeded();
          await expectAccessible(page);
          await screenshot(page, `attachments-claim-form-${width}`);
          await form.getByRole('button', { name: 'Annuler' }).click();
          await expect.poll(() => form.isVisible()).toBe(false);
          continue;
        }
        await dialog.getByRole('button', { name: 'Fermer' }).first().click();
        await expect.poll(() => dialog.isVisible()).toBe(false);
      }
      expect(consoleErrors).toEqual([]);
      await context.close();
    }
  });
});

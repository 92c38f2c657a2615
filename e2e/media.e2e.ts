import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { baseUrl, DEMO_PASSWORD, expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// The media library (/media, issue 14) on the built app: files uploaded through the API (images
// drawn in the browser, a PDF, a CSV, a photo attached to a demo vehicle), then filtered by kind
// and attachment, previewed and downloaded. Everything uploaded is deleted for good afterwards.

const CSRF = { 'x-requested-with': 'flotteassur' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const CSV = Buffer.from('Immatriculation;Marque\nAB-123-CD;Renault\n');

type Uploaded = { uuid: string; media: { name: string } };
type Listed = { uuid: string; kind: string; folderName: string | null; media: { name: string } | null };

let browser: Browser;
let token: string;
let member: Awaited<ReturnType<typeof apiAs>>;
let plate: string;
/** The GED root's entries before the test: whatever is new at the end (the files, « Véhicules ») goes. */
let rootBefore: Set<string>;

async function tokenOf(email: string): Promise<string> {
  const response = await fetch(`${baseUrl()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...CSRF },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`connexion de ${email} refusée (${response.status})`);
  return ((await response.json()) as { tokens: { access_token: string } }).tokens.access_token;
}

async function upload(path: string, files: { name: string; bytes: Buffer }[]): Promise<Uploaded[]> {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.bytes)]), file.name);
  const response = await fetch(`${baseUrl()}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...CSRF }, body: form });
  if (response.status !== 201) throw new Error(`envoi refusé (${response.status}) : ${await response.text()}`);
  return ((await response.json()) as { data: Uploaded[] }).data;
}

/** Pictures drawn by the browser itself, as JPEG, PNG and WebP: something to see in the thumbnails. */
async function drawPictures(page: Page): Promise<Record<'jpeg' | 'png' | 'webp', Buffer>> {
  const encoded = await page.evaluate(() => {
    const draw = (type: string, width: number, height: number, from: string, to: string) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d')!;
      const gradient = context.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, from);
      gradient.addColorStop(1, to);
      context.fillStyle = gradient;
      context.fillRect(0, 0, width, height);
      context.fillStyle = 'rgba(255, 255, 255, 0.85)';
      context.fillRect(width * 0.2, height * 0.55, width * 0.6, height * 0.18);
      return canvas.toDataURL(type, 0.9).split(',')[1]!;
    };
    return { jpeg: draw('image/jpeg', 1200, 800, '#1565c0', '#80deea'), png: draw('image/png', 600, 900, '#2e7d32', '#fff59d'), webp: draw('image/webp', 800, 600, '#6a1b9a', '#ffab91') };
  });
  return { jpeg: Buffer.from(encoded.jpeg, 'base64'), png: Buffer.from(encoded.png, 'base64'), webp: Buffer.from(encoded.webp, 'base64') };
}

const rootEntries = async () => ((await member.call('GET', '/api/document/ged/paginated?limit=100')) as { data: Listed[] }).data;

/**
 * Deletes for good from the trash, as the demo administrator in Transports Martin (the user's
 * organization); its current organization, saved on the account, is given back after.
 */
async function purgeForGood(uuids: string[]) {
  let admin = await apiAs('admin@demo.fr');
  const original = admin.user.currentOrganizationUser?.uuid;
  const links = (await admin.call('GET', '/api/organization-user')) as { data: { uuid: string; organization: { title: string } }[] };
  const martin = links.data.find((link) => link.organization.title === 'Transports Martin')!.uuid;
  if (original !== martin) {
    await admin.call('PATCH', `/api/user/${admin.user.uuid}`, { currentOrganizationUser: martin });
    admin = await apiAs('admin@demo.fr');
  }
  try {
    for (const uuid of uuids) await admin.call('DELETE', `/api/document/${uuid}/permanent`);
  } finally {
    if (original && original !== martin) await admin.call('PATCH', `/api/user/${admin.user.uuid}`, { currentOrganizationUser: original });
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  token = await tokenOf('user@demo.fr');
  member = await apiAs('user@demo.fr');
  rootBefore = new Set((await rootEntries()).map((entry) => entry.uuid));
  const vehicule = ((await member.call('GET', '/api/vehicule?limit=1&sortBy=immatriculation')) as { data: { uuid: string; immatriculation: string }[] }).data[0]!;
  plate = vehicule.immatriculation.replace(/^([A-Z]{2})(\d{3})([A-Z]{2})$/, '$1-$2-$3');
  const { page, context } = await newPage(browser);
  await page.goto('/');
  const pictures = await drawPictures(page);
  await context.close();
  // One upload each, oldest first: the library lists the newest first.
  await upload('/api/document/upload', [{ name: 'Flotte 2026.csv', bytes: CSV }]);
  await upload('/api/document/upload', [{ name: 'Attestation d’assurance.pdf', bytes: PDF }]);
  await upload('/api/document/upload', [{ name: 'Plan du dépôt.png', bytes: pictures.png }]);
  await upload(`/api/vehicule/${vehicule.uuid}/documents`, [{ name: 'Rayure portière.webp', bytes: pictures.webp }]);
  await upload('/api/document/upload', [{ name: 'Photo de la flotte au dépôt de Lyon.jpg', bytes: pictures.jpeg }]);
});

afterAll(async () => {
  // Everything the test put in the GED's root (its files and the vehicle's « Véhicules » folder), to the trash then for good.
  if (member) {
    const added = (await rootEntries()).filter((entry) => !rootBefore.has(entry.uuid)).map((entry) => entry.uuid);
    for (const uuid of added) await member.call('DELETE', `/api/document/${uuid}?recursive=true`);
    await purgeForGood(added);
  }
  await browser?.close();
});

const cards = (page: Page) => page.getByRole('list', { name: 'Fichiers de l’organisation' }).getByRole('listitem');
const cardNames = (page: Page) => cards(page).evaluateAll((items) => items.map((item) => item.querySelector('p')?.textContent ?? ''));
const loadedThumbnails = (page: Page) => page.locator('img[src^="blob:"]').count();

describe('media library', () => {
  it('shows every file as a grid, filters by kind and attachment in the URL, previews and downloads', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'user@demo.fr');
    await page.goto('/media');
    await expect.poll(() => page.getByRole('heading', { name: 'Médiathèque', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.title()).toMatch(/^Médiathèque/);
    await expect.poll(() => cardNames(page)).toEqual(['Photo de la flotte au dépôt de Lyon.jpg', 'Rayure portière.webp', 'Plan du dépôt.png', 'Attestation d’assurance.pdf', 'Flotte 2026.csv']);
    expect(await page.getByText('5 fichiers').isVisible()).toBe(true);
    await expect.poll(() => loadedThumbnails(page)).toBe(3);
    // The vehicle's photo says which vehicle; the size reads in French.
    const attached = cards(page).filter({ hasText: 'Rayure portière.webp' });
    expect(await attached.getByLabel(`Véhicule : ${plate}`).isVisible()).toBe(true);
    expect(await cards(page).filter({ hasText: 'Attestation' }).getByText(/^\d+\s+octets$/).isVisible()).toBe(true);
    // The header's way back (the sidebar has its own « Gestion documentaire » entry).
    expect(await page.locator('#main-content').getByRole('link', { name: 'Gestion documentaire' }).getAttribute('href')).toBe('/ged');
    await expectAccessible(page);
    await screenshot(page, 'media');

    // Kind: a chip at a time, pressed again to let go.
    await page.getByRole('button', { name: 'Images', exact: true }).click();
    await page.waitForURL(/kind=image/);
    await expect.poll(() => cardNames(page)).toEqual(['Photo de la flotte au dépôt de Lyon.jpg', 'Rayure portière.webp', 'Plan du dépôt.png']);
    expect(await page.getByRole('button', { name: 'Images', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'PDF', exact: true }).click();
    await page.waitForURL(/kind=pdf/);
    await expect.poll(() => cardNames(page)).toEqual(['Attestation d’assurance.pdf']);
    await page.getByRole('button', { name: 'PDF', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('kind'));
    await page.getByRole('button', { name: 'Autres', exact: true }).click();
    await expect.poll(() => cardNames(page)).toEqual(['Flotte 2026.csv']);
    await page.getByRole('button', { name: 'Autres', exact: true }).click();

    // Attachment: the vehicles' files, then the files attached to nothing.
    await page.getByLabel('Rattachement').selectOption({ label: 'Véhicules' });
    await page.waitForURL(/entity=vehicule/);
    await expect.poll(() => cardNames(page)).toEqual(['Rayure portière.webp']);
    await page.getByLabel('Rattachement').selectOption({ label: 'Non rattachés' });
    await expect.poll(() => cardNames(page)).toEqual(['Photo de la flotte au dépôt de Lyon.jpg', 'Plan du dépôt.png', 'Attestation d’assurance.pdf', 'Flotte 2026.csv']);
    await page.getByLabel('Rattachement').selectOption({ label: 'Sinistres' });
    await expect.poll(() => page.getByText('Aucun fichier ne correspond à ces filtres.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Effacer les filtres' }).click();
    await page.waitForURL((url) => url.search === '');
    await expect.poll(() => cards(page).count()).toBe(5);

    // A search, accent- and case-free; the reload keeps it.
    await page.getByRole('searchbox', { name: 'Rechercher un fichier' }).fill('DEPOT');
    await page.waitForURL((url) => url.searchParams.get('search') === 'DEPOT');
    await expect.poll(() => cardNames(page)).toEqual(['Photo de la flotte au dépôt de Lyon.jpg', 'Plan du dépôt.png']);
    await page.reload();
    await expect.poll(() => cardNames(page)).toEqual(['Photo de la flotte au dépôt de Lyon.jpg', 'Plan du dépôt.png']);
    await page.getByRole('searchbox', { name: 'Rechercher un fichier' }).fill('');
    await page.getByRole('searchbox', { name: 'Rechercher un fichier' }).press('Enter');
    await expect.poll(() => cards(page).count()).toBe(5);

    // Preview: the image itself, then its download under its name.
    await page.getByRole('button', { name: 'Voir Photo de la flotte au dépôt de Lyon.jpg' }).click();
    const dialog = page.getByRole('dialog', { name: 'Photo de la flotte au dépôt de Lyon.jpg' });
    await expect.poll(() => dialog.getByRole('img', { name: 'Aperçu de Photo de la flotte au dépôt de Lyon.jpg' }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'media-preview');
    const [fromDialog] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Télécharger' }).click()]);
    expect(fromDialog.suggestedFilename()).toBe('Photo de la flotte au dépôt de Lyon.jpg');
    await dialog.getByRole('button', { name: 'Fermer' }).first().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // A file without preview says so; the card's own download button.
    await page.getByRole('button', { name: 'Voir Flotte 2026.csv' }).click();
    await expect.poll(() => page.getByRole('dialog').getByText('Pas d’aperçu pour ce type de fichier. Téléchargez-le pour l’ouvrir.').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const [fromCard] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Télécharger Attestation d’assurance.pdf' }).click()]);
    expect(fromCard.suggestedFilename()).toBe('Attestation d’assurance.pdf');
    const saved = await fromCard.path();
    expect(saved).toBeTruthy();

    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('fits a 390 px phone: two columns, nothing wider than the screen', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'user@demo.fr');
    await page.goto('/media');
    await expect.poll(() => cards(page).count()).toBe(5);
    await expect.poll(() => loadedThumbnails(page)).toBe(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const [first, second] = await cards(page).evaluateAll((items) => items.slice(0, 2).map((item) => item.getBoundingClientRect().top));
    expect(first).toBe(second);
    await expectAccessible(page);
    await screenshot(page, 'media-mobile');
    await page.getByRole('button', { name: 'Voir Rayure portière.webp' }).click();
    await expect.poll(() => page.getByRole('dialog').getByRole('img', { name: 'Aperçu de Rayure portière.webp' }).isVisible()).toBe(true);
    await screenshot(page, 'media-mobile-preview');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { formatFileSize } from '@flotte/contract';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTables, insertionPlan } from '../../backup/import-to-postgres.js';
import { documents } from '../../db/schema/documents.js';
import { storedFiles } from '../../db/schema/stored-files.js';
import { readSystem, withTenant } from '../../db/scope.js';
import { createOrganization, createUser, linkUser, subscribeToPlan } from '../../seed/factories.js';
import { purgeExpiredTrash } from './documents.service.js';
import { createS3TestStorage, keysUnder, s3AppEnv, type TestStorage } from '../../../test/storage.js';
import { type MultipartPart, multipartFiles } from '../../../test/multipart.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

// ---------------------------------------------------------------- files, as their bytes

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), Buffer.alloc(300)]);
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
const CSV = Buffer.from('Nom;Prénom\nLefèvre;Hélène\n');
const pdfOfSize = (bytes: number) => Buffer.concat([PDF, Buffer.alloc(Math.max(0, bytes - PDF.length), 0x20)]);

async function xlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Flotte').addRow(['AB-123-CD', 'Renault', 'Clio']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

type Part = MultipartPart;

type Doc = {
  uuid: string;
  kind: 'folder' | 'file';
  folderName: string | null;
  parent: string | null;
  media: { name: string } | null;
  size: number | null;
  type: string | null;
  author: { uuid: string; firstName: string; lastName: string } | null;
  deletedAt: string | null;
  expiresOn: string | null;
};
type Page = { data: Doc[]; page: number; nbOfPages: number; total: number };

// ---------------------------------------------------------------- the world

const LIMITS = { DOCUMENTS_MAX_FILE_MB: '0.05', DOCUMENTS_QUOTA_MB: '0.2' };
const MAX_FILE = Math.round(0.05 * 1024 * 1024); // 52 429 bytes, « 51,2 Ko »
const QUOTA = Math.round(0.2 * 1024 * 1024); // 209 715 bytes, « 204,8 Ko »

let t: TestContext;
let dataDir: string;
let orgA: string;
let orgB: string;
let member: string;
let admin: string;
let outsider: string;
let orphan: string;
let memberUuid: string;

function api(token: string) {
  return {
    folder: (folderName: unknown, parent?: unknown) => t.as(token, { method: 'POST', url: '/api/document/folder', payload: { folderName, parent } }),
    list: (query: Record<string, string | number> = {}) => t.as(token, { method: 'GET', url: `/api/document/ged/paginated?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}` }),
    ancestors: (uuid: string) => t.as(token, { method: 'GET', url: `/api/document/ancestors/${uuid}` }),
    upload: (parts: Part[], parent?: string) => t.as(token, { method: 'POST', url: `/api/document/upload${parent ? `?parent=${parent}` : ''}`, ...multipartFiles(parts) }),
    patch: (uuid: string, payload: object) => t.as(token, { method: 'PATCH', url: `/api/document/${uuid}`, payload }),
    remove: (uuid: string, recursive?: boolean) => t.as(token, { method: 'DELETE', url: `/api/document/${uuid}${recursive ? '?recursive=true' : ''}` }),
    trash: () => t.as(token, { method: 'GET', url: '/api/document/trash' }),
    restore: (uuid: string) => t.as(token, { method: 'POST', url: `/api/document/${uuid}/restore` }),
    purge: (uuid: string) => t.as(token, { method: 'DELETE', url: `/api/document/${uuid}/permanent` }),
    download: (uuid: string) => t.as(token, { method: 'GET', url: `/api/document/${uuid}/download` }),
    preview: (uuid: string) => t.as(token, { method: 'GET', url: `/api/document/${uuid}/preview` }),
  };
}

async function newFolder(token: string, name: string, parent?: string): Promise<Doc> {
  const response = await api(token).folder(name, parent);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Doc>();
}

async function uploaded(token: string, parts: Part[], parent?: string): Promise<Doc[]> {
  const response = await api(token).upload(parts, parent);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ data: Doc[] }>().data;
}

/** Every row of the organization's documents and stored files (under its row-level security). */
const rowsOf = (org: string) =>
  withTenant(t.database.db, org, async (tx) => ({
    documents: (await tx.select({ n: sql<number>`count(*)::int` }).from(documents))[0]!.n,
    storedFiles: (await tx.select({ n: sql<number>`count(*)::int` }).from(storedFiles))[0]!.n,
  }));

/** Every object the storage holds (committed and temporary). */
async function objects(testApp: TestContext = t): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of [`${orgA}/`, `${orgB}/`, 'tmp/']) for await (const object of testApp.app.storage.list(prefix)) keys.push(object.key);
  return keys.sort();
}

function filesOnDisk(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(d, entry.name));
      else found.push(path.join(d, entry.name));
    }
  };
  try {
    walk(dir);
  } catch {
    // No media folder yet: no file.
  }
  return found;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-documents-'));
  t = await createTestApp({ DATA_DIR: dataDir, ...LIMITS });
  ({ orgA, orgB, memberUuid } = await t.seed(async (tx) => {
    const a = await createOrganization(tx, { title: 'Transports Alpha' });
    await subscribeToPlan(tx, a.uuid);
    const b = await createOrganization(tx, { title: 'Bêta BTP' });
    await subscribeToPlan(tx, b.uuid);
    const plain = await createUser(tx, { email: 'membre@alpha.fr', firstName: 'Hélène', lastName: 'Lefèvre' });
    const chief = await createUser(tx, { email: 'admin@alpha.fr' });
    const foreign = await createUser(tx, { email: 'admin@beta.fr' });
    await createUser(tx, { email: 'orphelin@exemple.fr' });
    await linkUser(tx, a.uuid, plain.uuid);
    await linkUser(tx, a.uuid, chief.uuid, 'ADMIN');
    await linkUser(tx, b.uuid, foreign.uuid, 'ADMIN');
    return { orgA: a.uuid, orgB: b.uuid, memberUuid: plain.uuid };
  }));
  member = await t.login('membre@alpha.fr');
  admin = await t.login('admin@alpha.fr');
  outsider = await t.login('admin@beta.fr');
  orphan = await t.login('orphelin@exemple.fr');
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- SPEC's three calls

describe('folders, the list and the breadcrumb (SPEC 7)', () => {
  it('creates nested folders, lists a folder’s content folders first, and gives the chain from the root', async () => {
    const contrats = await newFolder(member, 'Contrats');
    expect(contrats).toMatchObject({ kind: 'folder', folderName: 'Contrats', parent: null, media: null, size: null, type: null, author: { uuid: memberUuid, firstName: 'Hélène', lastName: 'Lefèvre' } });
    const y2026 = await newFolder(member, '2026', contrats.uuid);
    const flotte = await newFolder(member, 'Flotte', y2026.uuid);
    await uploaded(member, [{ name: 'Attestation.pdf', content: PDF }], contrats.uuid);
    await newFolder(member, 'Avenants', contrats.uuid);

    const page = await api(member).list({ parent: contrats.uuid });
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json<Page>();
    expect(body).toMatchObject({ page: 1, nbOfPages: 1, total: 3 });
    expect(body.data.map((d) => d.folderName ?? d.media?.name)).toEqual(['2026', 'Avenants', 'Attestation.pdf']);

    const chain = await api(member).ancestors(flotte.uuid);
    expect(chain.statusCode, chain.body).toBe(200);
    expect(chain.json()).toEqual([
      { uuid: contrats.uuid, folderName: 'Contrats', parent: null },
      { uuid: y2026.uuid, folderName: '2026', parent: contrats.uuid },
      { uuid: flotte.uuid, folderName: 'Flotte', parent: y2026.uuid },
    ]);
  });

  it('lists the root without parent, pages it, and searches names across the tree without accents or case', async () => {
    const root = await newFolder(member, 'Sinistres été');
    const inner = await newFolder(member, 'Constats', root.uuid);
    await uploaded(member, [{ name: 'Constat amiable Étienne.pdf', content: PDF }], inner.uuid);
    const rootPage = (await api(member).list()).json<Page>();
    expect(rootPage.data.every((d) => d.parent === null)).toBe(true);
    expect(rootPage.data.map((d) => d.folderName)).toContain('Sinistres été');

    const found = await api(member).list({ search: 'ETIENNE' });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json<Page>().data.map((d) => d.media?.name)).toEqual(['Constat amiable Étienne.pdf']);
    const folders = (await api(member).list({ search: 'sinistres ete' })).json<Page>();
    expect(folders.data.map((d) => d.folderName)).toEqual(['Sinistres été']);
    // A search's % and _ are characters, not wildcards.
    expect((await api(member).list({ search: '%' })).json<Page>().total).toBe(0);

    for (let i = 0; i < 11; i++) await newFolder(member, `Dossier ${String(i).padStart(2, '0')}`, inner.uuid);
    const second = (await api(member).list({ parent: inner.uuid, page: 2 })).json<Page>();
    expect(second).toMatchObject({ page: 2, nbOfPages: 2, total: 12 });
    expect(second.data.map((d) => d.folderName ?? d.media?.name)).toEqual(['Dossier 10', 'Constat amiable Étienne.pdf']);
  });

  it('refuses a taken name (whatever its case), a missing parent, and names with paths, control characters or reserved words', async () => {
    await newFolder(member, 'Cartes grises');
    const twice = await api(member).folder('CARTES GRISES');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Un élément nommé « CARTES GRISES » existe déjà dans ce dossier');
    expect((await api(member).folder('Ailleurs', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);

    const before = await rowsOf(orgA);
    for (const [name, message] of [
      ['../secret', 'Le nom ne peut pas contenir les caractères < > : " / \\ | ? *'],
      ['..', 'Le nom ne peut pas commencer par un point'],
      ['a\\b', 'Le nom ne peut pas contenir les caractères < > : " / \\ | ? *'],
      ['Ligne\r\nSet-Cookie: x', 'Le nom ne peut pas contenir de caractère de contrôle ni de retour à la ligne'],
      ['nul\u0000', 'Le nom : caractère non autorisé (caractère nul ou caractère Unicode incomplet)'],
      ['demi\ud800', 'Le nom : caractère non autorisé (caractère nul ou caractère Unicode incomplet)'],
      ['CON', '« CON » est un nom réservé par Windows : choisissez-en un autre'],
      ['x'.repeat(256), 'Le nom : 255 caractères maximum'],
      ['   ', 'Le nom est obligatoire'],
    ] as const) {
      const response = await api(member).folder(name);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().details?.[0], name).toMatchObject({ path: 'folderName' });
      expect(response.json().message, name).toContain(message.replace(/^Le nom : /, ''));
    }
    expect(await rowsOf(orgA)).toEqual(before);
  });

  it('answers 404 for a file or a missing folder as parent, and 400 for a malformed uuid', async () => {
    const [file] = await uploaded(member, [{ name: 'Note.pdf', content: PDF }]);
    expect((await api(member).list({ parent: file!.uuid })).statusCode).toBe(404);
    expect((await api(member).ancestors(file!.uuid)).statusCode).toBe(404);
    expect((await api(member).ancestors('pas-un-uuid')).statusCode).toBe(400);
    expect((await api(member).list({ page: 0 })).statusCode).toBe(400);
  });
});

// ---------------------------------------------------------------- upload and download

describe('upload', () => {
  it('stores several files in one request, with their types read from their bytes, and serves them back', async () => {
    const folder = await newFolder(member, 'Photos');
    const sheet = await xlsx();
    const files = await uploaded(
      member,
      [
        { name: 'photo.jpg', content: JPEG },
        { name: 'choc.png', content: PNG },
        { name: 'flotte.xlsx', content: sheet },
        { name: 'conducteurs.csv', content: CSV },
      ],
      folder.uuid,
    );
    expect(files.map((f) => [f.media?.name, f.type, f.size, f.parent])).toEqual([
      ['photo.jpg', 'image/jpeg', JPEG.length, folder.uuid],
      ['choc.png', 'image/png', PNG.length, folder.uuid],
      ['flotte.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', sheet.length, folder.uuid],
      ['conducteurs.csv', 'text/csv', CSV.length, folder.uuid],
    ]);

    const download = await api(member).download(files[1]!.uuid);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': `attachment; filename="choc.png"; filename*=UTF-8''choc.png`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox; frame-ancestors 'none'",
    });
    const part = await t.as(member, { method: 'GET', url: `/api/document/${files[1]!.uuid}/download`, headers: { range: 'bytes=8-15' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers).toMatchObject({ 'content-range': `bytes 8-15/${PNG.length}`, 'content-length': '8', 'accept-ranges': 'bytes' });
    expect(part.rawPayload.equals(PNG.subarray(8, 16))).toBe(true);
    const beyond = await t.as(member, { method: 'GET', url: `/api/document/${files[1]!.uuid}/download`, headers: { range: `bytes=${PNG.length}-` } });
    expect(beyond.statusCode).toBe(416);
    const several = await t.as(member, { method: 'GET', url: `/api/document/${files[1]!.uuid}/download`, headers: { range: 'bytes=0-1,4-5' } });
    expect(several.statusCode).toBe(200);
    expect(several.rawPayload.equals(PNG)).toBe(true);
    const preview = await api(member).preview(files[0]!.uuid);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-disposition']).toMatch(/^inline; /);
    expect(preview.headers['content-security-policy']).toContain('sandbox');
    const notPreviewable = await api(member).preview(files[2]!.uuid);
    expect(notPreviewable.statusCode).toBe(415);
    expect(notPreviewable.json().message).toBe('Ce document ne peut pas être prévisualisé : téléchargez-le.');
  });

  it('gives the name its type’s extension, encodes it for the download, and names a second upload « (2) »', async () => {
    const [photo] = await uploaded(member, [{ name: 'photo.pdf', content: JPEG }]);
    expect(photo).toMatchObject({ media: { name: 'photo.jpg' }, type: 'image/jpeg' });
    const [first, second] = await uploaded(member, [
      { name: 'Relevé d’information : 2026.pdf', content: PDF },
      { name: 'relevé d’information : 2026.pdf', content: PDF },
    ]);
    expect(first!.media!.name).toBe('Relevé d’information _ 2026.pdf');
    expect(second!.media!.name).toBe('relevé d’information _ 2026 (2).pdf');
    const download = await api(member).download(first!.uuid);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Releve d_information _ 2026.pdf"; filename*=UTF-8''Relev%C3%A9%20d%E2%80%99information%20_%202026.pdf`,
    );
  });

  it('cleans paths, NUL, CRLF and reserved names out of a file name', async () => {
    const files = await uploaded(member, [
      { name: '../../etc/passwd.pdf', content: PDF },
      { name: 'C:\\Users\\moi\\carte grise.pdf', content: PDF },
      { name: 'nul.pdf', content: PDF },
      { name: 'facture\u202Efdp.pdf', content: PDF },
      { name: `${'long'.repeat(80)}.pdf`, content: PDF },
    ]);
    expect(files.map((f) => f.media!.name)).toEqual(['passwd.pdf', 'carte grise.pdf', '_nul.pdf', 'facturefdp.pdf', `${'long'.repeat(80)}`.slice(0, 251) + '.pdf']);
    // NUL raw in the header is dropped; CR and LF end the header line (file-names.test.ts: a decoded one is dropped too).
    const [nul] = await uploaded(member, [{ name: 'a\u0000b.pdf', content: PDF }]);
    expect(nul!.media!.name).toBe('ab.pdf');
    const raw = await api(member).upload([{ name: 'a\r\nb.pdf', content: PDF }]);
    // The header ends at the CR: the name is 'a', and its bytes give it '.pdf'.
    expect(raw.statusCode, raw.body).toBe(201);
    expect(raw.json().data[0].media.name).toBe('a.pdf');
  });

  it('refuses an executable or an HTML page renamed .pdf, HTML renamed .csv, an empty file, and an oversized one: nothing is kept', async () => {
    const before = { rows: await rowsOf(orgA), objects: await objects(), disk: filesOnDisk(path.join(dataDir, 'media')) };
    const cases: [Part[], number, string][] = [
      [[{ name: 'facture.pdf', content: EXE }], 415, '« facture.pdf » : ce type de fichier n’est pas accepté. Formats acceptés : PDF, JPEG, PNG, WebP, HEIC, Word, Excel, PowerPoint, OpenDocument (ODT, ODS, ODP) et CSV.'],
      [[{ name: 'constat.pdf', content: HTML }], 415, '« constat.pdf » : ce type de fichier n’est pas accepté.'],
      [[{ name: 'liste.csv', content: HTML }], 415, '« liste.csv » : ce type de fichier n’est pas accepté.'],
      [[{ name: 'notes.txt', content: CSV }], 415, '« notes.txt » : ce type de fichier n’est pas accepté.'],
      [[{ name: 'vide.pdf', content: Buffer.alloc(0) }], 400, '« vide.pdf » est vide.'],
      [[{ name: 'gros.pdf', content: pdfOfSize(MAX_FILE + 1) }], 413, '« gros.pdf » dépasse la taille maximale d’un document (51,2\u00a0Ko).'],
      // A good file first, a bad one after it: the whole request is refused, the good one too.
      [[{ name: 'bon.pdf', content: PDF }, { name: 'mauvais.pdf', content: EXE }], 415, '« mauvais.pdf »'],
      [[{ name: 'bon.pdf', content: PDF }, { name: 'gros.pdf', content: pdfOfSize(MAX_FILE + 10_000) }], 413, 'dépasse'],
    ];
    for (const [parts, status, message] of cases) {
      const response = await api(member).upload(parts);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toContain(message);
    }
    expect(await rowsOf(orgA)).toEqual(before.rows);
    expect(await objects()).toEqual(before.objects);
    expect(filesOnDisk(path.join(dataDir, 'media'))).toEqual(before.disk);
  });

  it('refuses more than 20 files in one request, keeping none of them', async () => {
    const before = { rows: await rowsOf(orgA), objects: await objects() };
    const response = await api(member).upload(Array.from({ length: 21 }, (_, i) => ({ name: `page-${i}.pdf`, content: PDF })));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('20 fichiers au plus par envoi.');
    expect(await rowsOf(orgA)).toEqual(before.rows);
    expect(await objects()).toEqual(before.objects);
  });

  it('refuses a request without a file, and a file into a missing folder, with French messages', async () => {
    const notMultipart = await t.as(member, { method: 'POST', url: '/api/document/upload', payload: { files: [] } });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json().message).toBe('Joignez au moins un fichier (champ multipart « files »).');
    const missing = await api(member).upload([{ name: 'a.pdf', content: PDF }], '00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Dossier introuvable');
  });
});

// ---------------------------------------------------------------- rename, move, trash

describe('rename, move, trash and restore', () => {
  it('renames a folder and a file (which keeps its extension), and refuses a taken name', async () => {
    const folder = await newFolder(member, 'Permis');
    const [file] = await uploaded(member, [{ name: 'permis.pdf', content: PDF }], folder.uuid);
    const renamed = await api(member).patch(folder.uuid, { name: 'Permis de conduire' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ folderName: 'Permis de conduire' });
    const fileRenamed = await api(member).patch(file!.uuid, { name: 'Permis Hélène', expiresOn: '2027-03-31' });
    expect(fileRenamed.json()).toMatchObject({ media: { name: 'Permis Hélène.pdf' }, expiresOn: '2027-03-31' });
    await uploaded(member, [{ name: 'autre.pdf', content: PDF }], folder.uuid);
    const taken = await api(member).patch(file!.uuid, { name: 'Autre.pdf' });
    expect(taken.statusCode).toBe(409);
    const bad = await api(member).patch(file!.uuid, { name: '../x.pdf' });
    expect(bad.statusCode).toBe(400);
    expect((await api(member).patch(file!.uuid, {})).statusCode).toBe(400);
  });

  it('moves a folder with its content, to the root too, and never into itself or its own subtree', async () => {
    const a = await newFolder(member, 'A');
    const b = await newFolder(member, 'B', a.uuid);
    const c = await newFolder(member, 'C', b.uuid);
    const other = await newFolder(member, 'Autre');
    for (const target of [a.uuid, b.uuid, c.uuid]) {
      const response = await api(member).patch(a.uuid, { parent: target });
      expect(response.statusCode, target).toBe(400);
      expect(response.json().message).toBe('Un dossier ne peut pas être déplacé dans lui-même ni dans un de ses sous-dossiers');
    }
    const moved = await api(member).patch(b.uuid, { parent: other.uuid });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await api(member).ancestors(c.uuid)).json<{ folderName: string }[]>().map((f) => f.folderName)).toEqual(['Autre', 'B', 'C']);
    const toRoot = await api(member).patch(c.uuid, { parent: null });
    expect(toRoot.json()).toMatchObject({ parent: null });
    const [file] = await uploaded(member, [{ name: 'x.pdf', content: PDF }]);
    expect((await api(member).patch(a.uuid, { parent: file!.uuid })).statusCode).toBe(404);
    // A move where the name is taken, at the root too.
    await newFolder(member, 'C', other.uuid);
    const clash = await api(member).patch(c.uuid, { parent: other.uuid });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('Un élément nommé « C » existe déjà dans ce dossier');
    await newFolder(member, 'B');
    expect((await api(member).patch(b.uuid, { parent: null })).statusCode).toBe(409);
  });

  it('lets only one of two crossed moves through (no cycle even at the same instant)', async () => {
    const left = await newFolder(member, 'Gauche');
    const right = await newFolder(member, 'Droite');
    const [a, b] = await Promise.all([api(member).patch(left.uuid, { parent: right.uuid }), api(member).patch(right.uuid, { parent: left.uuid })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const chains = await Promise.all([left, right].map(async (f) => (await api(member).ancestors(f.uuid)).json<{ folderName: string }[]>().map((x) => x.folderName)));
    expect(chains.map((c) => c.length).sort()).toEqual([1, 2]);
  });

  it('deletes a file to the trash, a non-empty folder only when recursive, and restores them with their content', async () => {
    const folder = await newFolder(member, 'Vieux contrats');
    const sub = await newFolder(member, 'Sous-dossier', folder.uuid);
    const [file] = await uploaded(member, [{ name: 'ancien.pdf', content: PDF }], sub.uuid);

    const refused = await api(member).remove(folder.uuid);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Le dossier « Vieux contrats » n’est pas vide : confirmez la suppression de son contenu (recursive=true).');
    expect((await api(member).remove(folder.uuid, true)).statusCode).toBe(204);
    expect((await api(member).list({ search: 'ancien' })).json<Page>().total).toBe(0);
    expect((await api(member).download(file!.uuid)).statusCode).toBe(404);
    expect((await api(member).list({ parent: folder.uuid })).statusCode).toBe(404);

    const trash = (await api(member).trash()).json<Page>();
    // Only what was deleted itself is listed; its content comes back with it.
    expect(trash.data.map((d) => d.folderName ?? d.media?.name)).toContain('Vieux contrats');
    expect(trash.data.map((d) => d.folderName)).not.toContain('Sous-dossier');
    expect(trash.data.find((d) => d.uuid === folder.uuid)!.deletedAt).not.toBeNull();

    // A new folder takes the name meanwhile: the restored one becomes « (2) ».
    await newFolder(member, 'Vieux contrats');
    const restored = await api(member).restore(folder.uuid);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ folderName: 'Vieux contrats (2)', deletedAt: null, parent: null });
    expect((await api(member).download(file!.uuid)).statusCode).toBe(200);
    expect((await api(member).ancestors(sub.uuid)).json<{ folderName: string }[]>().map((f) => f.folderName)).toEqual(['Vieux contrats (2)', 'Sous-dossier']);
    expect((await api(member).restore(folder.uuid)).statusCode).toBe(404);
  });

  it('restores a file whose folder is still in the trash at the root', async () => {
    const folder = await newFolder(member, 'Éphémère');
    const [file] = await uploaded(member, [{ name: 'seul.pdf', content: PDF }], folder.uuid);
    expect((await api(member).remove(file!.uuid)).statusCode).toBe(204);
    expect((await api(member).remove(folder.uuid)).statusCode).toBe(204);
    const restored = await api(member).restore(file!.uuid);
    expect(restored.json()).toMatchObject({ parent: null, media: { name: 'seul.pdf' } });
  });

  it('lets an administrator, not a member, delete for good from the trash: rows and stored file gone', async () => {
    const folder = await newFolder(member, 'À purger');
    const [file] = await uploaded(member, [{ name: 'dedans.pdf', content: PDF }], folder.uuid);
    const [alone] = await uploaded(member, [{ name: 'deja-supprime.pdf', content: PDF }], folder.uuid);
    expect((await api(member).remove(alone!.uuid)).statusCode).toBe(204);
    expect((await api(member).remove(folder.uuid, true)).statusCode).toBe(204);
    const key = await withTenant(t.database.db, orgA, async (tx) => (await tx.select().from(documents).where(eq(documents.uuid, file!.uuid)))[0]!.fileKey!);
    expect(await t.app.storage.exists(key)).toBe(true);

    const refused = await api(member).purge(folder.uuid);
    expect(refused.statusCode).toBe(403);
    expect((await api(admin).purge(file!.uuid)).statusCode).toBe(404); // not deleted itself: it goes with its folder
    expect((await api(admin).purge(folder.uuid)).statusCode).toBe(204);
    expect(await t.app.storage.exists(key)).toBe(false);
    const left = await withTenant(t.database.db, orgA, (tx) => tx.select().from(documents).where(eq(documents.uuid, alone!.uuid)));
    expect(left).toEqual([]);
    expect((await api(member).restore(folder.uuid)).statusCode).toBe(404);
  });
});

describe('expiry dates', () => {
  it('lists what has expired or expires within 30 days, soonest first, and not what is in the trash', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const files = await uploaded(member, [
      { name: 'carte verte.pdf', content: PDF },
      { name: 'permis.pdf', content: PDF },
      { name: 'contrôle technique.pdf', content: PDF },
      { name: 'assurance 2025.pdf', content: PDF },
      { name: 'supprimé.pdf', content: PDF },
    ]);
    const dates = [day(10), day(200), day(29), day(-3), day(5)];
    for (const [i, file] of files.entries()) expect((await api(member).patch(file.uuid, { expiresOn: dates[i] })).statusCode).toBe(200);
    expect((await api(member).remove(files[4]!.uuid)).statusCode).toBe(204);
    const response = await t.as(member, { method: 'GET', url: '/api/document/expiring' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Page>().data.map((d) => [d.media?.name, d.expiresOn])).toEqual([
      ['assurance 2025.pdf', day(-3)],
      ['carte verte.pdf', day(10)],
      ['contrôle technique.pdf', day(29)],
    ]);
    const year = (await t.as(member, { method: 'GET', url: '/api/document/expiring?days=366' })).json<Page>();
    expect(year.data.map((d) => d.media?.name)).toContain('permis.pdf');
    expect((await t.as(member, { method: 'GET', url: '/api/document/expiring?days=-1' })).statusCode).toBe(400);
    expect((await t.as(outsider, { method: 'GET', url: '/api/document/expiring' })).json<Page>().total).toBe(0);
  });
});

describe('the 30-day trash', () => {
  it('purges each night what has been in the trash for more than 30 days, with its files, and keeps the rest', async () => {
    const old = await newFolder(member, 'Ancien');
    const [oldFile] = await uploaded(member, [{ name: 'ancien.pdf', content: PDF }], old.uuid);
    const [recent] = await uploaded(member, [{ name: 'récent.pdf', content: PDF }]);
    expect((await api(member).remove(old.uuid, true)).statusCode).toBe(204);
    expect((await api(member).remove(recent!.uuid)).statusCode).toBe(204);
    const keyOf = async (uuid: string) => (await t.seed((tx) => tx.select().from(documents).where(eq(documents.uuid, uuid))))[0]?.fileKey ?? null;
    const oldKey = (await keyOf(oldFile!.uuid))!;
    await t.seed((tx) => tx.update(documents).set({ deletedAt: sql`now() - interval '31 days'` }).where(eq(documents.trashedWith, old.uuid)));

    const purged = await purgeExpiredTrash({ db: t.database.db, storage: t.app.storage }, (fn) => readSystem(t.database.db, fn));
    expect(purged).toBe(1);
    expect(await keyOf(oldFile!.uuid)).toBeNull();
    expect(await t.app.storage.exists(oldKey)).toBe(false);
    const trash = (await api(member).trash()).json<Page>();
    expect(trash.data.map((d) => d.uuid)).toContain(recent!.uuid);
    expect(trash.data.map((d) => d.uuid)).not.toContain(old.uuid);
    expect(await purgeExpiredTrash({ db: t.database.db, storage: t.app.storage }, (fn) => readSystem(t.database.db, fn))).toBe(0);
  });
});

// ---------------------------------------------------------------- tenants and roles

describe('organizations and roles', () => {
  it('answers 404 to every call on another organization’s documents, and changes nothing', async () => {
    const folder = await newFolder(member, 'Privé');
    const [file] = await uploaded(member, [{ name: 'prive.pdf', content: PDF }], folder.uuid);
    const before = await rowsOf(orgA);
    const foreign = api(outsider);
    for (const response of [
      await foreign.list({ parent: folder.uuid }),
      await foreign.ancestors(folder.uuid),
      await foreign.folder('Intrus', folder.uuid),
      await foreign.upload([{ name: 'intrus.pdf', content: PDF }], folder.uuid),
      await foreign.patch(file!.uuid, { name: 'volé.pdf' }),
      await foreign.patch(file!.uuid, { parent: null }),
      await foreign.remove(folder.uuid, true),
      await foreign.restore(folder.uuid),
      await foreign.purge(folder.uuid),
      await foreign.download(file!.uuid),
      await foreign.preview(file!.uuid),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
    }
    expect((await foreign.list({ search: 'prive' })).json<Page>().total).toBe(0);
    expect(await rowsOf(orgA)).toEqual(before);
    expect((await rowsOf(orgB)).documents).toBe(0);
  });

  it('refuses in the database itself a parent of another organization, or a file as parent', async () => {
    const folder = await newFolder(member, 'Parent de A');
    const [file] = await uploaded(member, [{ name: 'pas-un-dossier.pdf', content: PDF }]);
    await expect(withTenant(t.database.db, orgB, (tx) => tx.insert(documents).values({ organizationUuid: orgB, parentUuid: folder.uuid, kind: 'folder', name: 'Intrus' }))).rejects.toThrow();
    await expect(withTenant(t.database.db, orgA, (tx) => tx.insert(documents).values({ organizationUuid: orgA, parentUuid: file!.uuid, kind: 'folder', name: 'Dans un fichier' }))).rejects.toThrow();
    await expect(withTenant(t.database.db, orgB, (tx) => tx.insert(documents).values({ organizationUuid: orgA, kind: 'folder', name: 'Ailleurs' }))).rejects.toThrow();
  });

  it('can be moved to PostgreSQL by import-backup: its tree reference is the one it defers', async () => {
    // As the import does it: every row first with no parent (two '2026' at the root for a moment), then the parents.
    await t.seed(async (tx) => {
      const [contrats, factures, c2026, f2026] = await tx
        .insert(documents)
        .values(['Contrats', 'Factures', '2026', '2026'].map((name) => ({ organizationUuid: orgB, kind: 'folder' as const, name })))
        .returning();
      await tx.update(documents).set({ parentUuid: contrats!.uuid }).where(eq(documents.uuid, c2026!.uuid));
      await tx.update(documents).set({ parentUuid: factures!.uuid }).where(eq(documents.uuid, f2026!.uuid));
      await tx.delete(documents).where(eq(documents.organizationUuid, orgB));
    });
    const url = (t.database as { url?: string }).url;
    if (!url) return; // PGlite: the plan reads a PostgreSQL target's catalog.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const plan = insertionPlan(await describeTables(client));
      expect(plan.deferred.get('documents')).toContain('parent_uuid');
      expect(plan.order.map((table) => table.name).indexOf('stored_files')).toBeLessThan(plan.order.map((table) => table.name).indexOf('documents'));
    } finally {
      await client.end();
    }
  });

  it('refuses a user without organization (403) and an anonymous caller (401)', async () => {
    expect((await api(orphan).list()).statusCode).toBe(403);
    expect((await api(orphan).folder('Rien')).statusCode).toBe(403);
    expect((await api(orphan).upload([{ name: 'a.pdf', content: PDF }])).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/document/ged/paginated' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/document/ancestors/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(401);
  });

  it('lets every member and the administrator read and write the organization’s documents', async () => {
    const folder = await newFolder(admin, 'Partagé');
    const [file] = await uploaded(member, [{ name: 'commun.pdf', content: PDF }], folder.uuid);
    expect((await api(admin).download(file!.uuid)).statusCode).toBe(200);
    expect((await api(member).patch(folder.uuid, { name: 'Partagé par tous' })).statusCode).toBe(200);
  });
});

// ---------------------------------------------------------------- quota (last: it fills the organization)

describe('quota', () => {
  it('refuses the file that would pass the organization’s quota, counting the trash, and keeps nothing of it', async () => {
    const used = await withTenant(t.database.db, orgA, async (tx) => Number((await tx.select({ n: sql<string>`coalesce(sum(size_bytes), 0)` }).from(documents))[0]!.n));
    // Fill up to just below the quota with files under the size limit.
    let left = QUOTA - used;
    while (left > 45_000) {
      await uploaded(member, [{ name: 'remplissage.pdf', content: pdfOfSize(45_000) }]);
      left -= 45_000;
    }
    const before = { rows: await rowsOf(orgA), objects: await objects() };
    const refused = await api(member).upload([{ name: 'de trop.pdf', content: pdfOfSize(left + 1) }]);
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe(
      `« de trop.pdf » ne tient pas dans l’espace de documents qui reste à votre organisation (${formatFileSize(left)} sur 204,8\u00a0Ko) : supprimez des documents, puis videz-les de la corbeille.`,
    );
    expect(await rowsOf(orgA)).toEqual(before.rows);
    expect(await objects()).toEqual(before.objects);
    // Full to the byte: refused before anything is read. (The fill leaves more than a minimal PDF.)
    expect(left).toBeGreaterThan(PDF.length);
    const remainder = await api(member).upload([{ name: 'appoint.pdf', content: pdfOfSize(left) }]);
    expect(remainder.statusCode, remainder.body).toBe(201);
    const full = await api(member).upload([{ name: 'encore.pdf', content: PDF }]);
    expect(full.statusCode).toBe(413);
    expect(full.json().message).toBe('L’espace de documents de votre organisation est plein (204,8\u00a0Ko) : supprimez des documents, puis videz-les de la corbeille.');
    // Another organization's space is its own.
    await uploaded(outsider, [{ name: 'beta.pdf', content: pdfOfSize(45_000) }]);
  });

  it('lets only one of two uploads through when each fits alone but not both (checked again under the lock)', async () => {
    for (let i = 0; i < 3; i++) await uploaded(outsider, [{ name: `beta-${i}.pdf`, content: pdfOfSize(45_000) }]);
    // 180 000 of 209 715 bytes used: 20 000 fits, 40 000 does not.
    const before = await objects();
    const [a, b] = await Promise.all([api(outsider).upload([{ name: 'un.pdf', content: pdfOfSize(20_000) }]), api(outsider).upload([{ name: 'deux.pdf', content: pdfOfSize(20_000) }])]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 413]);
    expect((await objects()).length).toBe(before.length + 1);
  });
});

// ---------------------------------------------------------------- S3

describe('on S3 (s3rver)', () => {
  let s3: TestStorage;
  let onS3: TestContext;
  beforeAll(async () => {
    s3 = await createS3TestStorage();
    onS3 = await createTestApp({ ...LIMITS, ...s3AppEnv(s3) });
    await onS3.seed(async (tx) => {
      const org = await createOrganization(tx, { title: 'Transports S3' });
      await subscribeToPlan(tx, org.uuid);
      const user = await createUser(tx, { email: 'membre@s3.fr' });
      await linkUser(tx, org.uuid, user.uuid);
    });
  });
  afterAll(async () => {
    await onS3?.close();
    await s3?.close();
  });

  it('stores and serves a file, and a refused upload leaves no object in the bucket', async () => {
    const token = await onS3.login('membre@s3.fr');
    const upload = (parts: Part[]) => onS3.as(token, { method: 'POST', url: '/api/document/upload', ...multipartFiles(parts) });
    const listBucket = () => keysUnder(s3.storage, 'tmp/');
    const ok = await upload([{ name: 'constat.pdf', content: PDF }]);
    expect(ok.statusCode, ok.body).toBe(201);
    const download = await onS3.as(token, { method: 'GET', url: `/api/document/${ok.json().data[0].uuid}/download` });
    expect(download.rawPayload.equals(PDF)).toBe(true);
    const head = await onS3.as(token, { method: 'GET', url: `/api/document/${ok.json().data[0].uuid}/download`, headers: { range: 'bytes=0-3' } });
    expect(head.statusCode).toBe(206);
    expect(head.body).toBe('%PDF');
    expect(await listBucket()).toEqual([]);

    for (const parts of [
      [{ name: 'bon.pdf', content: PDF }, { name: 'exe.pdf', content: EXE }],
      [{ name: 'gros.pdf', content: pdfOfSize(MAX_FILE + 20_000) }],
    ]) {
      const refused = await upload(parts);
      expect([413, 415]).toContain(refused.statusCode);
      expect(await listBucket()).toEqual([]);
    }
  });
});

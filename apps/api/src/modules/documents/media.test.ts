import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../db/schema/documents.js';
import { drivers } from '../../db/schema/drivers.js';
import { readSystem } from '../../db/scope.js';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser, subscribeToPlan } from '../../seed/factories.js';
import { type MultipartPart, multipartFiles } from '../../../test/multipart.js';
import { createS3TestStorage, keysUnder, s3AppEnv, type TestStorage } from '../../../test/storage.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { purgeExpiredTrash } from './documents.service.js';
import { thumbnailKeyOf } from './thumbnails.js';

// ---------------------------------------------------------------- files, as their bytes

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const CSV = Buffer.from('Nom;Prénom\nLefèvre;Hélène\n');
/** A JPEG's signature followed by nothing an image decoder can read: accepted at upload, no thumbnail. */
const BROKEN_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);

const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } });
let JPEG: Buffer;
let PNG: Buffer;
let WEBP: Buffer;

type Item = {
  uuid: string;
  kind: 'file' | 'folder';
  media: { name: string } | null;
  parent: string | null;
  size: number | null;
  type: string | null;
  entity: { type: string; uuid: string; label: string | null } | null;
};
type Page = { data: Item[]; page: number; nbOfPages: number; total: number };

// ---------------------------------------------------------------- the world

let t: TestContext;
let dataDir: string;
let member: string;
let admin: string;
let outsider: string;
let orphan: string;
let driver: string;
let goneDriver: string;
let vehicule: string;
let claim: string;
let datedClaim: string;
/** Every file of organization A by name, as uploaded. */
const files = new Map<string, Item>();

const multipart = (parts: MultipartPart[]) => multipartFiles(parts);

async function upload(token: string, url: string, parts: MultipartPart[]): Promise<Item[]> {
  const response = await t.as(token, { method: 'POST', url, ...multipart(parts) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ data: Item[] }>().data;
}

const list = (token: string, query = '') => t.as(token, { method: 'GET', url: `/api/document/media${query ? `?${query}` : ''}` });
async function names(query = '', token = member): Promise<string[]> {
  const response = await list(token, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>().data.map((item) => item.media!.name);
}
const thumbnail = (token: string, uuid: string, headers: Record<string, string> = {}) => t.as(token, { method: 'GET', url: `/api/document/${uuid}/thumbnail`, headers });
const fileKeyOf = async (uuid: string) => (await t.seed((tx) => tx.select({ key: documents.fileKey }).from(documents).where(eq(documents.uuid, uuid))))[0]?.key ?? null;

/** Newest first: the order the files are given in, one minute apart. */
const ORDER = [
  'photo-avant.png', // vehicle AB-123-CD
  'constat.pdf', // claim REF/2026/12
  'photo.jpg',
  'permis.pdf', // driver Lefèvre Hélène
  'scan.webp', // claim without reference
  'planning équipe.csv',
  'carte grise.pdf', // vehicle, in a folder of its own
  'ancien permis.pdf', // a driver deleted since
  'illisible.jpg',
];

beforeAll(async () => {
  [JPEG, PNG, WEBP] = await Promise.all([picture(800, 600).jpeg().toBuffer(), picture(300, 900).png().toBuffer(), picture(64, 48).webp().toBuffer()]);
  dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-media-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  ({ driver, goneDriver, vehicule, claim, datedClaim } = await t.seed(async (tx) => {
    const a = await createOrganization(tx, { title: 'Transports Alpha' });
    await subscribeToPlan(tx, a.uuid);
    const b = await createOrganization(tx, { title: 'Bêta BTP' });
    await subscribeToPlan(tx, b.uuid);
    const plain = await createUser(tx, { email: 'membre@alpha.fr' });
    const chief = await createUser(tx, { email: 'admin@alpha.fr' });
    const foreign = await createUser(tx, { email: 'admin@beta.fr' });
    await createUser(tx, { email: 'orphelin@exemple.fr' });
    await linkUser(tx, a.uuid, plain.uuid);
    await linkUser(tx, a.uuid, chief.uuid, 'ADMIN');
    await linkUser(tx, b.uuid, foreign.uuid, 'ADMIN');
    const [d1, d2] = await createDrivers(tx, a.uuid, [
      { firstName: 'Hélène', lastName: 'Lefèvre' },
      { firstName: 'Marc', lastName: 'Parti', email: 'parti@alpha.fr' },
    ]);
    const [v] = await createVehicules(tx, a.uuid, [{ immatriculation: 'AB123CD' }]);
    const [s1, s2] = await createSinisters(tx, a.uuid, [
      { sinisterIntermediateRef: 'REF/2026/12', sinisterDate: '2026-03-14' },
      { sinisterIntermediateRef: null, sinisterDate: '2026-04-02' },
    ]);
    return { driver: d1!.uuid, goneDriver: d2!.uuid, vehicule: v!.uuid, claim: s1!.uuid, datedClaim: s2!.uuid };
  }));
  member = await t.login('membre@alpha.fr');
  admin = await t.login('admin@alpha.fr');
  outsider = await t.login('admin@beta.fr');
  orphan = await t.login('orphelin@exemple.fr');

  const folder = await t.as(member, { method: 'POST', url: '/api/document/folder', payload: { folderName: 'Contrats' } });
  expect(folder.statusCode).toBe(201);
  const uploads = [
    ...(await upload(member, `/api/vehicule/${vehicule}/documents`, [
      { name: 'photo-avant.png', content: PNG },
      { name: 'carte grise.pdf', content: PDF },
    ])),
    ...(await upload(member, `/api/sinister/${claim}/documents`, [{ name: 'constat.pdf', content: PDF }])),
    ...(await upload(admin, '/api/document/upload', [
      { name: 'photo.jpg', content: JPEG },
      { name: 'illisible.jpg', content: BROKEN_JPEG },
    ])),
    ...(await upload(member, `/api/driver/${driver}/documents`, [{ name: 'permis.pdf', content: PDF }])),
    ...(await upload(member, `/api/sinister/${datedClaim}/documents`, [{ name: 'scan.webp', content: WEBP }])),
    ...(await upload(member, `/api/document/upload?parent=${folder.json<Item>().uuid}`, [{ name: 'planning équipe.csv', content: CSV }])),
    ...(await upload(member, `/api/driver/${goneDriver}/documents`, [{ name: 'ancien permis.pdf', content: PDF }])),
  ];
  for (const item of uploads) files.set(item.media!.name, item);
  // In the trash: never in the library.
  const [trashed] = await upload(member, '/api/document/upload', [{ name: 'jeté.pdf', content: PDF }]);
  expect((await t.as(member, { method: 'DELETE', url: `/api/document/${trashed!.uuid}` })).statusCode).toBe(204);
  // Another organization's file.
  await upload(outsider, '/api/document/upload', [{ name: 'beta.jpg', content: JPEG }]);
  // Dates one minute apart, newest first in ORDER (an upload's files share their transaction's time).
  await t.seed(async (tx) => {
    for (const [index, name] of ORDER.entries()) {
      await tx
        .update(documents)
        .set({ createdAt: sql`now() - make_interval(mins => ${index})` })
        .where(eq(documents.uuid, files.get(name)!.uuid));
    }
    await tx.delete(drivers).where(eq(drivers.uuid, goneDriver));
  });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- the list

describe('the media library (GET /api/document/media)', () => {
  it('lists every live file of every folder, newest first, with the record each one is attached to', async () => {
    const response = await list(member);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<Page>();
    expect(page).toMatchObject({ page: 1, nbOfPages: 1, total: ORDER.length });
    expect(page.data.map((item) => item.media!.name)).toEqual(ORDER);
    const byName = new Map(page.data.map((item) => [item.media!.name, item]));
    expect(byName.get('photo-avant.png')).toMatchObject({ kind: 'file', type: 'image/png', size: PNG.length, entity: { type: 'vehicule', uuid: vehicule, label: 'AB-123-CD' } });
    expect(byName.get('constat.pdf')!.entity).toEqual({ type: 'sinister', uuid: claim, label: 'REF/2026/12' });
    expect(byName.get('scan.webp')!.entity).toEqual({ type: 'sinister', uuid: datedClaim, label: '02/04/2026' });
    expect(byName.get('permis.pdf')!.entity).toEqual({ type: 'driver', uuid: driver, label: 'Lefèvre Hélène' });
    expect(byName.get('ancien permis.pdf')!.entity).toEqual({ type: 'driver', uuid: goneDriver, label: null });
    expect(byName.get('photo.jpg')!.entity).toBeNull();
    // A file in a folder keeps its place in the tree.
    expect(byName.get('planning équipe.csv')!.parent).not.toBeNull();
  });

  it('filters by kind: images, PDF, everything else', async () => {
    expect(await names('kind=image')).toEqual(['photo-avant.png', 'photo.jpg', 'scan.webp', 'illisible.jpg']);
    expect(await names('kind=pdf')).toEqual(['constat.pdf', 'permis.pdf', 'carte grise.pdf', 'ancien permis.pdf']);
    expect(await names('kind=other')).toEqual(['planning équipe.csv']);
  });

  it('filters by the record attached: drivers, vehicles, claims, or none', async () => {
    expect(await names('entity=driver')).toEqual(['permis.pdf', 'ancien permis.pdf']);
    expect(await names('entity=vehicule')).toEqual(['photo-avant.png', 'carte grise.pdf']);
    expect(await names('entity=sinister')).toEqual(['constat.pdf', 'scan.webp']);
    expect(await names('entity=none')).toEqual(['photo.jpg', 'planning équipe.csv', 'illisible.jpg']);
    expect(await names('entity=vehicule&kind=image')).toEqual(['photo-avant.png']);
    expect(await names('entity=driver&kind=image')).toEqual([]);
  });

  it('searches names without accents or case, with the other filters', async () => {
    expect(await names('search=PERMIS')).toEqual(['permis.pdf', 'ancien permis.pdf']);
    expect(await names('search=equipe')).toEqual(['planning équipe.csv']);
    expect(await names('search=photo&kind=image&entity=none')).toEqual(['photo.jpg']);
    expect(await names('search=100%25')).toEqual([]);
  });

  it('pages the list in a stable order, files of one instant ordered by uuid', async () => {
    const first = (await list(member, 'limit=4')).json<Page>();
    const third = (await list(member, 'limit=4&page=3')).json<Page>();
    expect(first).toMatchObject({ page: 1, nbOfPages: 3, total: 9 });
    expect(first.data.map((item) => item.media!.name)).toEqual(ORDER.slice(0, 4));
    expect(third.data.map((item) => item.media!.name)).toEqual(ORDER.slice(8));
    expect((await list(member, 'page=9')).json<Page>()).toMatchObject({ data: [], total: 9 });

    const tie = ['photo.jpg', 'constat.pdf', 'permis.pdf'].map((name) => files.get(name)!.uuid);
    await t.seed((tx) => tx.update(documents).set({ createdAt: new Date('2020-01-01T00:00:00Z') }).where(sql`${documents.uuid} in (${sql.join(tie.map((u) => sql`${u}::uuid`), sql`, `)})`));
    try {
      const pages = [];
      for (const page of [1, 2, 3, 4, 5, 6, 7, 8, 9]) pages.push(...(await list(member, `limit=1&page=${page}`)).json<Page>().data.map((item) => item.uuid));
      expect(pages.slice(-3)).toEqual([...tie].sort().reverse());
      expect(new Set(pages).size).toBe(9);
    } finally {
      await t.seed(async (tx) => {
        for (const [index, name] of ORDER.entries()) {
          await tx
            .update(documents)
            .set({ createdAt: sql`now() - make_interval(mins => ${index})` })
            .where(eq(documents.uuid, files.get(name)!.uuid));
        }
      });
    }
  });

  it('refuses a bad filter, page or search with a French message', async () => {
    const cases: [string, string][] = [
      ['kind=video', 'Le type de fichier : image, pdf ou other'],
      ['entity=client', 'Le rattachement : driver, vehicule, sinister ou none'],
      ['page=0', 'La page commence à 1'],
      ['limit=abc', 'La limite doit être un nombre'],
      [`search=${'x'.repeat(300)}`, 'La recherche est trop longue'],
    ];
    for (const [query, message] of cases) {
      const response = await list(member, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toContain(message);
    }
  });

  it('is read by every member, the administrator too; another organization sees only its own', async () => {
    expect((await names('', admin)).length).toBe(9);
    expect(await names('', outsider)).toEqual(['beta.jpg']);
    expect((await list(orphan)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/document/media' })).statusCode).toBe(401);
  });
});

// ---------------------------------------------------------------- thumbnails

describe('thumbnails (GET /api/document/{uuid}/thumbnail)', () => {
  it('makes a small WebP of a JPEG, keeps it in the storage, and never lets the browser keep it on disk', async () => {
    const photo = files.get('photo.jpg')!;
    const response = await thumbnail(member, photo.uuid);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'image/webp',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    expect(response.headers['content-security-policy']).toContain('sandbox');
    expect(response.headers['content-disposition']).toMatch(/^inline; filename="photo\.webp"/);
    const meta = await sharp(response.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 240]);

    const key = thumbnailKeyOf((await fileKeyOf(photo.uuid))!);
    expect(await t.app.storage.exists(key)).toBe(true);
    const again = await thumbnail(admin, photo.uuid);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(response.rawPayload)).toBe(true);
    expect(again.headers.etag).toBe(response.headers.etag);
    const cached = await thumbnail(member, photo.uuid, { 'if-none-match': String(response.headers.etag) });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
  });

  it('makes one of a PNG and of a WebP, never larger than the image', async () => {
    const png = await thumbnail(member, files.get('photo-avant.png')!.uuid);
    expect(png.statusCode, png.body).toBe(200);
    expect(await sharp(png.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 107, height: 320 });
    const webp = await thumbnail(member, files.get('scan.webp')!.uuid);
    expect(webp.statusCode, webp.body).toBe(200);
    expect(await sharp(webp.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 64, height: 48 });
  });

  it('makes one of an HEIC photo its libvips can decode, and answers 415 for one it cannot (an iPhone’s HEVC)', async () => {
    // An AV1-coded image in an HEIC container: what the prebuilt libvips decodes.
    const readable = Buffer.from(await picture(640, 480).heif({ compression: 'av1' }).toBuffer());
    readable.write('heic', 8, 'latin1');
    // A HEIC header over what no decoder reads: what an HEVC photo is to the prebuilt libvips.
    const unreadable = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(200, 7)]);
    const [photo, iphone] = await upload(member, '/api/document/upload', [
      { name: 'lisible.heic', content: readable },
      { name: 'iphone.heic', content: unreadable },
    ]);
    expect([photo!.type, iphone!.type]).toEqual(['image/heic', 'image/heic']);
    const made = await thumbnail(member, photo!.uuid);
    expect(made.statusCode, made.body).toBe(200);
    expect(await sharp(made.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
    const refused = await thumbnail(member, iphone!.uuid);
    expect(refused.statusCode).toBe(415);
    expect(refused.json().message).toBe('Pas de miniature pour la photo HEIC « iphone.heic » : téléchargez-la pour la voir.');
    for (const file of [photo!, iphone!]) expect((await t.as(member, { method: 'DELETE', url: `/api/document/${file.uuid}` })).statusCode).toBe(204);
  });

  it('answers 415 for a PDF or a spreadsheet, 422 for an image it cannot read, never a 5xx, and keeps nothing', async () => {
    for (const name of ['constat.pdf', 'planning équipe.csv']) {
      const response = await thumbnail(member, files.get(name)!.uuid);
      expect(response.statusCode, name).toBe(415);
      expect(response.json().message).toBe('Ce document n’est pas une image : il n’a pas de miniature.');
    }
    const broken = files.get('illisible.jpg')!;
    const response = await thumbnail(member, broken.uuid);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('L’image « illisible.jpg » est illisible ou abîmée : pas de miniature possible.');
    expect(await t.app.storage.exists(thumbnailKeyOf((await fileKeyOf(broken.uuid))!))).toBe(false);
  });

  it('answers 404 for another organization’s image, a folder, a file in the trash, and 400 for a malformed uuid', async () => {
    const photo = files.get('photo.jpg')!;
    const foreign = await thumbnail(outsider, photo.uuid);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Document introuvable');
    expect((await thumbnail(member, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const folder = files.get('planning équipe.csv')!.parent!;
    expect((await thumbnail(member, folder)).statusCode).toBe(404);
    expect((await thumbnail(member, 'pas-un-uuid')).statusCode).toBe(400);
    expect((await thumbnail(orphan, photo.uuid)).statusCode).toBe(403);
  });

  it('goes with its file when the file is deleted for good, from the trash or by the nightly purge', async () => {
    const [first, second] = await upload(member, '/api/document/upload', [
      { name: 'à purger.jpg', content: JPEG },
      { name: 'à oublier.png', content: PNG },
    ]);
    const keys = [];
    for (const file of [first!, second!]) {
      expect((await thumbnail(member, file.uuid)).statusCode).toBe(200);
      const key = thumbnailKeyOf((await fileKeyOf(file.uuid))!);
      expect(await t.app.storage.exists(key)).toBe(true);
      keys.push(key);
      expect((await t.as(member, { method: 'DELETE', url: `/api/document/${file.uuid}` })).statusCode).toBe(204);
    }
    // In the trash: no thumbnail served, but it is kept until the purge (a restore needs it again).
    expect((await thumbnail(member, first!.uuid)).statusCode).toBe(404);
    expect(await t.app.storage.exists(keys[0]!)).toBe(true);

    expect((await t.as(admin, { method: 'DELETE', url: `/api/document/${first!.uuid}/permanent` })).statusCode).toBe(204);
    expect(await t.app.storage.exists(keys[0]!)).toBe(false);

    await t.seed((tx) => tx.update(documents).set({ deletedAt: sql`now() - interval '31 days'` }).where(eq(documents.uuid, second!.uuid)));
    expect(await purgeExpiredTrash({ db: t.database.db, storage: t.app.storage }, (fn) => readSystem(t.database.db, fn))).toBe(1);
    expect(await t.app.storage.exists(keys[1]!)).toBe(false);
    expect(await names('search=purger')).toEqual([]);
  });
});

describe('thumbnails on S3 (s3rver)', () => {
  let s3: TestStorage;
  let onS3: TestContext;
  beforeAll(async () => {
    s3 = await createS3TestStorage();
    onS3 = await createTestApp({ ...s3AppEnv(s3) });
    await onS3.seed(async (tx) => {
      const org = await createOrganization(tx, { title: 'Transports S3' });
      await subscribeToPlan(tx, org.uuid);
      const user = await createUser(tx, { email: 'admin@s3.fr' });
      await linkUser(tx, org.uuid, user.uuid, 'ADMIN');
    });
  });
  afterAll(async () => {
    await onS3?.close();
    await s3?.close();
  });

  it('keeps the thumbnail in the bucket under its derived key, nothing temporary left, and removes it with the purge', async () => {
    const token = await onS3.login('admin@s3.fr');
    const sent = await onS3.as(token, { method: 'POST', url: '/api/document/upload', ...multipart([{ name: 'photo.jpg', content: JPEG }]) });
    expect(sent.statusCode, sent.body).toBe(201);
    const uuid = sent.json<{ data: Item[] }>().data[0]!.uuid;
    const made = await onS3.as(token, { method: 'GET', url: `/api/document/${uuid}/thumbnail` });
    expect(made.statusCode, made.body).toBe(200);
    const keys = (prefix: string) => keysUnder(s3.storage, prefix);
    const [key] = await keys('thumbnails/');
    expect(key).toMatch(/^thumbnails\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp$/);
    const again = await onS3.as(token, { method: 'GET', url: `/api/document/${uuid}/thumbnail` });
    expect(again.rawPayload.equals(made.rawPayload)).toBe(true);
    expect(await keys('tmp/')).toEqual([]);
    expect((await onS3.as(token, { method: 'DELETE', url: `/api/document/${uuid}` })).statusCode).toBe(204);
    expect((await onS3.as(token, { method: 'DELETE', url: `/api/document/${uuid}/permanent` })).statusCode).toBe(204);
    expect(await keys('thumbnails/')).toEqual([]);
  });
});

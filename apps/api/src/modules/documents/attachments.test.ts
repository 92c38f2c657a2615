import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../db/schema/documents.js';
import { organizations } from '../../db/schema/organizations.js';
import { withTenant } from '../../db/scope.js';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser, subscribeToPlan } from '../../seed/factories.js';
import { type MultipartPart, multipartFiles } from '../../../test/multipart.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), Buffer.alloc(300)]);

type Part = MultipartPart;

type Doc = { uuid: string; kind: string; folderName: string | null; parent: string | null; media: { name: string } | null };

let t: TestContext;
let dataDir: string;
let orgA: string;
let member: string;
let outsider: string;
let driver: string;
let homonym: string;
let vehicule: string;
let claim: string;
let datedClaim: string;
let foreignClaim: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-attachments-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  ({ orgA, driver, homonym, vehicule, claim, datedClaim, foreignClaim } = await t.seed(async (tx) => {
    const a = await createOrganization(tx, { title: 'Transports Alpha' });
    await subscribeToPlan(tx, a.uuid);
    const b = await createOrganization(tx, { title: 'Bêta BTP' });
    await subscribeToPlan(tx, b.uuid);
    const plain = await createUser(tx, { email: 'membre@alpha.fr' });
    const foreign = await createUser(tx, { email: 'admin@beta.fr' });
    await linkUser(tx, a.uuid, plain.uuid);
    await linkUser(tx, b.uuid, foreign.uuid, 'ADMIN');
    const [d1, d2] = await createDrivers(tx, a.uuid, [
      { firstName: 'Hélène', lastName: 'Lefèvre' },
      { firstName: 'Hélène', lastName: 'Lefèvre', email: 'autre@alpha.fr' },
    ]);
    const [v] = await createVehicules(tx, a.uuid, [{ immatriculation: 'AB123CD' }]);
    const [s1, s2] = await createSinisters(tx, a.uuid, [
      { sinisterIntermediateRef: 'REF/2026/12', sinisterDate: '2026-03-14' },
      { sinisterIntermediateRef: null, sinisterDate: '2026-04-02' },
    ]);
    const [foreignS] = await createSinisters(tx, b.uuid, [{ sinisterDate: '2026-01-10' }]);
    return { orgA: a.uuid, driver: d1!.uuid, homonym: d2!.uuid, vehicule: v!.uuid, claim: s1!.uuid, datedClaim: s2!.uuid, foreignClaim: foreignS!.uuid };
  }));
  member = await t.login('membre@alpha.fr');
  outsider = await t.login('admin@beta.fr');
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const attach = (token: string, url: string, parts: Part[]) => t.as(token, { method: 'POST', url: `${url}/documents`, ...multipartFiles(parts) });
const listed = (token: string, url: string) => t.as(token, { method: 'GET', url: `${url}/documents` });
const ged = async (query: string) => (await t.as(member, { method: 'GET', url: `/api/document/ged/paginated?${query}` })).json<{ data: Doc[] }>().data;
const names = (docs: Doc[]) => docs.map((d) => d.folderName ?? d.media?.name);

async function attached(url: string, parts: Part[]): Promise<Doc[]> {
  const response = await attach(member, url, parts);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ data: Doc[] }>().data;
}

describe('attachments of drivers, vehicles and claims (issue 14)', () => {
  it('files a claim’s documents under « Sinistres/<référence> », lists them, and shows them in the claim', async () => {
    const [constat, photo] = await attached(`/api/sinister/${claim}`, [
      { name: 'constat.pdf', content: PDF },
      { name: 'photo.png', content: PNG },
    ]);
    const root = await ged('');
    const sinistres = root.find((d) => d.folderName === 'Sinistres')!;
    expect(sinistres).toBeDefined();
    const folders = await ged(`parent=${sinistres.uuid}`);
    // A separator in the reference becomes a dash: the GED refuses « / » in a name.
    expect(names(folders)).toEqual(['REF-2026-12']);
    expect(constat!.parent).toBe(folders[0]!.uuid);

    const list = await listed(member, `/api/sinister/${claim}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(names(list.json<{ data: Doc[] }>().data)).toEqual(['constat.pdf', 'photo.png']);

    const one = await t.as(member, { method: 'GET', url: `/api/sinister/${claim}` });
    expect(one.json<{ documents: unknown }>().documents).toEqual([
      { uuid: constat!.uuid, name: 'constat.pdf' },
      { uuid: photo!.uuid, name: 'photo.png' },
    ]);
    const page = await t.as(member, { method: 'GET', url: '/api/sinister?page=1&limit=10' });
    const rows = page.json<{ data: { uuid: string; documents: unknown[] }[] }>().data;
    expect(rows.find((r) => r.uuid === claim)!.documents).toHaveLength(2);
    expect(rows.find((r) => r.uuid === datedClaim)!.documents).toEqual([]);
  });

  it('reuses the automatic folder on the next attachment, even once renamed or moved in the GED', async () => {
    const [first] = await attached(`/api/vehicule/${vehicule}`, [{ name: 'carte grise.pdf', content: PDF }]);
    const renamed = await t.as(member, { method: 'PATCH', url: `/api/document/${first!.parent}`, payload: { name: 'Clio AB-123-CD' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [second] = await attached(`/api/vehicule/${vehicule}`, [{ name: 'carte grise.pdf', content: PDF }]);
    expect(second!.parent).toBe(first!.parent);
    expect(second!.media!.name).toBe('carte grise (2).pdf');
    const vehicules = (await ged('')).find((d) => d.folderName === 'Véhicules')!;
    expect(names(await ged(`parent=${vehicules.uuid}`))).toEqual(['Clio AB-123-CD']);
  });

  it('names a claim without reference by its date, and gives homonymous drivers their own folder', async () => {
    const [dated] = await attached(`/api/sinister/${datedClaim}`, [{ name: 'devis.pdf', content: PDF }]);
    const [a] = await attached(`/api/driver/${driver}`, [{ name: 'permis.pdf', content: PDF }]);
    const [b] = await attached(`/api/driver/${homonym}`, [{ name: 'permis.pdf', content: PDF }]);
    expect(a!.parent).not.toBe(b!.parent);
    const sinistres = (await ged('')).find((d) => d.folderName === 'Sinistres')!;
    expect(names(await ged(`parent=${sinistres.uuid}`))).toContain('02-04-2026');
    expect(dated!.parent).toBeTruthy();
    const conducteurs = (await ged('')).find((d) => d.folderName === 'Conducteurs')!;
    expect(names(await ged(`parent=${conducteurs.uuid}`))).toEqual(['Lefèvre Hélène', 'Lefèvre Hélène (2)']);
    expect(names((await listed(member, `/api/driver/${homonym}`)).json<{ data: Doc[] }>().data)).toEqual(['permis.pdf']);
  });

  it('keeps filing into the root folder the type already uses, even once the user renamed it', async () => {
    const sinistres = (await ged('')).find((d) => d.folderName === 'Sinistres')!;
    const rename = (name: string) => t.as(member, { method: 'PATCH', url: `/api/document/${sinistres.uuid}`, payload: { name } });
    expect((await rename('Sinistres 2026')).statusCode).toBe(200);
    const [fresh] = await t.seed((tx) => createSinisters(tx, orgA, [{ sinisterIntermediateRef: 'REF-NEUF', sinisterDate: '2026-05-05' }]));
    const [doc] = await attached(`/api/sinister/${fresh!.uuid}`, [{ name: 'constat.pdf', content: PDF }]);
    const folder = (await ged(`parent=${sinistres.uuid}`)).find((d) => d.folderName === 'REF-NEUF');
    expect(doc!.parent).toBe(folder?.uuid);
    // No second « Sinistres » at the root.
    expect(names(await ged('')).filter((name) => name?.startsWith('Sinistres'))).toEqual(['Sinistres 2026']);
    expect((await rename('Sinistres')).statusCode).toBe(200);
  });

  it('creates one folder when two first attachments race (the tree’s lock)', async () => {
    const [fresh] = await t.seed((tx) => createDrivers(tx, orgA, [{ firstName: 'Paul', lastName: 'Durand' }]));
    const url = `/api/driver/${fresh!.uuid}`;
    const responses = await Promise.all([attach(member, url, [{ name: 'a.pdf', content: PDF }]), attach(member, url, [{ name: 'b.pdf', content: PDF }])]);
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201]);
    const parents = responses.map((r) => r.json<{ data: Doc[] }>().data[0]!.parent);
    expect(parents[0]).toBe(parents[1]);
    const folders = await withTenant(t.database.db, orgA, (tx) =>
      tx.select({ n: sql<number>`count(*)::int` }).from(documents).where(sql`${documents.entityUuid} = ${fresh!.uuid} and ${documents.kind} = 'folder'`),
    );
    expect(folders[0]!.n).toBe(1);
  });

  it('takes a file off its entity to the trash; a file of another entity or a folder is not found', async () => {
    const [doc] = await attached(`/api/sinister/${claim}`, [{ name: 'facture.pdf', content: PDF }]);
    expect((await t.as(member, { method: 'DELETE', url: `/api/driver/${driver}/documents/${doc!.uuid}` })).statusCode).toBe(404);
    const removed = await t.as(member, { method: 'DELETE', url: `/api/sinister/${claim}/documents/${doc!.uuid}` });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(names((await listed(member, `/api/sinister/${claim}`)).json<{ data: Doc[] }>().data)).not.toContain('facture.pdf');
    const trash = (await t.as(member, { method: 'GET', url: '/api/document/trash' })).json<{ data: Doc[] }>().data;
    expect(trash.map((d) => d.uuid)).toContain(doc!.uuid);
    const again = await t.as(member, { method: 'DELETE', url: `/api/sinister/${claim}/documents/${doc!.uuid}` });
    expect(again.statusCode).toBe(404);
    expect(again.json<{ message: string }>().message).toBe('Document introuvable');
  });

  it('refuses a file of a refused type with nothing written, and asks for a file', async () => {
    const [before] = await withTenant(t.database.db, orgA, (tx) => tx.select({ n: sql<number>`count(*)::int` }).from(documents));
    const refused = await attach(member, `/api/vehicule/${vehicule}`, [{ name: 'setup.pdf', content: EXE }]);
    expect(refused.statusCode).toBe(415);
    expect(refused.json<{ message: string }>().message).toContain('« setup.pdf » : ce type de fichier n’est pas accepté');
    const empty = await t.as(member, { method: 'POST', url: `/api/vehicule/${vehicule}/documents`, payload: {} });
    expect(empty.statusCode).toBe(400);
    const [after] = await withTenant(t.database.db, orgA, (tx) => tx.select({ n: sql<number>`count(*)::int` }).from(documents));
    expect(after!.n).toBe(before!.n);
  });

  it('answers 404 for another organization’s entity or document, an unknown one, and 400 for a malformed uuid', async () => {
    const [doc] = await attached(`/api/sinister/${claim}`, [{ name: 'rapport.pdf', content: PDF }]);
    for (const response of [
      await attach(outsider, `/api/sinister/${claim}`, [{ name: 'x.pdf', content: PDF }]),
      await listed(outsider, `/api/sinister/${claim}`),
      await t.as(outsider, { method: 'DELETE', url: `/api/sinister/${claim}/documents/${doc!.uuid}` }),
      await attach(member, `/api/sinister/${foreignClaim}`, [{ name: 'x.pdf', content: PDF }]),
      await listed(member, `/api/driver/${claim}`),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
    }
    expect((await listed(outsider, `/api/sinister/${claim}`)).json<{ message: string }>().message).toBe('Sinistre introuvable');
    expect((await listed(member, '/api/vehicule/pas-un-uuid')).statusCode).toBe(400);
    expect((await t.as(member, { method: 'GET', url: '/api/document/trash' })).statusCode).toBe(200);
    // The outsider's attempts wrote nothing in their own GED.
    expect((await t.as(outsider, { method: 'GET', url: '/api/document/ged/paginated' })).json<{ total: number }>().total).toBe(0);
  });

  it('asks for a signed-in member: anonymous calls are 401', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/sinister/${claim}/documents` });
    expect(response.statusCode).toBe(401);
  });

  it('fills `documents` in the answers of an edit, an archive and a restore, for each register', async () => {
    const [file] = await attached(`/api/driver/${homonym}`, [{ name: 'carte vitale.pdf', content: PDF }]);
    for (const [url, patch] of [
      [`/api/driver/${homonym}`, { phone: null }],
      [`/api/vehicule/${vehicule}`, { brand: 'Renault' }],
      [`/api/sinister/${claim}`, { city: 'Tours' }],
    ] as const) {
      const edited = await t.as(member, { method: 'PATCH', url, payload: patch });
      expect(edited.statusCode, edited.body).toBe(200);
      const archived = await t.as(member, { method: 'DELETE', url });
      expect(archived.statusCode, archived.body).toBe(200);
      const uuid = url.split('/').pop()!;
      const restored = await t.as(member, { method: 'POST', url: `${url.slice(0, url.lastIndexOf('/'))}/restore/${uuid}` });
      expect(restored.statusCode, restored.body).toBe(200);
      for (const response of [edited, archived, restored]) expect(response.json<{ documents: unknown[] }>().documents.length, url).toBeGreaterThan(0);
    }
    const driverAnswer = (await t.as(member, { method: 'GET', url: `/api/driver/${homonym}` })).json<{ documents: { uuid: string }[] }>();
    expect(driverAnswer.documents.map((d) => d.uuid)).toContain(file!.uuid);
  });

  it('moves the register’s version on an attachment: a held page’s ETag no longer matches', async () => {
    const first = await t.as(member, { method: 'GET', url: '/api/driver?page=1&limit=10' });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const unchanged = await t.as(member, { method: 'GET', url: '/api/driver?page=1&limit=10', headers: { 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    await attached(`/api/driver/${driver}`, [{ name: 'visite médicale.pdf', content: PDF }]);
    const changed = await t.as(member, { method: 'GET', url: '/api/driver?page=1&limit=10', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    const row = changed.json<{ data: { uuid: string; documents: { name: string }[] }[] }>().data.find((r) => r.uuid === driver)!;
    expect(row.documents.map((d) => d.name)).toContain('visite médicale.pdf');

    // The page cache too: a page held before a file is taken off is not served after.
    const held = (await t.as(member, { method: 'GET', url: '/api/driver?page=1&limit=10' })).json<{ data: { uuid: string; documents: { uuid: string; name: string }[] }[] }>();
    const visite = held.data.find((r) => r.uuid === driver)!.documents.find((d) => d.name === 'visite médicale.pdf')!;
    expect((await t.as(member, { method: 'DELETE', url: `/api/driver/${driver}/documents/${visite.uuid}` })).statusCode).toBe(204);
    const after = (await t.as(member, { method: 'GET', url: '/api/driver?page=1&limit=10' })).json<{ data: { uuid: string; documents: { name: string }[] }[] }>();
    expect(after.data.find((r) => r.uuid === driver)!.documents.map((d) => d.name)).not.toContain('visite médicale.pdf');
  });

  it('lets an organization with attached documents be deleted (the version trigger skips an organization going)', async () => {
    const count = async () => (await t.seed((tx) => tx.select({ n: sql<number>`count(*)::int` }).from(documents).where(eq(documents.organizationUuid, orgA))))[0]!.n;
    expect(await count()).toBeGreaterThan(0);
    await t.seed((tx) => tx.delete(organizations).where(eq(organizations.uuid, orgA)));
    expect(await count()).toBe(0);
  });
});

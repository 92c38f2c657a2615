import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../src/db/schema/documents.js';
import { drivers } from '../../src/db/schema/drivers.js';
import { storedFiles } from '../../src/db/schema/stored-files.js';
import { createDrivers } from '../../src/seed/factories.js';
import { type EnvironmentFixtures, openEnvironments } from '../fixtures/environments.js';
import { multipartFiles } from '../multipart.js';
import { keysUnder, s3AppEnv, TEST_STORAGES, type TestStorage } from '../storage.js';
import type { TestContext } from '../test-app.js';

/**
 * Issue 20, point 9 (personal data, GDPR): erasing a driver — its permanent deletion, DELETE
 * /api/driver/{uuid}/hard — removes its row, its documents (its folder, its files live or in the
 * trash, a file put in its folder by hand) and their stored objects, on the local disk and on S3;
 * only an ADMIN of its organization, a SUPERADMIN of its environment working in it, or ROOT may;
 * another organization's caller gets a 404 and nothing moves. The file prints what it tried and
 * what held.
 */

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const LONG = 120_000;

const ledger: string[] = [];
const held = (tried: string, outcome: string) => ledger.push(`  ${tried.padEnd(86)} → ${outcome}`);
afterAll(() => {
  process.stdout.write(`[gdpr] ${ledger.length} attempts, each held:\n${ledger.join('\n')}\n`);
});

type Doc = { uuid: string; name: string; parent: string | null };

describe.each(TEST_STORAGES)('erasing a driver, files on %s', (storageName, createStorage) => {
  let t: TestContext;
  let f: EnvironmentFixtures;
  let tokens: Record<string, string>;
  let s3: TestStorage | undefined;

  beforeAll(async () => {
    s3 = storageName.startsWith('S3') ? await createStorage() : undefined;
    ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'super-b', 'admin-a', 'user-a', 'user-b'], s3 ? s3AppEnv(s3) : {}));
    // ROOT and the superadmins work in a client organization, as the organization switcher does.
    const me = async (who: string) => (await t.as(tokens[who]!, { method: 'GET', url: '/api/auth/me' })).json<{ uuid: string; currentOrganizationUser: { uuid: string } }>();
    const adminA = await me('admin-a');
    const userB = await me('user-b');
    for (const [who, link] of [
      ['root', adminA.currentOrganizationUser.uuid],
      ['super-a', adminA.currentOrganizationUser.uuid],
      ['super-b', userB.currentOrganizationUser.uuid],
    ] as const) {
      const self = await me(who);
      const switched = await t.as(tokens[who]!, { method: 'PATCH', url: `/api/user/${self.uuid}`, payload: { currentOrganizationUser: link } });
      expect(switched.statusCode, switched.body).toBe(200);
    }
  }, LONG);
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** A driver of Étoile du Nord (organization A1) with two attached files (one then detached, in the trash) and a file put in its folder by hand. */
  async function driverWithFiles(lastName: string) {
    const [driver] = await t.seed((tx) => createDrivers(tx, f.orgA1.uuid, [{ firstName: 'Séraphin', lastName, email: `${lastName.toLowerCase()}@exemple.fr` }]));
    const upload = multipartFiles([
      { name: `permis ${lastName}.pdf`, content: PDF },
      { name: `carte vitale ${lastName}.pdf`, content: PDF },
    ]);
    const attached = await t.as(tokens['admin-a']!, { method: 'POST', url: `/api/driver/${driver!.uuid}/documents`, payload: upload.payload, headers: upload.headers });
    expect(attached.statusCode, attached.body).toBe(201);
    const files = attached.json<{ data: Doc[] }>().data;
    expect(files).toHaveLength(2);
    const detached = await t.as(tokens['admin-a']!, { method: 'DELETE', url: `/api/driver/${driver!.uuid}/documents/${files[1]!.uuid}` });
    expect(detached.statusCode, detached.body).toBe(204);
    const byHand = multipartFiles([{ name: `attestation ${lastName}.pdf`, content: PDF }]);
    const put = await t.as(tokens['admin-a']!, { method: 'POST', url: `/api/document/upload?parent=${files[0]!.parent}`, payload: byHand.payload, headers: byHand.headers });
    expect(put.statusCode, put.body).toBe(201);
    return { uuid: driver!.uuid, folder: files[0]!.parent! };
  }

  /** What the database and the storage hold of the organization: its documents' uuids, its stored files' keys and its objects. */
  async function holdings() {
    const rows = await t.seed(async (tx) => ({
      documents: (await tx.select({ uuid: documents.uuid }).from(documents).where(eq(documents.organizationUuid, f.orgA1.uuid))).map((row) => row.uuid),
      keys: (await tx.select({ key: storedFiles.key }).from(storedFiles).where(eq(storedFiles.organizationUuid, f.orgA1.uuid))).map((row) => row.key),
    }));
    return { ...rows, objects: await keysUnder(t.app.storage, `${f.orgA1.uuid}/`) };
  }

  /** The driver's documents (linked, or under its folder) and their keys, read as the system. */
  async function driverHoldings(driver: { uuid: string; folder: string }) {
    return t.seed(async (tx) => {
      const linked = await tx.select().from(documents).where(and(eq(documents.entityType, 'driver'), eq(documents.entityUuid, driver.uuid)));
      const inFolder = await tx.select().from(documents).where(eq(documents.parentUuid, driver.folder));
      const rows = [...new Map([...linked, ...inFolder].map((row) => [row.uuid, row])).values()];
      const [row] = await tx.select({ uuid: drivers.uuid }).from(drivers).where(eq(drivers.uuid, driver.uuid));
      return { exists: row !== undefined, documents: rows.map((d) => d.uuid), keys: rows.flatMap((d) => (d.fileKey ? [d.fileKey] : [])) };
    });
  }

  it(
    'removes the row, every document and every stored object of the driver, and nothing else',
    async () => {
      const erased = await driverWithFiles('Effacé');
      const kept = await driverWithFiles('Gardé');
      const before = await driverHoldings(erased);
      // The folder, two attached files (one in the trash) and the file put in the folder by hand.
      expect(before.documents).toHaveLength(4);
      expect(before.keys).toHaveLength(3);
      for (const key of before.keys) expect(await t.app.storage.exists(key), key).toBe(true);
      const keptBefore = await driverHoldings(kept);
      const all = await holdings();

      const response = await t.as(tokens['admin-a']!, { method: 'DELETE', url: `/api/driver/${erased.uuid}/hard` });
      expect(response.statusCode, response.body).toBe(204);

      const after = await driverHoldings(erased);
      expect(after).toEqual({ exists: false, documents: [], keys: [] });
      const now = await holdings();
      expect(now.documents.sort()).toEqual(all.documents.filter((uuid) => !before.documents.includes(uuid)).sort());
      expect(now.keys.sort()).toEqual(all.keys.filter((key) => !before.keys.includes(key)).sort());
      for (const key of before.keys) {
        expect(await t.app.storage.exists(key), key).toBe(false);
        expect(now.objects).not.toContain(key);
      }
      // The other driver keeps all of its own.
      expect(await driverHoldings(kept)).toEqual(keptBefore);
      for (const key of keptBefore.keys) expect(await t.app.storage.exists(key), key).toBe(true);
      // Nothing of it is served any more.
      expect((await t.as(tokens['admin-a']!, { method: 'GET', url: `/api/driver/${erased.uuid}` })).statusCode).toBe(404);
      expect((await t.as(tokens['admin-a']!, { method: 'GET', url: `/api/document/ged/paginated?search=Effac` })).json<{ total: number }>().total).toBe(0);
      expect((await t.as(tokens['admin-a']!, { method: 'GET', url: '/api/document/trash' })).json<{ data: Doc[] }>().data.map((d) => d.name)).not.toContain('carte vitale Effacé.pdf');
      held(
        `${storageName}: admin erases a driver with 4 documents, 3 stored files`,
        `204; row, 4 documents, 3 stored_files rows and 3 objects gone; the other driver's ${keptBefore.keys.length} files kept`,
      );
    },
    LONG,
  );

  it(
    'is for an ADMIN of the organization, a SUPERADMIN of its environment working in it, or ROOT; another organization gets a 404, nothing moves',
    async () => {
      const cases = [
        ['root', 204],
        ['super-a', 204],
        ['admin-a', 204],
        ['user-a', 403],
        ['user-b', 404],
        ['super-b', 404],
        [null, 401],
      ] as const;
      for (const [who, status] of cases) {
        const driver = await driverWithFiles(`Rôle ${who ?? 'anonyme'}`);
        const before = await driverHoldings(driver);
        const url = `/api/driver/${driver.uuid}/hard`;
        const response = who ? await t.as(tokens[who]!, { method: 'DELETE', url }) : await t.app.inject({ method: 'DELETE', url });
        expect(response.statusCode, `${who}: ${response.body}`).toBe(status);
        const after = await driverHoldings(driver);
        if (status === 204) {
          expect(after).toEqual({ exists: false, documents: [], keys: [] });
          for (const key of before.keys) expect(await t.app.storage.exists(key), key).toBe(false);
        } else {
          // Refused: the row, the documents and the objects are all still there, and the message is French.
          expect(after).toEqual(before);
          for (const key of before.keys) expect(await t.app.storage.exists(key), key).toBe(true);
          expect(response.json<{ message: string }>().message).toMatch(/[éèà]|introuvable|Authentification|administrateur/);
        }
        held(`${storageName}: ${(who ?? 'anonyme').padEnd(8)} erases a driver of Étoile du Nord (3 files)`, `${response.statusCode}${status === 204 ? ', everything gone' : ', nothing moved'}`);
      }
    },
    LONG,
  );
});

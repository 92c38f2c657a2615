import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { DatabaseHandle } from '../../db/client.js';
import { storedFiles } from '../../db/schema/stored-files.js';
import { readTenant, withSystem, withTenant } from '../../db/scope.js';
import { NotFoundError, PayloadTooLargeError } from '../../errors.js';
import { createOrganization } from '../../seed/factories.js';
import { TEST_STORAGES, type TestStorage } from '../../../test/storage.js';
import { createTestDatabase } from '../../../test/test-app.js';
import {
  cleanupTemporaryObjects,
  commit,
  DEFAULT_TEMPORARY_LIFETIME_MS,
  discard,
  openStoredFile,
  recordStoredFile,
  removeStoredFile,
  stage,
  storeFile,
  temporaryKeyOf,
} from './files.js';
import type { ObjectStorage } from './storage.js';

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString();
}
const text = (value: string) => Readable.from([Buffer.from(value)]);
const DAY = DEFAULT_TEMPORARY_LIFETIME_MS;

let database: DatabaseHandle;
let orgA: string;
let orgB: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ orgA, orgB } = await withSystem(database.db, async (tx) => ({
    orgA: (await createOrganization(tx, { title: 'Transports Alpha' })).uuid,
    orgB: (await createOrganization(tx, { title: 'Logistique Bêta' })).uuid,
  })));
});
afterAll(() => database.close());

/** The stored_files rows an organization sees (its tenant scope). */
const rowsOf = (organizationUuid: string) =>
  readTenant(database.db, organizationUuid, (tx) => tx.select({ key: storedFiles.key, sizeBytes: storedFiles.sizeBytes }).from(storedFiles));
const rowExists = async (key: string) =>
  (await withSystem(database.db, (tx) => tx.select({ key: storedFiles.key }).from(storedFiles).where(eq(storedFiles.key, key)))).length === 1;

async function keysUnder(storage: ObjectStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys.sort();
}

describe.each(TEST_STORAGES)('stored files on %s', (_name, create) => {
  let t: TestStorage;
  let storage: ObjectStorage;
  beforeAll(async () => {
    t = await create();
    storage = t.storage;
  });
  afterAll(() => t.close());

  describe('storeFile (stage → transaction → commit)', () => {
    it('writes the object under a generated key of the organization, records its row, and commits it', async () => {
      const result = await storeFile(database.db, storage, orgA, text('carte grise'), { maxBytes: 1000 }, async (_tx, file) => ({ used: file.key, size: file.size }));
      expect(result.used).toMatch(new RegExp(`^${orgA}/[0-9a-f-]{36}$`));
      expect(result.size).toBe(Buffer.byteLength('carte grise'));
      expect(await rowsOf(orgA)).toContainEqual({ key: result.used, sizeBytes: result.size });
      expect(await storage.exists(result.used)).toBe(true);
      expect(await storage.exists(temporaryKeyOf(result.used))).toBe(false);
      expect(await readAll((await openStoredFile(storage, result.used)).body)).toBe('carte grise');
    });

    it('leaves neither row nor object when the transaction fails', async () => {
      let key = '';
      await expect(
        storeFile(database.db, storage, orgA, text('pièce refusée'), { maxBytes: 1000 }, async (_tx, file) => {
          key = file.key;
          // The object is written, the row inserted: then the feature's insert fails.
          expect(await storage.exists(file.temporaryKey)).toBe(true);
          throw new Error('insertion refusée');
        }),
      ).rejects.toThrow('insertion refusée');
      expect(await rowExists(key)).toBe(false);
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.exists(temporaryKeyOf(key))).toBe(false);
    });

    it('leaves nothing for a file over the limit, and never opens the transaction', async () => {
      const before = await rowsOf(orgA);
      const temporaryBefore = await keysUnder(storage, `tmp/`);
      let called = false;
      const error = await storeFile(database.db, storage, orgA, Readable.from([Buffer.alloc(4096)]), { maxBytes: 1024 }, async () => {
        called = true;
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect(called).toBe(false);
      expect(await rowsOf(orgA)).toEqual(before);
      expect(await keysUnder(storage, 'tmp/')).toEqual(temporaryBefore);
    });

    it('leaves nothing when the organization does not exist (the row is refused)', async () => {
      const ghost = '7b0e4a7c-9f4e-4c1d-8a55-000000000000';
      await expect(storeFile(database.db, storage, ghost, text('x'), { maxBytes: 10 }, async () => undefined)).rejects.toThrow();
      expect(await keysUnder(storage, `tmp/${ghost}/`)).toEqual([]);
      expect(await keysUnder(storage, `${ghost}/`)).toEqual([]);
    });

    it('answers with the row when the move fails after the commit, and tells onCommitFailure', async () => {
      const failing: ObjectStorage = Object.assign(Object.create(storage) as ObjectStorage, {
        move: () => Promise.reject(new Error('stockage injoignable')),
      });
      const reported: unknown[] = [];
      const key = await storeFile(database.db, failing, orgA, text('attestation'), { maxBytes: 100, onCommitFailure: (error) => reported.push(error) }, async (_tx, file) => file.key);
      expect(reported).toEqual([new Error('stockage injoignable')]);
      expect(await rowExists(key)).toBe(true);
      // Still temporary, yet readable: the row is the truth.
      expect(await storage.exists(key)).toBe(false);
      expect(await readAll((await openStoredFile(storage, key, { start: 0, end: 3 })).body)).toBe('atte');
      const report = await cleanupTemporaryObjects(storage, database.db);
      expect(report.committed).toBeGreaterThanOrEqual(1);
      expect(await storage.exists(key)).toBe(true);
      expect(await storage.exists(temporaryKeyOf(key))).toBe(false);
    });
  });

  describe('the protocol by hand, and crashes between its steps', () => {
    it('stage writes only a temporary object; commit promotes it and is idempotent; discard removes it', async () => {
      const file = await stage(storage, orgA, text('photo du choc'), { maxBytes: 100 });
      expect(file.temporaryKey).toBe(`tmp/${file.key}`);
      expect(await storage.exists(file.temporaryKey)).toBe(true);
      expect(await storage.exists(file.key)).toBe(false);
      await commit(storage, file);
      await commit(storage, file);
      expect(await storage.exists(file.key)).toBe(true);
      expect(await storage.exists(file.temporaryKey)).toBe(false);

      const refused = await stage(storage, orgA, text('doublon'), { maxBytes: 100 });
      await discard(storage, refused);
      expect(await storage.exists(refused.temporaryKey)).toBe(false);
      // Committing a file that was never staged (or discarded) is an error, not a silent success.
      await expect(commit(storage, refused)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('refuses to stage for something that is not an organization uuid, before writing', async () => {
      const before = await keysUnder(storage, 'tmp/');
      for (const organization of ['../media', orgA.toUpperCase(), 'tmp', '']) {
        await expect(stage(storage, organization, text('x'), { maxBytes: 10 }), organization).rejects.toThrow(TypeError);
      }
      expect(await keysUnder(storage, 'tmp/')).toEqual(before);
    });

    it('crash before the transaction commits: the cleanup removes the orphan once older than a day, not before', async () => {
      const orphan = await stage(storage, orgB, text('jamais enregistré'), { maxBytes: 100 });
      const young = await cleanupTemporaryObjects(storage, database.db);
      expect(young.kept).toBeGreaterThanOrEqual(1);
      expect(await storage.exists(orphan.temporaryKey)).toBe(true);

      const later = new Date(Date.now() + DAY + 60_000);
      const old = await cleanupTemporaryObjects(storage, database.db, { now: later });
      expect(old.removed).toBeGreaterThanOrEqual(1);
      expect(await storage.exists(orphan.temporaryKey)).toBe(false);
      expect(await storage.exists(orphan.key)).toBe(false);
    });

    it('crash after the transaction, before the move: reads find the file, the cleanup commits it even when old', async () => {
      const file = await stage(storage, orgB, text('procès-verbal'), { maxBytes: 100 });
      await withTenant(database.db, orgB, (tx) => recordStoredFile(tx, file));
      expect(await readAll((await openStoredFile(storage, file.key)).body)).toBe('procès-verbal');

      const report = await cleanupTemporaryObjects(storage, database.db, { now: new Date(Date.now() + 3 * DAY) });
      expect(report.committed).toBeGreaterThanOrEqual(1);
      expect(await storage.exists(file.key)).toBe(true);
      expect(await storage.exists(file.temporaryKey)).toBe(false);
      expect(await readAll((await openStoredFile(storage, file.key)).body)).toBe('procès-verbal');
    });

    it('several cleanups at once (several API processes) end in the same consistent state', async () => {
      const recorded = await Promise.all([1, 2, 3].map((i) => stage(storage, orgA, text(`enregistré ${i}`), { maxBytes: 100 })));
      await withTenant(database.db, orgA, async (tx) => {
        for (const file of recorded) await recordStoredFile(tx, file);
      });
      const orphans = await Promise.all([1, 2, 3].map((i) => stage(storage, orgA, text(`orphelin ${i}`), { maxBytes: 100 })));
      const now = new Date(Date.now() + 2 * DAY);
      const reports = await Promise.all([1, 2, 3].map(() => cleanupTemporaryObjects(storage, database.db, { now })));
      expect(reports.reduce((sum, r) => sum + r.committed, 0)).toBeGreaterThanOrEqual(3);
      for (const file of recorded) {
        expect(await storage.exists(file.key)).toBe(true);
        expect(await storage.exists(file.temporaryKey)).toBe(false);
      }
      for (const file of orphans) {
        expect(await storage.exists(file.temporaryKey)).toBe(false);
        expect(await storage.exists(file.key)).toBe(false);
      }
    });

    it('leaves alone what stage did not write under tmp/', async () => {
      await storage.put('tmp/autre-chose/notes.txt', text('pas à nous'), { maxBytes: 100 });
      await cleanupTemporaryObjects(storage, database.db, { now: new Date(Date.now() + 10 * DAY) });
      expect(await storage.exists('tmp/autre-chose/notes.txt')).toBe(true);
      await storage.delete('tmp/autre-chose/notes.txt');
    });
  });

  describe('removeStoredFile', () => {
    it('removes the feature row, the file row and the object', async () => {
      const key = await storeFile(database.db, storage, orgA, text('à supprimer'), { maxBytes: 100 }, async (_tx, file) => file.key);
      let seenInside: unknown[] = [];
      // fn runs first, in the organization's transaction: where the feature deletes its row.
      await removeStoredFile(database.db, storage, orgA, key, async (tx) => {
        seenInside = await tx.select({ key: storedFiles.key }).from(storedFiles).where(eq(storedFiles.key, key));
      });
      expect(seenInside).toEqual([{ key }]);
      expect(await rowExists(key)).toBe(false);
      expect(await storage.exists(key)).toBe(false);
      await expect(openStoredFile(storage, key)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("answers NotFound for another organization's file and keeps it", async () => {
      const key = await storeFile(database.db, storage, orgA, text('à Alpha'), { maxBytes: 100 }, async (_tx, file) => file.key);
      await expect(removeStoredFile(database.db, storage, orgB, key)).rejects.toBeInstanceOf(NotFoundError);
      expect(await rowExists(key)).toBe(true);
      expect(await storage.exists(key)).toBe(true);
    });

    it('keeps everything when the feature\u2019s part fails', async () => {
      const key = await storeFile(database.db, storage, orgA, text('gardé'), { maxBytes: 100 }, async (_tx, file) => file.key);
      await expect(
        removeStoredFile(database.db, storage, orgA, key, async () => {
          throw new Error('suppression refusée');
        }),
      ).rejects.toThrow('suppression refusée');
      expect(await rowExists(key)).toBe(true);
      expect(await storage.exists(key)).toBe(true);
    });
  });
});

describe('stored_files under row-level security', () => {
  it("shows an organization only its own files, and refuses a key in another organization's space", async () => {
    const keyA = `${orgA}/11111111-2222-4333-8444-555555555555`;
    await withTenant(database.db, orgA, (tx) => tx.insert(storedFiles).values({ key: keyA, organizationUuid: orgA, sizeBytes: 3 }));
    // No WHERE at all: row-level security alone hides the other organization's rows.
    expect((await rowsOf(orgB)).map((r) => r.key)).not.toContain(keyA);
    expect((await rowsOf(orgA)).map((r) => r.key)).toContain(keyA);
    // B cannot record a file as A's, nor under A's prefix as its own.
    await expect(withTenant(database.db, orgB, (tx) => tx.insert(storedFiles).values({ key: `${orgA}/x`, organizationUuid: orgA, sizeBytes: 1 }))).rejects.toThrow();
    await expect(withTenant(database.db, orgB, (tx) => tx.insert(storedFiles).values({ key: `${orgA}/y`, organizationUuid: orgB, sizeBytes: 1 }))).rejects.toThrow();
    expect(await rowExists(`${orgA}/x`)).toBe(false);
    expect(await rowExists(`${orgA}/y`)).toBe(false);
  });

  it('is forced on the table (an owner would not bypass it)', async () => {
    const result = (await withSystem(database.db, (tx) =>
      tx.execute(sql`SELECT relrowsecurity AS enabled, relforcerowsecurity AS forced FROM pg_class WHERE relname = 'stored_files'`),
    )) as { rows: unknown[] };
    expect(result.rows).toEqual([{ enabled: true, forced: true }]);
  });
});

describe('the application', () => {
  it('opens the configured storage as app.storage: DATA_DIR/media by default, the bucket with S3_BUCKET', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-app-storage-'));
    const env = { DATA_DIR: dataDir, APP_SECRET: 'test-secret-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent' };
    const local = await buildApp(loadConfig(env), database, { serveWeb: false, logger: false });
    expect(local.storage.kind).toBe('local');
    await local.storage.put(`${orgA}/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, text('ok'), { maxBytes: 10 });
    expect(readdirSync(path.join(dataDir, 'media'))).toEqual([orgA]);
    await local.close();

    const s3 = await buildApp(loadConfig({ ...env, S3_BUCKET: 'flotte-fichiers', S3_ENDPOINT: 'http://127.0.0.1:9', S3_FORCE_PATH_STYLE: 'true' }), database, {
      serveWeb: false,
      logger: false,
    });
    expect(s3.storage.kind).toBe('s3');
    await s3.close();
  });
});

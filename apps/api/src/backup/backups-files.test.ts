import { formatFileSize } from '@flotte/contract';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StorageConfig } from '../config.js';
import { type DatabaseHandle, openPglite } from '../db/client.js';
import { storedFiles } from '../db/schema/stored-files.js';
import { withTenant } from '../db/scope.js';
import { ExplainedError } from '../lib/explained-error.js';
import { createOrganization, createUser, linkUser } from '../seed/factories.js';
import { multipartFiles } from '../../test/multipart.js';
import { createTestDatabase, type TestContext, testAppOn } from '../../test/test-app.js';
import { backupPglite, describeBackupFiles, describeRestoredFiles, FORMAT_VERSION, readBackupFile, type TakenBackup } from './backups.js';
import { restoreBackup, unpackStoredFiles } from './restore.js';
import { readEntry, readTarEntries, TarWriter } from './tar.js';

/**
 * Backups with the stored files (decision 032): a backup of a PGlite database whose documents were
 * uploaded holds their bytes, a restore into another DATA_DIR serves them again, and an archive
 * whose files do not match what it announces is refused before anything changes.
 */

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const pdfOfSize = (bytes: number, fill = 0x20) => Buffer.concat([PDF, Buffer.alloc(Math.max(0, bytes - PDF.length), fill)]);

const scratch: string[] = [];
const tmp = (prefix = 'flotte-backup-files-') => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};

/** A migrated PGlite database: the run's dump when tests run on PGlite, else migrated here. */
async function pgliteDatabase(): Promise<DatabaseHandle> {
  return inject('testDb').kind === 'pglite' ? createTestDatabase() : openPglite();
}

type Entry = { name: string; data: Buffer };

async function archiveEntries(file: string): Promise<Entry[]> {
  const input = await open(file, 'r');
  try {
    const entries: Entry[] = [];
    for await (const entry of readTarEntries(input)) entries.push({ name: entry.name, data: await readEntry(input, entry) });
    return entries;
  } finally {
    await input.close();
  }
}

/** The backup rewritten entry by entry, each passed through change (null drops it). */
async function rewritten(file: string, change: (entry: Entry) => Entry | null): Promise<string> {
  const target = path.join(tmp(), path.basename(file));
  const out = await open(target, 'w');
  try {
    const tar = new TarWriter(out);
    for (const entry of await archiveEntries(file)) {
      const kept = change(entry);
      if (kept) await tar.addBuffer(kept.name, kept.data);
    }
    await tar.finish();
  } finally {
    await out.close();
  }
  return target;
}

/** Every file under a folder, as relative path → bytes. */
function tree(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.set(path.relative(dir, file), readFileSync(file).toString('base64'));
  }
  return found;
}

let t: TestContext;
let dataDir: string;
let org: string;
let token: string;
let uploaded: { uuid: string; content: Buffer }[];
let longKey: string;
let pendingKey: string;
let backup: TakenBackup;

beforeAll(async () => {
  dataDir = tmp();
  t = await testAppOn(await pgliteDatabase(), { DATA_DIR: dataDir });
  ({ org } = await t.seed(async (tx) => {
    const organization = await createOrganization(tx, { title: 'Transports Sauvegarde' });
    const user = await createUser(tx, { email: 'membre@sauvegarde.fr' });
    await linkUser(tx, organization.uuid, user.uuid);
    return { org: organization.uuid };
  }));
  token = await t.login('membre@sauvegarde.fr');
  const contents = [pdfOfSize(40_000, 0x41), PNG];
  const response = await t.as(token, {
    method: 'POST',
    url: '/api/document/upload',
    ...multipartFiles([
      { name: 'carte grise.pdf', content: contents[0]! },
      { name: 'photo.png', content: contents[1]! },
    ]),
  });
  expect(response.statusCode, response.body).toBe(201);
  uploaded = response.json<{ data: { uuid: string }[] }>().data.map((doc, i) => ({ uuid: doc.uuid, content: contents[i]! }));

  const storage = t.app.storage;
  const record = (key: string, size: number) => withTenant(t.database.db, org, (tx) => tx.insert(storedFiles).values({ key, organizationUuid: org, sizeBytes: size }));
  // A recorded file under a key longer than ustar's 256 bytes (keys go up to 512).
  longKey = `${org}/${'a'.repeat(200)}/${'b'.repeat(200)}`;
  await storage.put(longKey, Readable.from([Buffer.from('clé longue')]), { maxBytes: 100 });
  await record(longKey, 11);
  // Committed, but its move from tmp/ not done yet (a crash between the two): saved under its final key.
  pendingKey = `${org}/00000000-0000-4000-8000-000000000001`;
  await storage.put(`tmp/${pendingKey}`, Readable.from([Buffer.from('pas encore déplacé')]), { maxBytes: 100 });
  await record(pendingKey, 19);
  // Neither a staged upload nor an object no row points to is data: both stay out.
  await storage.put(`tmp/${org}/00000000-0000-4000-8000-000000000002`, Readable.from([Buffer.from('en cours')]), { maxBytes: 100 });
  await storage.put(`${org}/00000000-0000-4000-8000-000000000003`, Readable.from([Buffer.from('orphelin')]), { maxBytes: 100 });

  backup = await backupPglite(t.database.pglite!, dataDir, 'manual');
});

afterAll(async () => {
  await t?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('a backup of the embedded database', () => {
  it('holds every recorded file under files/<key>, byte for byte, and says so in its manifest', async () => {
    const entries = await archiveEntries(backup.file);
    const names = entries.map((e) => e.name);
    // The database first, then the files, then what describes them.
    expect(names[0]).toBe('pglite/pgdata.tar.gz');
    expect(names.slice(-2)).toEqual(['files.sha256', 'flotte-backup.json']);
    const files = new Map(entries.filter((e) => e.name.startsWith('files/')).map((e) => [e.name.slice('files/'.length), e.data]));
    expect(files.size).toBe(4);
    const media = path.join(dataDir, 'media');
    for (const [key, data] of files) {
      const onDisk = existsSync(path.join(media, key)) ? path.join(media, key) : path.join(media, 'tmp', key);
      expect(data.equals(readFileSync(onDisk)), key).toBe(true);
    }
    const contents = [...files.values()].map((d) => d.toString('base64'));
    for (const doc of uploaded) expect(contents).toContain(doc.content.toString('base64'));
    expect(files.get(longKey)?.toString()).toBe('clé longue');
    expect(files.get(pendingKey)?.toString()).toBe('pas encore déplacé');
    expect([...files.keys()].some((key) => key.endsWith('0002') || key.endsWith('0003'))).toBe(false);

    const manifest = JSON.parse(entries.at(-1)!.data.toString('utf8'));
    const bytes = [...files.values()].reduce((sum, d) => sum + d.length, 0);
    expect(manifest).toMatchObject({ version: FORMAT_VERSION, storage: 'local', storedFiles: 4, storedBytes: bytes, missingFiles: [] });
    expect(backup).toMatchObject({ storage: 'local', storedFiles: 4, storedBytes: bytes, size: statSync(backup.file).size });
    expect(entries.find((e) => e.name === 'files.sha256')!.data.toString().trim().split('\n')).toHaveLength(4);
    expect(readdirSync(path.dirname(backup.file)).filter((name) => name.endsWith('.partial'))).toEqual([]);
    expect(describeBackupFiles(backup)).toEqual([`  Fichiers déposés : 4 fichiers (${formatFileSize(bytes)}), copiés de DATA_DIR/media.`]);
  });

  it('restores into a fresh DATA_DIR: the rows and the files come back, and the download route serves them', async () => {
    const target = tmp();
    const read = await readBackupFile(backup.file);
    expect(read.storedFiles).toHaveLength(4);
    const restored = await restoreBackup(target, read);
    expect(restored.media).toMatchObject({ dir: path.join(target, 'media'), previous: null, files: 4, bytes: backup.storedBytes });
    expect(describeRestoredFiles(read.manifest, restored.media, 'local')).toEqual([`  Fichiers déposés restaurés : 4 fichiers (${formatFileSize(backup.storedBytes)}) dans ${path.join(target, 'media')}`]);
    expect(readFileSync(path.join(target, 'media', ...longKey.split('/')), 'utf8')).toBe('clé longue');
    expect(readFileSync(path.join(target, 'media', ...pendingKey.split('/')), 'utf8')).toBe('pas encore déplacé');
    expect(readdirSync(target).sort()).toEqual(['media', 'pglite']);

    const again = await testAppOn(await openPglite({ dataDir: restored.dir, migrate: false }), { DATA_DIR: target });
    try {
      const restoredToken = await again.login('membre@sauvegarde.fr');
      for (const doc of uploaded) {
        const response = await again.as(restoredToken, { method: 'GET', url: `/api/document/${doc.uuid}/download` });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.rawPayload.equals(doc.content)).toBe(true);
      }
    } finally {
      await again.close();
    }
  });

  it('restored over an existing DATA_DIR, keeps the previous media folder aside, never deleted', async () => {
    const target = tmp();
    mkdirSync(path.join(target, 'media', org), { recursive: true });
    writeFileSync(path.join(target, 'media', org, 'ajouté-après'), 'gardé');
    const before = tree(path.join(target, 'media'));
    const read = await readBackupFile(backup.file);
    const restored = await restoreBackup(target, read, new Date('2026-11-25T09:00:00Z'));
    const aside = path.join(target, 'media.avant-restauration-2026-11-25_09-00-00Z');
    expect(restored.media?.previous).toBe(aside);
    expect(tree(aside)).toEqual(before);
    expect(existsSync(path.join(target, 'media', org, 'ajouté-après'))).toBe(false);
    expect(tree(path.join(target, 'media')).size).toBe(4);
    expect(describeRestoredFiles(read.manifest, restored.media, 's3')).toEqual([
      expect.stringContaining('Fichiers déposés restaurés : 4 fichiers'),
      `  Anciens fichiers déposés mis de côté (pas supprimés) : ${aside}`,
      expect.stringContaining('copiez-les dans le bucket'),
    ]);
  });

  describe('refuses a tampered archive, with nothing changed', () => {
    let target: string;
    let before: Map<string, string>;

    beforeAll(() => {
      // A DATA_DIR in use: its database folder and its files must not move.
      target = tmp();
      mkdirSync(path.join(target, 'pglite'));
      writeFileSync(path.join(target, 'pglite', 'PG_VERSION'), '17\n');
      mkdirSync(path.join(target, 'media', org), { recursive: true });
      writeFileSync(path.join(target, 'media', org, 'en-service'), 'à garder');
      mkdirSync(path.join(target, 'backups'));
      before = tree(target);
    });

    const refused = async (file: string, message: RegExp) => {
      const error = await (async () => restoreBackup(target, await readBackupFile(file), new Date('2026-11-25T07:30:00Z')))().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ExplainedError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/Rien n'a été modifié\.$/);
      expect(tree(target)).toEqual(before);
      expect(readdirSync(target).sort()).toEqual(['backups', 'media', 'pglite']);
    };

    it('a missing file', async () => {
      await refused(await rewritten(backup.file, (e) => (e.name === `files/${pendingKey}` ? null : e)), /un fichier joint manquant : files\/.*0001/);
    });

    it('a file more than the manifest says, or not in files.sha256', async () => {
      await refused(
        await rewritten(backup.file, (e) => (e.name === 'files.sha256' ? { ...e, data: Buffer.from(e.data.toString().split('\n').slice(1).join('\n')) } : e)),
        /fichier joint absent de files\.sha256/,
      );
      await refused(
        await rewritten(backup.file, (e) => (e.name === 'flotte-backup.json' ? { ...e, data: Buffer.from(e.data.toString().replace('"storedFiles": 4', '"storedFiles": 5')) } : e)),
        new RegExp(`fichiers joints différents de ce qu'annonce flotte-backup\\.json : 4 fichiers \\(${formatFileSize(backup.storedBytes)}\\) au lieu de 5 fichiers`),
      );
    });

    it('a bad header checksum', async () => {
      const bytes = readFileSync(backup.file);
      const header = bytes.indexOf(`files/${pendingKey}`);
      bytes[header + 7] = bytes[header + 7]! ^ 0x01;
      const file = path.join(tmp(), 'damaged.tar');
      writeFileSync(file, bytes);
      await refused(file, /archive illisible : somme de contrôle tar fausse/);
    });

    it('a file whose bytes changed: found while unpacking, before the swap', async () => {
      const file = await rewritten(backup.file, (e) => (e.name === `files/${pendingKey}` ? { ...e, data: Buffer.from('pas encore déplacè') } : e));
      await refused(file, /la sauvegarde est abîmée : files\/.*0001 ne correspond pas à son empreinte SHA-256/);
    });

    it('a truncated archive', async () => {
      const bytes = readFileSync(backup.file);
      for (const length of [bytes.length - 1024, bytes.indexOf(`files/${longKey.slice(0, 60)}`) + 700, 2048]) {
        const file = path.join(tmp(), 'truncated.tar');
        writeFileSync(file, bytes.subarray(0, length));
        await refused(file, /archive illisible : archive tronquée/);
      }
    });

    it('a file name leaving the media folder', async () => {
      await refused(await rewritten(backup.file, (e) => (e.name === `files/${pendingKey}` ? { ...e, name: 'files/../../etc/passwd' } : e)), /nom de fichier joint invalide/);
    });
  });

  it('of format 1 (before the files) still restores, and leaves DATA_DIR/media as it is', async () => {
    const entries = await archiveEntries(backup.file);
    const manifest = JSON.parse(entries.at(-1)!.data.toString('utf8'));
    const { storage: _s, storedBytes: _b, missingFiles: _m, ...v1 } = { ...manifest, version: 1, storedFiles: 0 };
    const file = path.join(tmp(), 'flotte-v1.tar');
    const out = await open(file, 'w');
    const tar = new TarWriter(out);
    await tar.addBuffer('flotte-backup.json', Buffer.from(JSON.stringify(v1)));
    await tar.addBuffer('pglite/pgdata.tar.gz', entries[0]!.data);
    await tar.finish();
    await out.close();

    const target = tmp();
    mkdirSync(path.join(target, 'media', org), { recursive: true });
    writeFileSync(path.join(target, 'media', org, 'déjà-là'), 'intact');
    const read = await readBackupFile(file);
    expect(read.storedFiles).toBeNull();
    const restored = await restoreBackup(target, read);
    expect(restored.media).toBeNull();
    expect(restored.counts.organizations).toBeGreaterThan(0);
    expect(readFileSync(path.join(target, 'media', org, 'déjà-là'), 'utf8')).toBe('intact');
    expect(readdirSync(target).sort()).toEqual(['media', 'pglite']);
    expect(describeRestoredFiles(read.manifest, null, 'local')).toEqual(['  Fichiers déposés : cette sauvegarde (format 1) ne les contient pas ; DATA_DIR/media n’a pas été modifié.']);
  });

  it('with S3 storage holds no file: the manifest says where they are', async () => {
    const s3: StorageConfig = { kind: 's3', bucket: 'flotte', endpoint: undefined, region: 'us-east-1', credentials: undefined, forcePathStyle: false };
    const taken = await backupPglite(t.database.pglite!, dataDir, 'manual', { storage: s3 });
    expect(taken).toMatchObject({ storage: 's3', storedFiles: 0, storedBytes: 0 });
    const entries = await archiveEntries(taken.file);
    expect(entries.filter((e) => e.name.startsWith('files/'))).toEqual([]);
    expect(JSON.parse(entries.at(-1)!.data.toString('utf8'))).toMatchObject({ storage: 's3', storedFiles: 0 });
    expect(describeBackupFiles(taken)).toEqual(['  Fichiers déposés : dans le bucket S3 (S3_BUCKET), pas dans cette sauvegarde ; la gestion des versions (ou la réplication) du bucket les protège.']);
    // Restored as format 1 is (below): DATA_DIR/media left as it is.
    expect((await readBackupFile(taken.file)).storedFiles).toBeNull();
  });

  it('names a recorded file missing from the media folder, and removes abandoned partial backups', async () => {
    const key = `${org}/00000000-0000-4000-8000-000000000004`;
    await withTenant(t.database.db, org, (tx) => tx.insert(storedFiles).values({ key, organizationUuid: org, sizeBytes: 3 }));
    // What a crash in the middle of a backup left behind, and a backup another call is writing.
    const backups = path.join(dataDir, 'backups');
    const abandoned = path.join(backups, '.flotte-2026-11-20_03-00-00Z-quotidienne.tar.partial');
    const writing = path.join(backups, '.flotte-2026-11-26_03-00-00Z-quotidienne.tar.partial');
    writeFileSync(abandoned, 'x');
    utimesSync(abandoned, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
    writeFileSync(writing, 'x');
    try {
      const taken = await backupPglite(t.database.pglite!, dataDir, 'manual');
      expect(existsSync(abandoned)).toBe(false);
      expect(existsSync(writing)).toBe(true);
      rmSync(writing);
      expect(taken).toMatchObject({ storedFiles: 4, missingFiles: [key] });
      expect(describeBackupFiles(taken)[1]).toBe(`  Attention : 1 fichier enregistré dans la base était introuvable dans DATA_DIR/media (supprimé pendant la sauvegarde ?) : ${key}`);
      const read = await readBackupFile(taken.file);
      expect(describeRestoredFiles(read.manifest, { dir: '/m', previous: null, files: 4, bytes: 1 }, 'local')[1]).toMatch(/1 fichier manquait déjà au moment de la sauvegarde/);
    } finally {
      await withTenant(t.database.db, org, (tx) => tx.delete(storedFiles).where(eq(storedFiles.key, key)));
    }
  });

  it('streams a large file both ways: memory does not grow with its size', async () => {
    const SIZE = 200 * 1024 * 1024;
    const key = `${org}/00000000-0000-4000-8000-000000000005`;
    const file = path.join(dataDir, 'media', ...key.split('/'));

    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const measure = async <T>(fn: () => Promise<T>): Promise<{ result: T; growth: number }> => {
      const before = process.memoryUsage().rss;
      peak = before;
      const result = await fn();
      peak = Math.max(peak, process.memoryUsage().rss);
      return { result, growth: peak - before };
    };
    try {
      // What every backup allocates (the database dump, gzip) is measured first, without the file.
      const baseline = await measure(() => backupPglite(t.database.pglite!, dataDir, 'manual'));
      // Sparse: 200 MB to read and write, none of it on disk until the backup copies it.
      writeFileSync(file, '');
      truncateSync(file, SIZE);
      await withTenant(t.database.db, org, (tx) => tx.insert(storedFiles).values({ key, organizationUuid: org, sizeBytes: SIZE }));
      const written = await measure(() => backupPglite(t.database.pglite!, dataDir, 'manual'));
      expect(written.result.storedBytes).toBeGreaterThan(SIZE);
      // The dump's own share varies by tens of megabytes from one backup to the next (seen: 22 to
      // 76 MB); a file held in memory would add its 200 MB on top.
      expect(written.growth - baseline.growth).toBeLessThan(SIZE / 2);

      // The restore's part for the files (its database part opens PGlite, whose memory is its own).
      const read = await readBackupFile(written.result.file);
      const into = path.join(tmp(), 'media');
      const unpacked = await measure(() => unpackStoredFiles(read, read.storedFiles!, into));
      expect(unpacked.growth).toBeLessThan(SIZE / 4);
      const restored = path.join(into, ...key.split('/'));
      expect(statSync(restored).size).toBe(SIZE);
      const input = await open(restored, 'r');
      try {
        let zeros = true;
        for await (const chunk of input.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false }) as AsyncIterable<Buffer>) if (chunk.some((b) => b !== 0)) zeros = false;
        expect(zeros).toBe(true);
      } finally {
        await input.close();
      }
    } finally {
      clearInterval(sampler);
      await withTenant(t.database.db, org, (tx) => tx.delete(storedFiles).where(eq(storedFiles.key, key)));
      rmSync(file, { force: true });
    }
  }, 60_000);
});

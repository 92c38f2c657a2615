import { formatFileSize } from '@flotte/contract';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExplainedError } from '../lib/explained-error.js';
import { BACKUP_KINDS, type BackupKind, describeBackupFiles, fileStamp, formatStoredFiles, isDailyBackupDue, listBackups, pruneBackups, readBackupFile } from './backups.js';
import { insertionPlan } from './import-to-postgres.js';
import { isMountPoint } from './restore.js';
import { assertNoInterruptedRestore, writeRestoreMarker } from './restore-marker.js';
import { entryChunks, MAX_ENTRY_SIZE, readEntry, readTarEntries, TarWriter } from './tar.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'flotte-backups-'));

type Entry = { name: string; data: Buffer };

/** A tar file of the entries, written by the streaming writer (each from a stream of 1 kB chunks). */
async function tarFile(entries: Entry[], file = path.join(tmp(), 'archive.tar')): Promise<string> {
  const out = await open(file, 'w');
  try {
    const tar = new TarWriter(out);
    for (const entry of entries) {
      const chunks = Array.from({ length: Math.ceil(entry.data.length / 1024) }, (_, i) => entry.data.subarray(i * 1024, (i + 1) * 1024));
      await tar.addStream(entry.name, entry.data.length, chunks, new Date('2026-11-25T10:30:00Z'));
    }
    await tar.finish();
  } finally {
    await out.close();
  }
  return file;
}

/** Every entry of a tar file, its bytes read back in chunks. */
async function readBack(file: string): Promise<Entry[]> {
  const input = await open(file, 'r');
  try {
    const entries: Entry[] = [];
    for await (const entry of readTarEntries(input)) {
      const chunks: Buffer[] = [];
      for await (const chunk of entryChunks(input, entry)) chunks.push(chunk);
      entries.push({ name: entry.name, data: Buffer.concat(chunks) });
      expect((await readEntry(input, entry)).equals(Buffer.concat(chunks))).toBe(true);
    }
    return entries;
  } finally {
    await input.close();
  }
}

function fakeBackup(dataDir: string, kind: BackupKind, at: Date) {
  mkdirSync(path.join(dataDir, 'backups'), { recursive: true });
  writeFileSync(path.join(dataDir, 'backups', `flotte-${fileStamp(at)}-${BACKUP_KINDS[kind]}.tar`), 'x');
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

describe('backup files', () => {
  it('are named with their UTC date, time and kind', () => {
    expect(fileStamp(new Date('2026-11-25T10:30:05.123Z'))).toBe('2026-11-25_10-30-05Z');
    // Sizes read as the documents' (contract's formatFileSize), e.g. « 1,5 Ko ».
    expect(formatFileSize(1536)).toBe('1,5\u00a0Ko');
    expect(formatFileSize(3 * 1024 * 1024)).toBe('3\u00a0Mo');
  });

  it('say in French what they hold of the stored files', () => {
    expect(formatStoredFiles(1, 77)).toBe('1 fichier (77\u00a0octets)');
    expect(formatStoredFiles(1234, 3 * 1024 * 1024)).toBe('1\u202f234 fichiers (3\u00a0Mo)');
    expect(describeBackupFiles({ storage: 'local', storedFiles: 0, storedBytes: 0, missingFiles: [] })).toEqual(['  Fichiers déposés : aucun.']);
    const keys = Array.from({ length: 7 }, (_, i) => `org/${i}`);
    expect(describeBackupFiles({ storage: 'local', storedFiles: 2, storedBytes: 1536, missingFiles: keys })).toEqual([
      '  Fichiers déposés : 2 fichiers (1,5\u00a0Ko), copiés de DATA_DIR/media.',
      '  Attention : 7 fichiers enregistrés dans la base étaient introuvables dans DATA_DIR/media (supprimés pendant la sauvegarde ?) : org/0, org/1, org/2, org/3, org/4…',
    ]);
  });

  it('keep the last 7 daily and the last 3 pre-migration backups, and every manual one', () => {
    const dataDir = tmp();
    for (let day = 1; day <= 9; day++) fakeBackup(dataDir, 'daily', hoursAgo(24 * day));
    for (let n = 1; n <= 4; n++) fakeBackup(dataDir, 'pre-migration', hoursAgo(n));
    for (let n = 1; n <= 5; n++) fakeBackup(dataDir, 'manual', hoursAgo(24 * 30 * n));
    writeFileSync(path.join(dataDir, 'backups', 'notes.txt'), 'not a backup');

    expect(pruneBackups(dataDir, 'daily')).toHaveLength(2);
    expect(pruneBackups(dataDir, 'pre-migration')).toHaveLength(1);
    expect(pruneBackups(dataDir, 'manual')).toEqual([]);
    const left = listBackups(dataDir);
    expect(left.filter((b) => b.kind === 'daily').map((b) => Math.round((Date.now() - b.createdAt.getTime()) / 86400_000))).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(left.filter((b) => b.kind === 'pre-migration')).toHaveLength(3);
    expect(left.filter((b) => b.kind === 'manual')).toHaveLength(5);
    expect(readdirSync(path.join(dataDir, 'backups'))).toContain('notes.txt');
  });

  it('make a daily backup due after 24 hours without one', () => {
    const dataDir = tmp();
    expect(isDailyBackupDue(dataDir)).toBe(true);
    fakeBackup(dataDir, 'daily', hoursAgo(2));
    expect(isDailyBackupDue(dataDir)).toBe(false);
    // Manual and pre-migration backups do not replace the daily one.
    const other = tmp();
    fakeBackup(other, 'manual', hoursAgo(1));
    fakeBackup(other, 'daily', hoursAgo(25));
    expect(isDailyBackupDue(other)).toBe(true);
  });

  it('are plain tar archives, written and read as streams, read back exactly, refused when damaged', async () => {
    const key = (length: number) => `${'0'.repeat(36)}/${'a'.repeat(length - 37)}`;
    const entries = [
      { name: 'flotte-backup.json', data: Buffer.from('{"a":1}') },
      { name: 'pglite/pgdata.tar.gz', data: Buffer.alloc(1300, 7) },
      { name: 'files/empty', data: Buffer.alloc(0) },
      // 100 bytes: the name field exactly; 250: ustar's prefix field; 512 (the longest key): a pax header.
      { name: `files/${key(94)}`, data: Buffer.from('cent') },
      { name: `files/${key(244)}`, data: Buffer.alloc(2 * 1024 * 1024 + 3, 1) },
      { name: `files/${key(512)}`, data: Buffer.from('cinq cent douze') },
      { name: `files/${'b'.repeat(120)}/${'c'.repeat(120)}/${'d'.repeat(120)}`, data: Buffer.from('trois segments') },
    ];
    const file = await tarFile(entries);
    const archive = readFileSync(file);
    expect(archive.length % 512).toBe(0);
    expect((await readBack(file)).map((e) => [e.name, e.data.toString('hex')])).toEqual(entries.map((e) => [e.name, e.data.toString('hex')]));
    // Any tar reads it: GNU tar (or bsdtar) lists the same names, long ones whole.
    const listed = spawnSync('tar', ['-tf', file], { encoding: 'utf8' });
    if (listed.status === 0) expect(listed.stdout.trim().split('\n')).toEqual(entries.map((e) => e.name));

    const damaged = path.join(tmp(), 'damaged.tar');
    const bytes = Buffer.from(archive);
    bytes[10] = 0x41;
    writeFileSync(damaged, bytes);
    await expect(readBack(damaged)).rejects.toThrow(/somme de contrôle/);
    const truncated = path.join(tmp(), 'truncated.tar');
    writeFileSync(truncated, archive.subarray(0, 1024));
    await expect(readBack(truncated)).rejects.toThrow(/tronquée/);
    // Cut between two entries: no end-of-archive marker.
    writeFileSync(truncated, archive.subarray(0, 512 * 2));
    await expect(readBack(truncated)).rejects.toThrow(/tronquée \(fin manquante\)/);
  });

  it('refuse an entry beyond 8 GiB, and a stream that does not give its announced size', async () => {
    const out = await open(path.join(tmp(), 'refused.tar'), 'w');
    try {
      const tar = new TarWriter(out);
      await expect(tar.addStream('files/huge', MAX_ENTRY_SIZE + 1, [])).rejects.toThrow(/au-delà de la limite d'une entrée tar \(8 Gio\)/);
      expect(tar.bytes).toBe(0);
      await expect(tar.addStream('files/short', 10, [Buffer.alloc(4)])).rejects.toThrow(/4 octets lus au lieu de 10/);
      await expect(tar.addStream('files/long', 2, [Buffer.alloc(4)])).rejects.toThrow(/a grandi/);
    } finally {
      await out.close();
    }
    expect(MAX_ENTRY_SIZE).toBe(8 * 1024 ** 3 - 1);
  });

  it('are checked before a restore touches anything', async () => {
    const dir = tmp();
    const notTar = path.join(dir, 'photo.tar');
    writeFileSync(notTar, 'not a tar at all'.repeat(100));
    await expect(readBackupFile(notTar)).rejects.toThrow(ExplainedError);
    await expect(readBackupFile(notTar)).rejects.toThrow(/n'est pas une sauvegarde FlotteAssur utilisable/);
    const incomplete = await tarFile([{ name: 'flotte-backup.json', data: Buffer.from('{}') }], path.join(dir, 'incomplete.tar'));
    await expect(readBackupFile(incomplete)).rejects.toThrow(/il y manque pglite\/pgdata\.tar\.gz/);
    await expect(readBackupFile(path.join(dir, 'absent.tar'))).rejects.toThrow(/Sauvegarde introuvable/);
  });
});

describe('a restore', () => {
  it('knows a mounted media folder, which it cannot swap (a link can be)', () => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'media'));
    expect(isMountPoint(path.join(dir, 'media'))).toBe(false);
    expect(isMountPoint(path.join(dir, 'absent'))).toBe(false);
    // /proc is its own file system on Linux.
    if (process.platform === 'linux') expect(isMountPoint('/proc')).toBe(true);
  });

  it('interrupted, names the media folder set aside as well as the database', () => {
    const dataDir = tmp();
    expect(() => assertNoInterruptedRestore(dataDir)).not.toThrow();
    writeRestoreMarker(dataDir, {
      backup: '/b/flotte.tar',
      previous: path.join(dataDir, 'pglite.avant-restauration-X'),
      previousMedia: path.join(dataDir, 'media.avant-restauration-X'),
      startedAt: new Date().toISOString(),
    });
    expect(() => assertNoInterruptedRestore(dataDir)).toThrow(
      `Les fichiers déposés d'avant la restauration sont intacts : dans ${path.join(dataDir, 'media.avant-restauration-X')}, ou encore dans ${path.join(dataDir, 'media')} si la restauration s'est arrêtée avant de les déplacer.`,
    );
    expect(() => assertNoInterruptedRestore(dataDir)).toThrow(/npm run restore -- \/b\/flotte\.tar/);
  });
});

describe('the move to PostgreSQL', () => {
  const column = (name: string, nullable = false) => ({ name, nullable, identity: false });
  it('fills parents first and breaks a cycle on a nullable reference', () => {
    const plan = insertionPlan([
      { name: 'organization_users', columns: [column('uuid'), column('user_uuid')], primaryKey: ['uuid'], foreignKeys: [{ columns: ['user_uuid'], references: 'users' }] },
      { name: 'users', columns: [column('uuid'), column('current_organization_user_uuid', true)], primaryKey: ['uuid'], foreignKeys: [{ columns: ['current_organization_user_uuid'], references: 'organization_users' }] },
      { name: 'sinisters', columns: [column('uuid'), column('vehicule_uuid', true)], primaryKey: ['uuid'], foreignKeys: [{ columns: ['vehicule_uuid'], references: 'vehicules' }] },
      { name: 'vehicules', columns: [column('uuid')], primaryKey: ['uuid'], foreignKeys: [] },
    ]);
    const order = plan.order.map((t) => t.name);
    expect(order.indexOf('vehicules')).toBeLessThan(order.indexOf('sinisters'));
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('organization_users'));
    expect(Object.fromEntries(plan.deferred)).toEqual({ users: ['current_organization_user_uuid'] });
  });

  it('defers a reference of the cycle itself, not a nullable one of a table waiting behind it (a check may refuse its NULL)', () => {
    const plan = insertionPlan([
      // organization_alerts waits for prevention_alerts, which waits for the users ↔ organization_users cycle.
      { name: 'organization_alerts', columns: [column('uuid'), column('prevention_alert_uuid', true)], primaryKey: ['uuid'], foreignKeys: [{ columns: ['prevention_alert_uuid'], references: 'prevention_alerts' }] },
      { name: 'prevention_alerts', columns: [column('uuid'), column('author_uuid', true)], primaryKey: ['uuid'], foreignKeys: [{ columns: ['author_uuid'], references: 'users' }] },
      { name: 'organization_users', columns: [column('uuid'), column('user_uuid')], primaryKey: ['uuid'], foreignKeys: [{ columns: ['user_uuid'], references: 'users' }] },
      { name: 'users', columns: [column('uuid'), column('current_organization_user_uuid', true)], primaryKey: ['uuid'], foreignKeys: [{ columns: ['current_organization_user_uuid'], references: 'organization_users' }] },
    ]);
    expect(Object.fromEntries(plan.deferred)).toEqual({ users: ['current_organization_user_uuid'] });
    const order = plan.order.map((t) => t.name);
    expect(order.indexOf('prevention_alerts')).toBeLessThan(order.indexOf('organization_alerts'));
  });

  it('refuses a cycle of mandatory references', () => {
    expect(() =>
      insertionPlan([
        { name: 'a', columns: [column('b_uuid')], primaryKey: [], foreignKeys: [{ columns: ['b_uuid'], references: 'b' }] },
        { name: 'b', columns: [column('a_uuid')], primaryKey: [], foreignKeys: [{ columns: ['a_uuid'], references: 'a' }] },
      ]),
    ).toThrow(/cycle/);
  });
});

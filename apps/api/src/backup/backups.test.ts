import { formatFileSize } from '@flotte/contract';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExplainedError } from '../lib/explained-error.js';
import { BACKUP_KINDS, type BackupKind, fileStamp, isDailyBackupDue, listBackups, pruneBackups, readBackupFile } from './backups.js';
import { insertionPlan } from './import-to-postgres.js';
import { readTar, writeTar } from './tar.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'flotte-backups-'));

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

  it('are plain tar archives, read back exactly, refused when damaged', () => {
    const entries = [
      { name: 'flotte-backup.json', data: Buffer.from('{"a":1}') },
      { name: 'pglite/pgdata.tar.gz', data: Buffer.alloc(1300, 7) },
    ];
    const archive = writeTar(entries);
    expect(archive.length % 512).toBe(0);
    expect(readTar(archive).map((e) => [e.name, Buffer.from(e.data).toString('hex')])).toEqual(entries.map((e) => [e.name, e.data.toString('hex')]));
    const damaged = Buffer.from(archive);
    damaged[10] = 0x41;
    expect(() => readTar(damaged)).toThrow(/somme de contrôle/);
    expect(() => readTar(archive.subarray(0, 1024))).toThrow(/tronquée/);
  });

  it('are checked before a restore touches anything', () => {
    const dir = tmp();
    const notTar = path.join(dir, 'photo.tar');
    writeFileSync(notTar, 'not a tar at all'.repeat(100));
    expect(() => readBackupFile(notTar)).toThrow(ExplainedError);
    expect(() => readBackupFile(notTar)).toThrow(/n'est pas une sauvegarde FlotteAssur utilisable/);
    const incomplete = path.join(dir, 'incomplete.tar');
    writeFileSync(incomplete, writeTar([{ name: 'flotte-backup.json', data: Buffer.from('{}') }]));
    expect(() => readBackupFile(incomplete)).toThrow(/il y manque pglite\/pgdata\.tar\.gz/);
    expect(() => readBackupFile(path.join(dir, 'absent.tar'))).toThrow(/Sauvegarde introuvable/);
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

  it('refuses a cycle of mandatory references', () => {
    expect(() =>
      insertionPlan([
        { name: 'a', columns: [column('b_uuid')], primaryKey: [], foreignKeys: [{ columns: ['b_uuid'], references: 'b' }] },
        { name: 'b', columns: [column('a_uuid')], primaryKey: [], foreignKeys: [{ columns: ['a_uuid'], references: 'a' }] },
      ]),
    ).toThrow(/cycle/);
  });
});

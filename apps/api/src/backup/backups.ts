import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { ExplainedError } from '../lib/explained-error.js';
import { readTar, type TarEntry, writeTar } from './tar.js';

/**
 * Backups of the embedded database (docs/operations.md, decision 009).
 *
 * A backup is one plain tar file in DATA_DIR/backups, named with its UTC date and time and its kind:
 *   flotte-2026-11-25_10-30-00Z-manuelle.tar
 *     flotte-backup.json     what it is: kind, date, row counts, PostgreSQL version
 *     pglite/pgdata.tar.gz   PGlite's own dump of its data folder (dumpDataDir), gzip
 * It is written under a hidden temporary name, flushed to disk, then renamed: a crash never leaves a
 * truncated file that looks like a backup.
 */

export const BACKUP_KINDS = { manual: 'manuelle', daily: 'quotidienne', 'pre-migration': 'avant-migration' } as const;
export type BackupKind = keyof typeof BACKUP_KINDS;

/** How many automatic backups of each kind are kept; manual ones are never deleted automatically. */
export const BACKUPS_KEPT: Record<Exclude<BackupKind, 'manual'>, number> = { daily: 7, 'pre-migration': 3 };

export const DAILY_BACKUP_INTERVAL_MS = 24 * 3600 * 1000;

const MANIFEST_ENTRY = 'flotte-backup.json';
const DATABASE_ENTRY = 'pglite/pgdata.tar.gz';
const FORMAT = 'flotteassur-backup';
const FORMAT_VERSION = 1;
const NAME_PATTERN = /^flotte-(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})-(\d{2})Z-(manuelle|quotidienne|avant-migration)(?:-\d+)?\.tar$/;

export type RowCounts = { organizations: number; drivers: number; vehicules: number; sinisters: number };
const COUNTED_TABLES = ['organizations', 'drivers', 'vehicules', 'sinisters'] as const;

export type BackupManifest = {
  format: typeof FORMAT;
  version: number;
  kind: BackupKind;
  createdAt: string;
  database: 'pglite';
  postgres: string;
  counts: RowCounts;
  /** Stored files (uploads) included under files/: none until file storage exists. */
  storedFiles: number;
};

export type BackupInfo = { file: string; kind: BackupKind; createdAt: Date; size: number; counts?: RowCounts };

export function backupsDir(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

/** 2026-11-25_10-30-00Z: sortable, readable, valid in every file system. */
export function fileStamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', '_').replaceAll(':', '-') + 'Z';
}


export function formatCounts(counts: RowCounts): string {
  const n = (value: number, one: string, many: string) => `${value.toLocaleString('fr-FR')} ${value > 1 ? many : one}`;
  return [
    n(counts.organizations, 'organisation', 'organisations'),
    n(counts.drivers, 'conducteur', 'conducteurs'),
    n(counts.vehicules, 'véhicule', 'véhicules'),
    n(counts.sinisters, 'sinistre', 'sinistres'),
  ].join(', ');
}

/** Backups found in DATA_DIR/backups, oldest first. */
export function listBackups(dataDir: string): BackupInfo[] {
  const dir = backupsDir(dataDir);
  if (!existsSync(dir)) return [];
  const found: BackupInfo[] = [];
  for (const name of readdirSync(dir)) {
    const match = NAME_PATTERN.exec(name);
    if (!match) continue;
    const [, day, hours, minutes, seconds, label] = match;
    const kind = (Object.keys(BACKUP_KINDS) as BackupKind[]).find((k) => BACKUP_KINDS[k] === label)!;
    const file = path.join(dir, name);
    found.push({ file, kind, createdAt: new Date(`${day}T${hours}:${minutes}:${seconds}Z`), size: statSync(file).size });
  }
  return found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.file.localeCompare(b.file));
}

export function latestBackup(dataDir: string): BackupInfo | undefined {
  return listBackups(dataDir).at(-1);
}

/** Deletes the oldest automatic backups of one kind beyond what is kept; returns the deleted files. */
export function pruneBackups(dataDir: string, kind: BackupKind): string[] {
  if (kind === 'manual') return [];
  const ofKind = listBackups(dataDir).filter((b) => b.kind === kind);
  const excess = ofKind.slice(0, Math.max(0, ofKind.length - BACKUPS_KEPT[kind]));
  for (const backup of excess) unlinkSync(backup.file);
  return excess.map((b) => b.file);
}

/** A daily backup is due when none was taken in the last 24 hours (whatever the server's restarts). */
export function isDailyBackupDue(dataDir: string, now = new Date()): boolean {
  const last = listBackups(dataDir)
    .filter((b) => b.kind === 'daily')
    .at(-1);
  return !last || now.getTime() - last.createdAt.getTime() >= DAILY_BACKUP_INTERVAL_MS - 60_000;
}

/** Row counts across organizations, within a transaction, whatever the session's role. */
export async function countRows(tx: Pick<Transaction, 'query'>): Promise<RowCounts> {
  // The server's session runs as flotte_app, which sees no row outside an organization's scope:
  // flotte_system for this transaction only. A superuser session (restore, import) needs nothing.
  await tx.query(`SELECT set_config('role', 'flotte_system', true) WHERE NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)`);
  const present = await tx.query<{ name: string }>(`SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass('public.' || name) IS NOT NULL`, [
    [...COUNTED_TABLES],
  ]);
  const counts: RowCounts = { organizations: 0, drivers: 0, vehicules: 0, sinisters: 0 };
  for (const { name } of present.rows) {
    const table = name as (typeof COUNTED_TABLES)[number];
    const result = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM public.${table}`);
    counts[table] = result.rows[0]?.n ?? 0;
  }
  return counts;
}

/**
 * A consistent copy of a live PGlite database. PGlite runs one transaction at a time: inside our own
 * (read-only) transaction no other one is running, so the files read are those of committed
 * transactions only, and the counts describe exactly that copy.
 */
export async function snapshotPglite(pglite: PGlite): Promise<{ pgdata: Uint8Array; counts: RowCounts; postgres: string }> {
  const taken = await pglite.transaction(async (tx) => {
    const counts = await countRows(tx);
    const version = await tx.query<{ version: string }>('SELECT version()');
    const dump = await pglite.dumpDataDir('none');
    return { counts, postgres: version.rows[0]?.version ?? '', tar: new Uint8Array(await dump.arrayBuffer()) };
  });
  // Compressed after the transaction: the application waits for the copy, not for gzip. Large
  // output chunks: with the default 16 kB, each of thousands of chunks waits its turn behind the
  // requests a busy server is handling, and a backup under load took minutes instead of a second.
  const pgdata = await promisify(gzip)(taken.tar, { chunkSize: 16 * 1024 * 1024 });
  return { pgdata, counts: taken.counts, postgres: taken.postgres };
}

/**
 * Stored files (uploads: documents, imports) to put in a backup, as entries under files/. None yet:
 * they live in DATA_DIR/media (platform/storage) and can reach gigabytes, which this archive, built
 * in memory, cannot hold (decision 030, docs/operations.md: copy DATA_DIR/media beside it). With a
 * streamed tar, list the committed files here, after the database snapshot (a file a document
 * refers to then exists in the copy), and put them back in restoreStoredFiles (backup/restore.ts).
 */
function storedFileEntries(_dataDir: string): TarEntry[] {
  return [];
}

/** Writes data to file durably: hidden temporary name, fsync, rename, fsync of the directory. */
export function writeFileDurably(file: string, data: Uint8Array): void {
  const dir = path.dirname(file);
  const partial = path.join(dir, `.${path.basename(file)}.partial`);
  const fd = openSync(partial, 'w', 0o600);
  try {
    let written = 0;
    while (written < data.byteLength) written += writeSync(fd, data, written, data.byteLength - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  fsyncDirectory(dir);
}

export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Snapshot → DATA_DIR/backups/flotte-<date>-<kind>.tar, then the old automatic ones of that kind pruned. */
export async function backupPglite(pglite: PGlite, dataDir: string, kind: BackupKind, now = new Date()): Promise<BackupInfo & { counts: RowCounts }> {
  const snapshot = await snapshotPglite(pglite);
  const files = storedFileEntries(dataDir);
  const manifest: BackupManifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    kind,
    createdAt: now.toISOString(),
    database: 'pglite',
    postgres: snapshot.postgres,
    counts: snapshot.counts,
    storedFiles: files.length,
  };
  const archive = writeTar([
    { name: MANIFEST_ENTRY, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), mtime: now },
    { name: DATABASE_ENTRY, data: snapshot.pgdata, mtime: now },
    ...files,
  ]);
  const dir = backupsDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let file = path.join(dir, `flotte-${fileStamp(now)}-${BACKUP_KINDS[kind]}.tar`);
  for (let n = 2; existsSync(file); n++) file = path.join(dir, `flotte-${fileStamp(now)}-${BACKUP_KINDS[kind]}-${n}.tar`);
  writeFileDurably(file, archive);
  pruneBackups(dataDir, kind);
  return { file, kind, createdAt: now, size: archive.length, counts: snapshot.counts };
}

export type ReadBackup = { file: string; manifest: BackupManifest; pgdataTar: Uint8Array; storedFiles: TarEntry[] };

/** Reads and checks a backup file before anything is touched; a French explanation otherwise. */
export function readBackupFile(file: string): ReadBackup {
  if (!existsSync(file)) throw new ExplainedError(`Sauvegarde introuvable : ${file}`);
  const notABackup = (why: string) =>
    new ExplainedError(`${file} n'est pas une sauvegarde FlotteAssur utilisable (${why}). Rien n'a été modifié.`);
  let entries: TarEntry[];
  try {
    entries = readTar(readFileSync(file));
  } catch (error) {
    throw notABackup(`archive illisible : ${(error as Error).message}`);
  }
  const manifestEntry = entries.find((e) => e.name === MANIFEST_ENTRY);
  const databaseEntry = entries.find((e) => e.name === DATABASE_ENTRY);
  if (!manifestEntry || !databaseEntry) throw notABackup(`il y manque ${manifestEntry ? DATABASE_ENTRY : MANIFEST_ENTRY}`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(Buffer.from(manifestEntry.data).toString('utf8')) as BackupManifest;
  } catch {
    throw notABackup(`${MANIFEST_ENTRY} illisible`);
  }
  if (manifest.format !== FORMAT) throw notABackup('format inconnu');
  if (manifest.version > FORMAT_VERSION) {
    throw new ExplainedError(`${file} vient d'une version plus récente de FlotteAssur (format ${manifest.version}) : mettez l'application à jour pour la restaurer. Rien n'a été modifié.`);
  }
  const storedFiles = entries.filter((e) => e.name.startsWith('files/'));
  if (storedFiles.length !== (manifest.storedFiles ?? 0)) throw notABackup('fichiers joints manquants');
  let pgdataTar: Uint8Array;
  try {
    pgdataTar = gunzipSync(databaseEntry.data);
  } catch {
    throw notABackup(`${DATABASE_ENTRY} abîmé`);
  }
  return { file, manifest, pgdataTar, storedFiles };
}

import { formatFileSize } from '@flotte/contract';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { type FileHandle, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { StorageConfig } from '../config.js';
import { ExplainedError } from '../lib/explained-error.js';
import { assertValidKey } from '../platform/storage/storage.js';
import { readEntry, readTarEntries, type TarEntry, TarWriter } from './tar.js';

/**
 * Backups of the embedded database and of its stored files (docs/operations.md, decisions 009, 032).
 *
 * A backup is one plain tar file in DATA_DIR/backups, named with its UTC date and time and its kind:
 *   flotte-2026-11-25_10-30-00Z-manuelle.tar
 *     pglite/pgdata.tar.gz   PGlite's own dump of its data folder (dumpDataDir), gzip
 *     files/<key>            every stored file the copied database records (DATA_DIR/media/<key>)
 *     files.sha256           their SHA-256, as `sha256sum -c` reads them once unpacked
 *     flotte-backup.json     what it is: kind, date, row counts, PostgreSQL version, files and bytes
 * The manifest comes last: it describes what was actually written. The archive is written as a
 * stream, one file at a time, under a hidden temporary name, flushed to disk, then renamed: a crash
 * never leaves a truncated file that looks like a backup, and gigabytes of files never sit in memory.
 */

export const BACKUP_KINDS = { manual: 'manuelle', daily: 'quotidienne', 'pre-migration': 'avant-migration' } as const;
export type BackupKind = keyof typeof BACKUP_KINDS;

/** How many automatic backups of each kind are kept; manual ones are never deleted automatically. */
export const BACKUPS_KEPT: Record<Exclude<BackupKind, 'manual'>, number> = { daily: 7, 'pre-migration': 3 };

export const DAILY_BACKUP_INTERVAL_MS = 24 * 3600 * 1000;

const MANIFEST_ENTRY = 'flotte-backup.json';
const DATABASE_ENTRY = 'pglite/pgdata.tar.gz';
const FILES_PREFIX = 'files/';
const CHECKSUMS_ENTRY = 'files.sha256';
const FORMAT = 'flotteassur-backup';
/** 1: the database only. 2: the stored files too (files/, files.sha256), manifest last. */
export const FORMAT_VERSION = 2;
/** The entries read whole in memory besides the database dump: a tampered size cannot exhaust it. */
const MAX_SMALL_ENTRY = 256 * 1024 * 1024;
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
  /**
   * Where the stored files were (format 2): 'local' (DATA_DIR/media, copied under files/) or 's3'
   * (the bucket: not in the backup, storedFiles 0). Absent in format 1, which held no file.
   */
  storage?: StoredFilesSummary['storage'];
  /** Stored files under files/, and their bytes. */
  storedFiles: number;
  storedBytes?: number;
  /** Keys the copied database records but whose file was not found (removed while the backup ran). */
  missingFiles?: string[];
};

export type StoredFilesSummary = { storage: 'local' | 's3'; storedFiles: number; storedBytes: number; missingFiles: string[] };

export type BackupInfo = { file: string; kind: BackupKind; createdAt: Date; size: number; counts?: RowCounts };

export type TakenBackup = BackupInfo & { counts: RowCounts } & StoredFilesSummary;

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
export async function snapshotPglite(pglite: PGlite): Promise<{ pgdata: Uint8Array; counts: RowCounts; postgres: string; fileKeys: string[] }> {
  const taken = await pglite.transaction(async (tx) => {
    const counts = await countRows(tx);
    const fileKeys = await recordedFileKeys(tx);
    const version = await tx.query<{ version: string }>('SELECT version()');
    const dump = await pglite.dumpDataDir('none');
    return { counts, fileKeys, postgres: version.rows[0]?.version ?? '', tar: new Uint8Array(await dump.arrayBuffer()) };
  });
  // Compressed after the transaction: the application waits for the copy, not for gzip. Large
  // output chunks: with the default 16 kB, each of thousands of chunks waits its turn behind the
  // requests a busy server is handling, and a backup under load took minutes instead of a second.
  const pgdata = await promisify(gzip)(taken.tar, { chunkSize: 16 * 1024 * 1024 });
  return { pgdata, counts: taken.counts, postgres: taken.postgres, fileKeys: taken.fileKeys };
}

/**
 * The keys of the committed stored files (stored_files, decision 019: the row is the truth), read in
 * the snapshot's transaction after countRows gave it the system role. Staged uploads without a row
 * and objects no row points to any more are not part of the data, and stay out of the backup.
 */
async function recordedFileKeys(tx: Pick<Transaction, 'query'>): Promise<string[]> {
  const present = await tx.query<{ present: boolean }>(`SELECT to_regclass('public.stored_files') IS NOT NULL AS present`);
  if (!present.rows[0]?.present) return [];
  const rows = await tx.query<{ key: string }>('SELECT key FROM public.stored_files ORDER BY key');
  return rows.rows.map((row) => row.key);
}

/** DATA_DIR/media: where the local storage keeps files (config.storage.directory). */
export function mediaDir(dataDir: string): string {
  return path.join(dataDir, 'media');
}

/** A key's file under a media folder, as LocalDiskStorage lays it out (key checked first). */
export function storedFilePath(media: string, key: string): string {
  assertValidKey(key);
  return path.join(media, ...key.split('/'));
}

/**
 * Opens a recorded file where the staging protocol may have left it: its final key, else its
 * temporary one (committed row, move not done yet), else the final key again (moved in between).
 * Null when it is nowhere: removed after the snapshot (a deletion, the trash's purge).
 */
async function openRecordedFile(media: string, key: string): Promise<{ handle: FileHandle; size: number; mtime: Date } | null> {
  let places: string[];
  try {
    places = [storedFilePath(media, key), storedFilePath(media, `tmp/${key}`), storedFilePath(media, key)];
  } catch {
    // Not a key the storage could have written (a row typed by hand): no file to look for.
    return null;
  }
  for (const file of places) {
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, size: stats.size, mtime: stats.mtime };
    await handle.close();
  }
  return null;
}

/**
 * The bytes of an open file, each chunk added to the hash as it passes. Every chunk is read into the
 * same buffer: the tar writer writes it before asking for the next, and a backup of gigabytes
 * leaves no garbage behind.
 */
async function* hashedChunks(handle: FileHandle, size: number, hash: ReturnType<typeof createHash>, buffer: Buffer): AsyncGenerator<Buffer> {
  for (let done = 0; done < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - done), done);
    // Shorter than when it was opened: TarWriter.addStream refuses the entry.
    if (bytesRead === 0) return;
    done += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    yield chunk;
  }
}

/**
 * Adds the recorded files under files/<key>, one at a time, and returns the lines of files.sha256.
 * They are read after the database snapshot: every file a copied row refers to was committed
 * before it, so it is there (files are never rewritten under the same key).
 */
async function addStoredFiles(tar: TarWriter, media: string, keys: string[]): Promise<{ checksums: string[]; bytes: number; missing: string[] }> {
  const checksums: string[] = [];
  const missing: string[] = [];
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let bytes = 0;
  for (const key of keys) {
    const found = await openRecordedFile(media, key);
    if (!found) {
      missing.push(key);
      continue;
    }
    try {
      const hash = createHash('sha256');
      await tar.addStream(`${FILES_PREFIX}${key}`, found.size, hashedChunks(found.handle, found.size, hash, buffer), found.mtime);
      checksums.push(`${hash.digest('hex')}  ${FILES_PREFIX}${key}`);
      bytes += found.size;
    } finally {
      await found.handle.close();
    }
  }
  return { checksums, bytes, missing };
}

/** A backup being written is touched at every chunk: a partial file idle this long was abandoned (a crash). */
const ABANDONED_PARTIAL_MS = 10 * 60_000;

/** Removes what a crash in the middle of a backup left: hidden partial archives nobody writes any more. */
function removeAbandonedPartials(dir: string, now: number): void {
  for (const name of readdirSync(dir)) {
    if (!/^\.flotte-.*\.partial$/.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > ABANDONED_PARTIAL_MS) unlinkSync(file);
    } catch {
      // Already gone.
    }
  }
}

/** « 12 fichiers (35,2 Mo) », « 1 fichier (3 Ko) », « aucun fichier ». */
export function formatStoredFiles(count: number, bytes: number): string {
  if (count === 0) return 'aucun fichier';
  return `${count.toLocaleString('fr-FR')} ${count > 1 ? 'fichiers' : 'fichier'} (${formatFileSize(bytes)})`;
}

/** What npm run backup says about the stored files of a backup it wrote. */
export function describeBackupFiles(summary: StoredFilesSummary): string[] {
  if (summary.storage === 's3') {
    return ['  Fichiers déposés : dans le bucket S3 (S3_BUCKET), pas dans cette sauvegarde ; la gestion des versions (ou la réplication) du bucket les protège.'];
  }
  const lines = [
    summary.storedFiles === 0
      ? '  Fichiers déposés : aucun.'
      : `  Fichiers déposés : ${formatStoredFiles(summary.storedFiles, summary.storedBytes)}, copiés de DATA_DIR/media.`,
  ];
  const missing = summary.missingFiles.length;
  if (missing > 0) {
    const keys = `${summary.missingFiles.slice(0, 5).join(', ')}${missing > 5 ? '…' : ''}`;
    lines.push(
      missing > 1
        ? `  Attention : ${missing.toLocaleString('fr-FR')} fichiers enregistrés dans la base étaient introuvables dans DATA_DIR/media (supprimés pendant la sauvegarde ?) : ${keys}`
        : `  Attention : 1 fichier enregistré dans la base était introuvable dans DATA_DIR/media (supprimé pendant la sauvegarde ?) : ${keys}`,
    );
  }
  return lines;
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

/** What npm run restore says about the stored files it restored, or why it left DATA_DIR/media alone. */
export function describeRestoredFiles(
  manifest: BackupManifest,
  media: { dir: string; previous: string | null; files: number; bytes: number } | null,
  serverStorage: StorageConfig['kind'],
): string[] {
  if (!media) {
    return [
      manifest.storage === 's3'
        ? '  Fichiers déposés : ils étaient dans le bucket S3 (S3_BUCKET), que la sauvegarde ne contient pas ; DATA_DIR/media n’a pas été modifié.'
        : `  Fichiers déposés : cette sauvegarde (format ${manifest.version}) ne les contient pas ; DATA_DIR/media n’a pas été modifié.`,
    ];
  }
  const lines = [`  Fichiers déposés restaurés : ${formatStoredFiles(media.files, media.bytes)} dans ${media.dir}`];
  if (media.previous) lines.push(`  Anciens fichiers déposés mis de côté (pas supprimés) : ${media.previous}`);
  const missing = manifest.missingFiles?.length ?? 0;
  if (missing > 0) {
    lines.push(`  Attention : ${missing > 1 ? `${missing.toLocaleString('fr-FR')} fichiers manquaient` : '1 fichier manquait'} déjà au moment de la sauvegarde (leur téléchargement répondra « Fichier introuvable »).`);
  }
  if (serverStorage === 's3') {
    lines.push(`  Attention : ce serveur range ses fichiers dans le bucket S3 (S3_BUCKET), pas dans ${media.dir} : copiez-les dans le bucket (par exemple aws s3 sync ${media.dir} s3://<bucket>/).`);
  }
  return lines;
}

export type BackupOptions = {
  /** Where the stored files are (config.storage); DATA_DIR/media when not said. */
  storage?: StorageConfig;
  now?: Date;
};

/**
 * Snapshot → DATA_DIR/backups/flotte-<date>-<kind>.tar with the stored files, then the old automatic
 * backups of that kind pruned. With S3 storage the files stay in the bucket (manifest: storage 's3').
 */
export async function backupPglite(pglite: PGlite, dataDir: string, kind: BackupKind, options: BackupOptions = {}): Promise<TakenBackup> {
  const now = options.now ?? new Date();
  const storage = options.storage ?? { kind: 'local' as const, directory: mediaDir(dataDir) };
  const snapshot = await snapshotPglite(pglite);
  const dir = backupsDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  removeAbandonedPartials(dir, Date.now());
  let file = path.join(dir, `flotte-${fileStamp(now)}-${BACKUP_KINDS[kind]}.tar`);
  for (let n = 2; existsSync(file); n++) file = path.join(dir, `flotte-${fileStamp(now)}-${BACKUP_KINDS[kind]}-${n}.tar`);
  const partial = path.join(dir, `.${path.basename(file)}.partial`);

  const out = await open(partial, 'w', 0o600);
  let manifest: BackupManifest;
  let size: number;
  try {
    const tar = new TarWriter(out);
    await tar.addBuffer(DATABASE_ENTRY, snapshot.pgdata, now);
    const files =
      storage.kind === 'local' ? await addStoredFiles(tar, path.resolve(storage.directory), snapshot.fileKeys) : { checksums: [], bytes: 0, missing: [] };
    await tar.addBuffer(CHECKSUMS_ENTRY, Buffer.from(files.checksums.map((line) => `${line}\n`).join('')), now);
    manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      kind,
      createdAt: now.toISOString(),
      database: 'pglite',
      postgres: snapshot.postgres,
      counts: snapshot.counts,
      storage: storage.kind,
      storedFiles: files.checksums.length,
      storedBytes: files.bytes,
      missingFiles: files.missing,
    };
    await tar.addBuffer(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), now);
    await tar.finish();
    size = tar.bytes;
    await out.sync();
  } catch (error) {
    await out.close();
    await rm(partial, { force: true });
    throw error;
  }
  await out.close();
  renameSync(partial, file);
  fsyncDirectory(dir);
  pruneBackups(dataDir, kind);
  return {
    file,
    kind,
    createdAt: now,
    size,
    counts: snapshot.counts,
    storage: storage.kind,
    storedFiles: manifest.storedFiles,
    storedBytes: manifest.storedBytes ?? 0,
    missingFiles: manifest.missingFiles ?? [],
  };
}

/** A stored file of a backup: its key, its entry in the archive, its SHA-256 from files.sha256. */
export type BackupStoredFile = { key: string; entry: TarEntry; sha256: string };

export type ReadBackup = {
  file: string;
  manifest: BackupManifest;
  pgdataTar: Uint8Array;
  /**
   * The files to put back under DATA_DIR/media; null when the backup does not hold the media
   * (format 1, or S3 storage): a restore then leaves DATA_DIR/media as it is.
   */
  storedFiles: BackupStoredFile[] | null;
};

const CHECKSUM_LINE = /^([0-9a-f]{64}) {2}files\/(.+)$/;

/**
 * Reads and checks a backup file before anything is touched; a French explanation otherwise.
 * Every header is read (and its checksum checked), the manifest, checksums and database dump
 * whole; the stored files' bytes are only skipped here: restoreBackup checks them against their
 * SHA-256 as it unpacks them, still before anything changes.
 */
export async function readBackupFile(file: string): Promise<ReadBackup> {
  if (!existsSync(file)) throw new ExplainedError(`Sauvegarde introuvable : ${file}`);
  const notABackup = (why: string) =>
    new ExplainedError(`${file} n'est pas une sauvegarde FlotteAssur utilisable (${why}). Rien n'a été modifié.`);
  const input = await open(file, 'r');
  try {
    let manifestEntry: TarEntry | undefined;
    let databaseEntry: TarEntry | undefined;
    let checksumsEntry: TarEntry | undefined;
    const files = new Map<string, TarEntry>();
    try {
      for await (const entry of readTarEntries(input)) {
        if (entry.name === MANIFEST_ENTRY) manifestEntry = entry;
        else if (entry.name === DATABASE_ENTRY) databaseEntry = entry;
        else if (entry.name === CHECKSUMS_ENTRY) checksumsEntry = entry;
        else if (entry.name.startsWith(FILES_PREFIX)) {
          const key = entry.name.slice(FILES_PREFIX.length);
          try {
            assertValidKey(key);
          } catch {
            throw new Error(`nom de fichier joint invalide : ${entry.name.slice(0, 120)}`);
          }
          if (files.has(key)) throw new Error(`fichier joint en double : ${entry.name}`);
          files.set(key, entry);
        }
      }
    } catch (error) {
      throw notABackup(`archive illisible : ${(error as Error).message}`);
    }
    if (!manifestEntry || !databaseEntry) throw notABackup(`il y manque ${manifestEntry ? DATABASE_ENTRY : MANIFEST_ENTRY}`);
    if (manifestEntry.size > MAX_SMALL_ENTRY) throw notABackup(`${MANIFEST_ENTRY} illisible`);
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse((await readEntry(input, manifestEntry)).toString('utf8')) as BackupManifest;
    } catch {
      throw notABackup(`${MANIFEST_ENTRY} illisible`);
    }
    if (manifest.format !== FORMAT) throw notABackup('format inconnu');
    if (manifest.version > FORMAT_VERSION) {
      throw new ExplainedError(`${file} vient d'une version plus récente de FlotteAssur (format ${manifest.version}) : mettez l'application à jour pour la restaurer. Rien n'a été modifié.`);
    }
    const storedFiles = manifest.version >= 2 && manifest.storage === 'local' ? await checkedStoredFiles(input, manifest, files, checksumsEntry, notABackup) : null;
    if (!storedFiles && files.size !== (manifest.storedFiles ?? 0)) throw notABackup('fichiers joints manquants');
    let pgdataTar: Uint8Array;
    try {
      pgdataTar = gunzipSync(await readEntry(input, databaseEntry));
    } catch {
      throw notABackup(`${DATABASE_ENTRY} abîmé`);
    }
    return { file, manifest, pgdataTar, storedFiles };
  } finally {
    await input.close();
  }
}

/** The files of a format-2 backup, matched one to one with files.sha256 and the manifest's totals. */
async function checkedStoredFiles(
  input: FileHandle,
  manifest: BackupManifest,
  files: Map<string, TarEntry>,
  checksumsEntry: TarEntry | undefined,
  notABackup: (why: string) => ExplainedError,
): Promise<BackupStoredFile[]> {
  if (!checksumsEntry) throw notABackup(`il y manque ${CHECKSUMS_ENTRY}`);
  if (checksumsEntry.size > MAX_SMALL_ENTRY) throw notABackup(`${CHECKSUMS_ENTRY} illisible`);
  const expected = new Map<string, string>();
  for (const line of (await readEntry(input, checksumsEntry)).toString('utf8').split('\n')) {
    if (!line) continue;
    const match = CHECKSUM_LINE.exec(line);
    if (!match) throw notABackup(`${CHECKSUMS_ENTRY} illisible`);
    expected.set(match[2]!, match[1]!);
  }
  const absent = [...expected.keys()].filter((key) => !files.has(key));
  if (absent.length > 0) {
    throw notABackup(`${absent.length > 1 ? `${absent.length} fichiers joints manquants` : 'un fichier joint manquant'} : ${FILES_PREFIX}${absent[0]}${absent.length > 1 ? '…' : ''}`);
  }
  const unlisted = [...files.keys()].filter((key) => !expected.has(key));
  if (unlisted.length > 0) throw notABackup(`fichier joint absent de ${CHECKSUMS_ENTRY} : ${FILES_PREFIX}${unlisted[0]}`);
  const bytes = [...files.values()].reduce((sum, entry) => sum + entry.size, 0);
  if (files.size !== manifest.storedFiles || bytes !== manifest.storedBytes) {
    throw notABackup(
      `fichiers joints différents de ce qu'annonce ${MANIFEST_ENTRY} : ${formatStoredFiles(files.size, bytes)} au lieu de ${formatStoredFiles(manifest.storedFiles, manifest.storedBytes ?? 0)}`,
    );
  }
  return [...files].map(([key, entry]) => ({ key, entry, sha256: expected.get(key)! }));
}

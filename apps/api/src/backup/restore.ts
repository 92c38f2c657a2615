import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from '../db/client.js';
import { describeError, folderState, pgliteDir } from '../db/embedded.js';
import { latestKnownMigration, migrationLevel } from '../db/migrations.js';
import { ExplainedError } from '../lib/explained-error.js';
import { countRows, fileStamp, fsyncDirectory, mediaDir, type ReadBackup, type RowCounts, storedFilePath } from './backups.js';
import { removeRestoreMarker, writeRestoreMarker } from './restore-marker.js';
import { entryChunks } from './tar.js';

class DamagedFileError extends Error {}

/**
 * Unpacks a backup's stored files into a new folder (the staged media folder), each written as it
 * is read, compared with its SHA-256 and flushed to disk. A file that does not match fails the
 * whole unpacking: the caller removes the folder, nothing else was touched.
 */
export async function unpackStoredFiles(backup: ReadBackup, files: NonNullable<ReadBackup['storedFiles']>, into: string): Promise<void> {
  await mkdir(into, { mode: 0o700 });
  const folders = new Set<string>([into]);
  const input = await open(backup.file, 'r');
  // One buffer for every chunk of every file: each is written before the next is read.
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  try {
    for (const file of files) {
      const target = storedFilePath(into, file.key);
      const folder = path.dirname(target);
      if (!folders.has(folder)) {
        await mkdir(folder, { recursive: true, mode: 0o700 });
        for (let up = folder; up !== into && !folders.has(up); up = path.dirname(up)) folders.add(up);
      }
      const hash = createHash('sha256');
      const out = await open(target, 'wx', 0o600);
      try {
        for await (const chunk of entryChunks(input, file.entry, buffer)) {
          hash.update(chunk);
          await writeAll(out, chunk);
        }
        await out.sync();
      } finally {
        await out.close();
      }
      if (hash.digest('hex') !== file.sha256) throw new DamagedFileError(`files/${file.key} ne correspond pas à son empreinte SHA-256 (files.sha256)`);
    }
  } finally {
    await input.close();
  }
  for (const folder of [...folders].reverse()) fsyncDirectory(folder);
}

async function writeAll(out: FileHandle, chunk: Buffer): Promise<void> {
  for (let done = 0; done < chunk.length; ) done += (await out.write(chunk, done, chunk.length - done)).bytesWritten;
}

/**
 * Whether a folder is the root of another file system than its parent's (a volume mounted as
 * DATA_DIR/media, decision 019): it cannot be renamed, and a folder cannot be renamed onto it.
 * A symbolic link is not: the link itself is what a rename moves.
 */
export function isMountPoint(dir: string): boolean {
  try {
    return lstatSync(dir).dev !== lstatSync(path.dirname(path.resolve(dir))).dev;
  } catch {
    return false;
  }
}

/** A folder moved aside, or null when there was none; an empty one is simply removed. */
function moveAside(dir: string, aside: string): string | null {
  if (!existsSync(dir)) return null;
  if (readdirSync(dir).length === 0) {
    rmdirSync(dir);
    return null;
  }
  renameSync(dir, aside);
  return aside;
}

/**
 * Restores a backup as DATA_DIR/pglite and, when it holds them, its stored files as DATA_DIR/media.
 * The caller holds the folder's lock. The backup is first unpacked and opened beside the current
 * database (DATA_DIR/pglite.restauration-<date>), then its files unpacked and checked beside the
 * current media folder (DATA_DIR/media.restauration-<date>); only when both succeeded do the current
 * folders move aside (pglite.avant-restauration-<date>, media.avant-restauration-<date>, never
 * deleted) and the restored ones take their place. A backup without the files (format 1, S3
 * storage) leaves DATA_DIR/media as it is.
 */
export async function restoreBackup(
  dataDir: string,
  backup: ReadBackup,
  now = new Date(),
): Promise<{ dir: string; previous: string | null; counts: RowCounts; media: { dir: string; previous: string | null; files: number; bytes: number } | null }> {
  const stamp = fileStamp(now);
  const dir = pgliteDir(dataDir);
  const staging = path.join(dataDir, `pglite.restauration-${stamp}`);
  const media = mediaDir(dataDir);
  const mediaStaging = path.join(dataDir, `media.restauration-${stamp}`);
  for (const folder of [staging, mediaStaging]) {
    if (existsSync(folder)) throw new ExplainedError(`${folder} existe déjà : attendez une seconde, puis relancez.`);
  }
  if (backup.storedFiles && isMountPoint(media)) {
    throw new ExplainedError(
      [
        `${media} est un volume monté : la restauration ne peut pas le remplacer par les fichiers déposés de la sauvegarde. Rien n'a été modifié.`,
        `Restaurez dans un autre dossier (DATA_DIR=/tmp/restauration npm run restore -- ${backup.file}),`,
        `puis remplacez la base (${dir}) et le contenu de ${media} par ceux de ce dossier, serveur arrêté. Voir docs/operations.md.`,
      ].join('\n'),
    );
  }

  let counts: RowCounts;
  let level: number | null;
  try {
    const client = await PGlite.create({
      dataDir: staging,
      loadDataDir: new Blob([backup.pgdataTar as Uint8Array<ArrayBuffer>]),
      extensions: PGLITE_EXTENSIONS,
    });
    try {
      // PGlite's own user is a superuser: every organization's rows are counted.
      counts = await client.transaction((tx) => countRows(tx));
      level = await migrationLevel(client);
    } finally {
      await client.close();
    }
  } catch (error) {
    // Only the unpacked copy is removed: it is ours, and holds nothing the backup does not.
    rmSync(staging, { recursive: true, force: true });
    throw new ExplainedError(`La sauvegarde ${backup.file} ne s'ouvre pas (${describeError(error)}). Rien n'a été modifié.`);
  }
  if (level !== null && level > latestKnownMigration()) {
    rmSync(staging, { recursive: true, force: true });
    throw new ExplainedError(
      `La sauvegarde ${backup.file} vient d'une version plus récente de FlotteAssur (migrations inconnues de celle-ci) : mettez l'application à jour, puis relancez. Rien n'a été modifié.`,
    );
  }
  if (backup.storedFiles) {
    try {
      await unpackStoredFiles(backup, backup.storedFiles, mediaStaging);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      rmSync(mediaStaging, { recursive: true, force: true });
      const why = error instanceof DamagedFileError ? `la sauvegarde est abîmée : ${error.message}` : describeError(error);
      throw new ExplainedError(`Les fichiers joints de ${backup.file} n'ont pas pu être restaurés (${why}). Rien n'a été modifié.`);
    }
  }

  const state = folderState(dir);
  if (state === 'empty') rmdirSync(dir);
  const previous = state === 'missing' || state === 'empty' ? null : path.join(dataDir, `pglite.avant-restauration-${stamp}`);
  const mediaAside = path.join(dataDir, `media.avant-restauration-${stamp}`);
  writeRestoreMarker(dataDir, { backup: backup.file, previous, previousMedia: backup.storedFiles && existsSync(media) && readdirSync(media).length > 0 ? mediaAside : null, startedAt: now.toISOString() });
  if (previous) renameSync(dir, previous);
  renameSync(staging, dir);
  let restoredMedia = null;
  if (backup.storedFiles) {
    const previousMedia = moveAside(media, mediaAside);
    renameSync(mediaStaging, media);
    restoredMedia = {
      dir: media,
      previous: previousMedia,
      files: backup.storedFiles.length,
      bytes: backup.storedFiles.reduce((sum, file) => sum + file.entry.size, 0),
    };
  }
  fsyncDirectory(dataDir);
  removeRestoreMarker(dataDir);
  return { dir, previous, counts, media: restoredMedia };
}

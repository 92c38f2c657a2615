import { existsSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from '../db/client.js';
import { describeError, folderState, pgliteDir } from '../db/embedded.js';
import { latestKnownMigration, migrationLevel } from '../db/migrations.js';
import { ExplainedError } from '../lib/explained-error.js';
import { countRows, fileStamp, fsyncDirectory, type ReadBackup, type RowCounts } from './backups.js';
import { removeRestoreMarker, writeRestoreMarker } from './restore-marker.js';

/**
 * Puts a backup's stored files back in DATA_DIR. Backups hold none yet (see storedFileEntries in
 * backups.ts); readBackupFile already refuses an archive whose files do not match its manifest.
 */
function restoreStoredFiles(files: ReadBackup['storedFiles'], _dataDir: string): void {
  if (files.length > 0) throw new ExplainedError('Cette sauvegarde contient des fichiers joints, que cette version ne sait pas encore restaurer.');
}

/**
 * Restores a backup as DATA_DIR/pglite. The caller holds the folder's lock. The backup is first
 * unpacked and opened beside the current database (DATA_DIR/pglite.restauration-<date>); only when
 * it opened does the current folder move aside (DATA_DIR/pglite.avant-restauration-<date>, never
 * deleted) and the restored one take its place.
 */
export async function restoreBackup(
  dataDir: string,
  backup: ReadBackup,
  now = new Date(),
): Promise<{ dir: string; previous: string | null; counts: RowCounts }> {
  const stamp = fileStamp(now);
  const dir = pgliteDir(dataDir);
  const staging = path.join(dataDir, `pglite.restauration-${stamp}`);
  if (existsSync(staging)) throw new ExplainedError(`${staging} existe déjà : attendez une seconde, puis relancez.`);

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
  restoreStoredFiles(backup.storedFiles, dataDir);

  const state = folderState(dir);
  if (state === 'empty') rmdirSync(dir);
  const previous = state === 'missing' || state === 'empty' ? null : path.join(dataDir, `pglite.avant-restauration-${stamp}`);
  writeRestoreMarker(dataDir, { backup: backup.file, previous, startedAt: now.toISOString() });
  if (previous) renameSync(dir, previous);
  renameSync(staging, dir);
  fsyncDirectory(dataDir);
  removeRestoreMarker(dataDir);
  return { dir, previous, counts };
}

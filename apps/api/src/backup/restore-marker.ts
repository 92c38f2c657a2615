import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ExplainedError } from '../lib/explained-error.js';
import { fsyncDirectory, writeFileDurably } from './backups.js';

/**
 * A restore moves the current database folder aside, then moves the restored one in: two renames,
 * with an instant between them when DATA_DIR/pglite does not exist. A server starting right then
 * would create a fresh database and seed the demo, as if the data were gone. This marker, written
 * before the first rename and removed after the second, makes the server refuse instead.
 */

const MARKER = 'restauration-en-cours.json';

export type RestoreMarker = {
  backup: string;
  previous: string | null;
  /** Where the stored files of before the restore go (DATA_DIR/media moved aside), if they move. */
  previousMedia?: string | null;
  startedAt: string;
};

export function writeRestoreMarker(dataDir: string, marker: RestoreMarker): void {
  writeFileDurably(path.join(dataDir, MARKER), Buffer.from(`${JSON.stringify(marker, null, 2)}\n`));
}

export function removeRestoreMarker(dataDir: string): void {
  const file = path.join(dataDir, MARKER);
  if (existsSync(file)) unlinkSync(file);
  fsyncDirectory(dataDir);
}

/** Throws the explanation when a restore of DATA_DIR was interrupted. */
export function assertNoInterruptedRestore(dataDir: string): void {
  const file = path.join(dataDir, MARKER);
  if (!existsSync(file)) return;
  let marker: Partial<RestoreMarker> = {};
  try {
    marker = JSON.parse(readFileSync(file, 'utf8')) as RestoreMarker;
  } catch {
    // An unreadable marker still means a restore did not finish.
  }
  throw new ExplainedError(
    [
      `Une restauration de ${dataDir} a été interrompue${marker.backup ? ` (sauvegarde ${marker.backup})` : ''} : la base n'est pas démarrée, pour ne rien écraser.`,
      marker.previous ? `La base d'avant la restauration est intacte dans ${marker.previous}.` : '',
      marker.previousMedia
        ? `Les fichiers déposés d'avant la restauration sont intacts : dans ${marker.previousMedia}, ou encore dans ${path.join(dataDir, 'media')} si la restauration s'est arrêtée avant de les déplacer.`
        : '',
      `Relancez la restauration : npm run restore -- ${marker.backup ?? '<fichier de sauvegarde>'}`,
      marker.previous
        ? `(ou, pour revenir à la base d'avant : remettez ${marker.previous} à la place de ${path.join(dataDir, 'pglite')}${marker.previousMedia ? ` et ${marker.previousMedia} à la place de ${path.join(dataDir, 'media')}` : ''}, puis supprimez ${file}).`
        : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

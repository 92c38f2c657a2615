import { BACKUP_KINDS, describeRestoredFiles, formatCounts, listBackups, readBackupFile } from '../backup/backups.js';
import { restoreBackup } from '../backup/restore.js';
import { loadConfig } from '../config.js';
import { acquireDataDirLock } from '../db/data-dir-lock.js';
import { ExplainedError } from '../lib/explained-error.js';
import { pathArgument, runCommand, say } from './command.js';

/** npm run restore -- FILE: the backup becomes DATA_DIR's embedded database; the current one is kept aside. */
runCommand(async () => {
  const config = loadConfig();
  const argument = process.argv[2];
  if (!argument) {
    const backups = listBackups(config.dataDir);
    throw new ExplainedError(
      [
        'Indiquez la sauvegarde à restaurer : npm run restore -- <fichier>',
        backups.length > 0 ? `Sauvegardes dans ${config.dataDir}/backups :` : `Aucune sauvegarde dans ${config.dataDir}/backups.`,
        ...backups.map((b) => `  ${b.file}`),
      ].join('\n'),
    );
  }
  if (config.databaseUrl) {
    throw new ExplainedError(
      [
        'npm run restore restaure la base embarquée (DATA_DIR) ; DATABASE_URL désigne un serveur PostgreSQL.',
        'Pour PostgreSQL, restaurez un fichier de pg_dump dans une base vide :',
        '  pg_restore --no-owner --dbname="$DATABASE_URL" <fichier.dump>',
        'Pour passer une sauvegarde de la base embarquée sur PostgreSQL : npm run import-backup -- <fichier.tar>',
        'Voir docs/operations.md.',
      ].join('\n'),
    );
  }
  // Read and checked before the folder is locked or anything moves.
  const backup = await readBackupFile(pathArgument(argument));
  const lock = acquireDataDirLock(config.dataDir, { role: 'restore' }, (message) => say(message));
  try {
    const restored = await restoreBackup(config.dataDir, backup);
    say(`Sauvegarde restaurée : ${backup.file}`);
    say(`  Prise le ${new Date(backup.manifest.createdAt).toLocaleString('fr-FR')} (${BACKUP_KINDS[backup.manifest.kind] ?? backup.manifest.kind}).`);
    say(`  Contenu restauré : ${formatCounts(restored.counts)}.`);
    say(`  Base restaurée dans : ${restored.dir}`);
    if (restored.previous) say(`  Ancienne base mise de côté (pas supprimée) : ${restored.previous}`);
    for (const line of describeRestoredFiles(backup.manifest, restored.media, config.storage.kind)) say(line);
    say('Démarrez FlotteAssur : npm start');
  } finally {
    lock.release();
  }
});

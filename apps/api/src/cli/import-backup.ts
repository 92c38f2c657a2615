import { formatStoredFiles, readBackupFile } from '../backup/backups.js';
import { importBackupIntoPostgres } from '../backup/import-to-postgres.js';
import { loadConfig } from '../config.js';
import { ExplainedError } from '../lib/explained-error.js';
import { pathArgument, runCommand, say } from './command.js';

/** DATABASE_URL=postgres://… npm run import-backup -- FILE: an embedded backup moved into a new PostgreSQL database. */
runCommand(async () => {
  const config = loadConfig();
  const argument = process.argv[2];
  if (!argument || !config.databaseUrl) {
    throw new ExplainedError(
      [
        'Usage : DATABASE_URL=postgres://utilisateur@serveur:5432/base npm run import-backup -- <sauvegarde.tar>',
        'La base désignée doit être neuve (createdb) ; elle reçoit les migrations de FlotteAssur, puis toutes les lignes de la sauvegarde.',
        'Une sauvegarde de la base embarquée se prend avec npm run backup. Voir docs/operations.md.',
      ].join('\n'),
    );
  }
  const backup = await readBackupFile(pathArgument(argument));
  say(`Import de ${backup.file} (sauvegarde du ${new Date(backup.manifest.createdAt).toLocaleString('fr-FR')}) dans PostgreSQL…`);
  const report = await importBackupIntoPostgres(backup, config.databaseUrl);
  const width = Math.max(...report.tables.map((t) => t.name.length));
  for (const table of report.tables) say(`  ${table.name.padEnd(width)}  ${table.rows.toLocaleString('fr-FR')} ligne(s)`);
  say('Import terminé : chaque table a le même nombre de lignes que la sauvegarde.');
  if (backup.storedFiles && backup.storedFiles.length > 0) {
    const bytes = backup.storedFiles.reduce((sum, file) => sum + file.entry.size, 0);
    say(`Fichiers déposés de la sauvegarde (${formatStoredFiles(backup.storedFiles.length, bytes)}) : non copiés par cette commande.`);
    say(`  Sur la même machine, FlotteAssur sur PostgreSQL les retrouve dans ${config.dataDir}/media (ou copiez-les dans le bucket S3_BUCKET).`);
    say(`  Ailleurs, extrayez-les de la sauvegarde : mkdir -p DATA_DIR/media && tar -xf ${backup.file} -C DATA_DIR/media --strip-components=1 files/`);
  }
  say(`Démarrez FlotteAssur sur PostgreSQL : DATABASE_URL=… APP_SECRET=… npm start (voir README.md).`);
});

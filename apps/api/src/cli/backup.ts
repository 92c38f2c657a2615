import { formatFileSize } from '@flotte/contract';
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { backupPglite, type BackupKind, backupsDir, describeBackupFiles, fileStamp, formatCounts, fsyncDirectory, type RowCounts, type StoredFilesSummary } from '../backup/backups.js';
import { requestServerBackup } from '../backup/control.js';
import { type Config, loadConfig } from '../config.js';
import { openPglite } from '../db/client.js';
import { acquireDataDirLock, DataDirBusyError, findLockHolder } from '../db/data-dir-lock.js';
import { describeError, folderState, pgliteDir, unopenableError } from '../db/embedded.js';
import { ExplainedError } from '../lib/explained-error.js';
import { runCommand, say } from './command.js';

/**
 * npm run backup: a consistent snapshot of the embedded database in DATA_DIR/backups, whether the
 * server runs (it is asked to take it: nothing else may open the folder) or not (the folder is
 * opened here, under its lock). With DATABASE_URL: pg_dump in its custom format.
 */

type Taken = { file: string; size: number; counts: RowCounts; kind: BackupKind; byServer: number | null } & StoredFilesSummary;

async function backupEmbedded(config: Config): Promise<Taken> {
  const { dataDir } = config;
  for (let attempt = 0; ; attempt++) {
    const holder = findLockHolder(dataDir);
    if (holder) {
      if (holder.elsewhere || holder.owner.role !== 'server') throw new DataDirBusyError(dataDir, holder.owner, holder.elsewhere);
      const answer = await requestServerBackup(holder.owner);
      return { ...answer, byServer: holder.owner.pid };
    }
    let lock;
    try {
      lock = acquireDataDirLock(dataDir, { role: 'backup' }, (message) => say(message));
    } catch (error) {
      // A server started between our look and our lock: ask it instead.
      if (error instanceof DataDirBusyError && attempt === 0) continue;
      throw error;
    }
    try {
      const dir = pgliteDir(dataDir);
      const state = folderState(dir);
      if (state === 'missing' || state === 'empty') throw new ExplainedError(`Aucune base embarquée dans ${dir} : rien à sauvegarder.`);
      if (state === 'foreign') throw unopenableError(dataDir, `le dossier ne contient pas de base PostgreSQL (PG_VERSION absent).`);
      let handle;
      try {
        // No migration here: a backup copies the database as it is.
        handle = await openPglite({ dataDir: dir, migrate: false });
      } catch (error) {
        throw unopenableError(dataDir, describeError(error));
      }
      try {
        const backup = await backupPglite(handle.pglite!, dataDir, 'manual', { storage: config.storage });
        return { ...backup, byServer: null };
      } finally {
        await handle.close();
      }
    } finally {
      lock.release();
    }
  }
}

/** pg_dump on the PATH, else the newest Debian/Ubuntu PostgreSQL client. */
function findPgDump(): string | null {
  const candidates = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'pg_dump'));
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(`/usr/lib/postgresql/${version}/bin/pg_dump`);
  } catch {
    // Not a Debian-style installation.
  }
  return (
    candidates.find((file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    }) ?? null
  );
}

function backupPostgres(config: Config & { databaseUrl: string }) {
  const pgDump = findPgDump();
  if (!pgDump) {
    throw new ExplainedError(
      [
        'DATABASE_URL désigne un serveur PostgreSQL, et pg_dump est introuvable sur cette machine : aucune sauvegarde prise.',
        'Installez le client PostgreSQL de la même version majeure que le serveur (ou plus récente), par exemple :',
        '  sudo apt-get install postgresql-client',
        'puis relancez npm run backup. Ou sauvegardez depuis une machine qui l’a :',
        '  pg_dump --format=custom --file=flotte.dump "$DATABASE_URL"',
        'Un service PostgreSQL hébergé propose aussi ses propres sauvegardes. Voir docs/operations.md.',
      ].join('\n'),
    );
  }
  const dir = backupsDir(config.dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let file = path.join(dir, `flotte-${fileStamp(new Date())}-postgresql.dump`);
  for (let n = 2; existsSync(file); n++) file = file.replace(/(-\d+)?\.dump$/, `-${n}.dump`);
  const partial = path.join(dir, `.${path.basename(file)}.partial`);
  // The password travels in the environment, not on a command line every user can list.
  const url = new URL(config.databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const result = spawnSync(pgDump, ['--format=custom', '--no-password', `--file=${partial}`, `--dbname=${url.toString()}`], {
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    rmSync(partial, { force: true });
    const stderr = (result.stderr || result.error?.message || '').trim();
    throw new ExplainedError(
      `pg_dump (${pgDump}) a échoué : ${stderr}` +
        (/version mismatch|version/i.test(stderr) ? '\nInstallez un pg_dump de la même version majeure que le serveur, ou plus récente.' : ''),
    );
  }
  chmodSync(partial, 0o600);
  renameSync(partial, file);
  fsyncDirectory(dir);
  say(`Sauvegarde PostgreSQL écrite : ${file} (${formatFileSize(statSync(file).size)})`);
  say(`  Prise par ${pgDump}, format personnalisé (pg_restore).`);
  say(`  Pour la restaurer dans une base vide : pg_restore --no-owner --dbname="$DATABASE_URL" ${file}`);
  say('  (voir docs/operations.md : rôles flotte_app et flotte_system, base neuve)');
}

runCommand(async () => {
  const config = loadConfig();
  if (config.databaseUrl) return backupPostgres({ ...config, databaseUrl: config.databaseUrl });
  const taken = await backupEmbedded(config);
  say(`Sauvegarde écrite : ${taken.file} (${formatFileSize(taken.size)})`);
  say(`  Contenu : ${formatCounts(taken.counts)}.`);
  for (const line of describeBackupFiles(taken)) say(line);
  say(
    taken.byServer === null
      ? '  Prise directement dans le dossier (aucun serveur ne tournait).'
      : `  Prise par le serveur en cours (processus ${taken.byServer}), sans l'arrêter.`,
  );
  say(`  Pour la restaurer : npm run restore -- ${taken.file}`);
});

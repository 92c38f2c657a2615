import { formatFileSize } from '@flotte/contract';
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import {
  backupPglite,
  type BackupKind,
  fsyncDirectory,
  isDailyBackupDue,
  latestBackup,
} from '../backup/backups.js';
import { startControlServer } from '../backup/control.js';
import { assertNoInterruptedRestore } from '../backup/restore-marker.js';
import type { Config } from '../config.js';
import { ExplainedError } from '../lib/explained-error.js';
import { type DatabaseHandle, openPglite } from './client.js';
import { acquireDataDirLock } from './data-dir-lock.js';
import { migrationLevel, pendingMigrations } from './migrations.js';

/**
 * The embedded database as the server opens it (decision 009): the folder is locked first (one
 * process per DATA_DIR), a first start initialises it out of sight then moves it in, a folder that
 * does not open is left untouched with an explanation, a backup is taken before any migration, and
 * one a day while the server runs.
 */

export type StartLogger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

const FIRST_DAILY_CHECK_MS = 60_000;
const DAILY_CHECK_EVERY_MS = 3600_000;

export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** What DATA_DIR/pglite holds: nothing yet, a PostgreSQL data folder, or files that are not one. */
export function folderState(dir: string): 'missing' | 'empty' | 'database' | 'foreign' {
  if (!existsSync(dir)) return 'missing';
  const names = readdirSync(dir);
  if (names.length === 0) return 'empty';
  return names.includes('PG_VERSION') ? 'database' : 'foreign';
}

/** The explanation for a database folder that does not open: nothing touched, the latest backup, the command. */
export function unopenableError(dataDir: string, cause: string): ExplainedError {
  const latest = latestBackup(dataDir);
  const lines = [
    `La base embarquée ${pgliteDir(dataDir)} ne s'ouvre pas : ${cause}`,
    `Rien n'a été modifié : le dossier n'est ni effacé, ni réinitialisé, ni rempli de données de démonstration.`,
  ];
  if (latest) {
    lines.push(
      `Dernière sauvegarde : ${latest.file} (${latest.createdAt.toLocaleString('fr-FR')}, ${formatFileSize(latest.size)}).`,
      `Pour la restaurer (le dossier actuel est mis de côté, pas supprimé) :`,
      `  npm run restore -- ${latest.file}`,
    );
  } else {
    lines.push(
      `Aucune sauvegarde dans ${path.join(dataDir, 'backups')}.`,
      `Gardez une copie de ${dataDir} ; pour repartir d'une base neuve, déplacez ${pgliteDir(dataDir)} ailleurs (sans le supprimer), puis relancez. Voir docs/operations.md.`,
    );
  }
  return new ExplainedError(lines.join('\n'));
}

/** The first line of an error, for a message (PGlite's are often one long line plus a stack). */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return message.split('\n')[0] ?? message;
}

/**
 * First start: PGlite initialises and migrates in DATA_DIR/pglite.init, which is renamed to
 * DATA_DIR/pglite only once complete. An initialisation cut short leaves pglite.init behind (never
 * a half-made pglite/), which held no data and is started over.
 */
async function initialise(dataDir: string, log: StartLogger): Promise<void> {
  const dir = pgliteDir(dataDir);
  const staging = path.join(dataDir, 'pglite.init');
  if (existsSync(staging)) {
    log.warn({ staging }, 'initialisation interrompue précédemment : recommencée');
    rmSync(staging, { recursive: true, force: true });
  }
  const fresh = await openPglite({ dataDir: staging });
  await fresh.close();
  if (existsSync(dir)) rmdirSync(dir); // only ever an empty folder here
  renameSync(staging, dir);
  fsyncDirectory(dataDir);
  log.info({ dir }, 'base embarquée créée');
}

async function backupBeforeMigrations(client: PGlite, config: Config, log: StartLogger): Promise<void> {
  const { dataDir } = config;
  const level = await migrationLevel(client);
  // A database without any applied migration holds nothing to save.
  if (level === null) return;
  const pending = pendingMigrations(level);
  if (pending.length === 0) return;
  let backup;
  try {
    backup = await backupPglite(client, dataDir, 'pre-migration', { storage: config.storage });
  } catch (error) {
    throw new ExplainedError(
      `${pending.length} migration(s) à appliquer, mais la sauvegarde qui doit les précéder a échoué : ${describeError(error)}\n` +
        `Les migrations ne sont pas appliquées et la base n'a pas été modifiée. Libérez de la place dans ${dataDir}, puis relancez.`,
    );
  }
  log.info({ file: backup.file, size: backup.size, pending: pending.length }, `sauvegarde avant migration : ${backup.file} (${formatFileSize(backup.size)})`);
}

/** Opens DATA_DIR/pglite (initialising it if it does not exist), or explains why it cannot. */
async function openFolder(config: Config, log: StartLogger): Promise<DatabaseHandle> {
  const { dataDir } = config;
  const dir = pgliteDir(dataDir);
  const state = folderState(dir);
  if (state === 'foreign') {
    throw unopenableError(dataDir, `le dossier n'est pas vide mais ne contient pas de base PostgreSQL (PG_VERSION absent : initialisation inachevée, ou autre chose que FlotteAssur).`);
  }
  if (state !== 'database') await initialise(dataDir, log);
  let opened = false;
  try {
    return await openPglite({
      dataDir: dir,
      onOpen: async (client) => {
        // A first query proves the catalog readable before anything is written.
        await client.query('SELECT count(*) FROM pg_class');
        opened = true;
        await backupBeforeMigrations(client, config, log);
      },
    });
  } catch (error) {
    if (error instanceof ExplainedError) throw error;
    if (!opened) throw unopenableError(dataDir, describeError(error));
    const latest = latestBackup(dataDir);
    throw new ExplainedError(
      `La mise à jour de la base embarquée (migrations) a échoué : ${describeError(error)}\n` +
        `Les migrations s'appliquent dans une transaction : la base est restée dans son état d'avant.` +
        (latest ? `\nDernière sauvegarde : ${latest.file} ; pour la restaurer : npm run restore -- ${latest.file}` : ''),
    );
  }
}

/**
 * Serialises the server's backups (manual requests and the daily one) and checks every hour whether
 * the daily one is due.
 */
function startBackups(pglite: PGlite, config: Config, log: StartLogger) {
  const { dataDir } = config;
  let queue: Promise<unknown> = Promise.resolve();
  const take = (kind: BackupKind) => {
    const run = queue.then(() => backupPglite(pglite, dataDir, kind, { storage: config.storage }));
    queue = run.catch(() => undefined);
    return run;
  };
  const checkDaily = () => {
    if (!isDailyBackupDue(dataDir)) return;
    take('daily').then(
      (backup) => log.info({ file: backup.file, size: backup.size }, `sauvegarde quotidienne : ${backup.file} (${formatFileSize(backup.size)})`),
      (error: unknown) => log.error({ err: error }, 'la sauvegarde quotidienne a échoué'),
    );
  };
  const first = setTimeout(checkDaily, FIRST_DAILY_CHECK_MS);
  const every = setInterval(checkDaily, DAILY_CHECK_EVERY_MS);
  first.unref();
  every.unref();
  return {
    take,
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await queue;
    },
  };
}

/**
 * The embedded database for the server: lock, open (or explain), backups. close() stops the
 * backups, closes the database and only then releases the folder.
 */
export async function openEmbeddedDatabase(config: Config, log: StartLogger): Promise<DatabaseHandle> {
  const control = await startControlServer();
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let lock;
  try {
    lock = acquireDataDirLock(
      config.dataDir,
      { role: 'server', url: config.publicUrl ?? `http://${host}:${config.port}`, control: { port: control.port, token: control.token } },
      (message) => log.warn({ dataDir: config.dataDir }, message),
    );
  } catch (error) {
    await control.close();
    throw error;
  }
  let handle: DatabaseHandle;
  try {
    assertNoInterruptedRestore(config.dataDir);
    handle = await openFolder(config, log);
  } catch (error) {
    await control.close();
    lock.release();
    throw error;
  }
  const backups = startBackups(handle.pglite!, config, log);
  control.setBackupHandler(() => backups.take('manual'));
  return {
    ...handle,
    async close() {
      await backups.stop();
      await control.close();
      await handle.close();
      lock.release();
    },
  };
}

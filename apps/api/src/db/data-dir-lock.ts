import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExplainedError } from '../lib/explained-error.js';

/**
 * One process per embedded data folder (docs/decisions/009-embedded-database-safety.md).
 *
 * PGlite keeps PostgreSQL's shared state inside its own process: two processes on one folder each
 * believe they own it, and the second one's checkpoints silently destroy the first one's writes.
 * So whoever opens DATA_DIR (the server, a backup, a restore) first creates DATA_DIR/flotte.lock
 * exclusively (O_EXCL): it holds that process's id, and is removed on every orderly exit.
 *
 * A lock left by a process that died (kill -9, power cut) is taken over. Two processes may find the
 * same dead lock at the same instant, so removing it is itself guarded: the only process allowed to
 * delete a stale lock is the one that exclusively created `<lock>.takeover-<hash of its content>`,
 * and it deletes the lock only after re-reading it and finding that very content. A live lock is
 * never rewritten, so its content identifies it. A guard left by a process that died is removed the
 * same way, one level down.
 */

export const LOCK_FILE = 'flotte.lock';

export type LockRole = 'server' | 'backup' | 'restore';

export type LockOwner = {
  pid: number;
  hostname: string;
  /** Linux boot id: a lock written before a reboot is stale whatever its pid. */
  bootId: string | null;
  /** Start time of the process (Linux, clock ticks since boot): a reused pid is not the owner. */
  processStart: string | null;
  role: LockRole;
  startedAt: string;
  /** Where people reach the server (server only). */
  url?: string;
  /** The server's loopback control endpoint: `npm run backup` asks it for a snapshot. */
  control?: { port: number; token: string };
  /** Makes every lock's content unique, hence its hash an identity. */
  nonce: string;
};

type LockRecord = { raw: string; owner: LockOwner | null; id: string };
type HolderState = 'alive' | 'dead' | 'elsewhere';

const ROLE_LABELS: Record<LockRole, string> = {
  server: 'un serveur FlotteAssur',
  backup: 'une sauvegarde (npm run backup)',
  restore: 'une restauration (npm run restore)',
};

export function lockFilePath(dataDir: string): string {
  return path.join(dataDir, LOCK_FILE);
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function hashOf(raw: string): string {
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

function readRaw(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

let cachedBootId: string | null | undefined;
function bootId(): string | null {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId;
}

/** State (field 3) and start time (field 22) of /proc/<pid>/stat, read after the command name (which may hold spaces). */
function procStat(pid: number): { state: string; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', start: fields[19] ?? '' };
  } catch {
    return null;
  }
}

function processStartOf(pid: number): string | null {
  return procStat(pid)?.start || null;
}

function parseOwner(raw: string): LockOwner | null {
  try {
    const value = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof value.pid !== 'number' || typeof value.hostname !== 'string' || typeof value.role !== 'string') return null;
    return value as LockOwner;
  } catch {
    return null;
  }
}

/** Reads a lock; an empty or half-written one is read again briefly (its creator may be writing it). */
function readRecord(file: string): LockRecord | null {
  for (let attempt = 0; ; attempt++) {
    const raw = readRaw(file);
    if (raw === null) return null;
    const owner = parseOwner(raw);
    if (owner || attempt >= 10) return { raw, owner, id: hashOf(raw) };
    sleepSync(20);
  }
}

function holderState(owner: LockOwner | null): HolderState {
  // Unreadable after retries: left by a crash between creating the file and writing it.
  if (!owner) return 'dead';
  if (owner.hostname !== os.hostname()) return 'elsewhere';
  // Our own pid in a lock we have not taken yet: a previous life of this pid (containers restart as pid 1).
  if (owner.pid === process.pid) return 'dead';
  const currentBoot = bootId();
  if (owner.bootId && currentBoot && owner.bootId !== currentBoot) return 'dead';
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'dead';
  }
  const stat = procStat(owner.pid);
  // A zombie (killed, not yet reaped by its parent) holds nothing any more.
  if (stat?.state === 'Z') return 'dead';
  if (owner.processStart && stat?.start && stat.start !== owner.processStart) return 'dead';
  return 'alive';
}

/** Creates file with content only if it does not exist (O_EXCL): the atomic step every lock rests on. */
function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(file);
    throw error;
  }
  closeSync(fd);
  return true;
}

/**
 * Deletes the lock `file` if it still holds the stale content `stale`; returns once `file` no longer
 * holds it (deleted by us or by another process taking over at the same time).
 */
function removeStale(file: string, stale: LockRecord, guardContent: string): void {
  const guard = `${file}.takeover-${stale.id}`;
  for (let attempt = 0; attempt < 500; attempt++) {
    if (createExclusive(guard, guardContent)) {
      try {
        const now = readRaw(file);
        if (now !== null && hashOf(now) === stale.id) unlinkSync(file);
      } finally {
        unlinkSync(guard);
      }
      return;
    }
    const holder = readRecord(guard);
    if (!holder) continue;
    if (holderState(holder.owner) === 'dead') {
      removeStale(guard, holder, guardContent);
      continue;
    }
    // Another live process is taking over this very lock: let it finish.
    sleepSync(10);
    const now = readRaw(file);
    if (now === null || hashOf(now) !== stale.id) return;
  }
  throw new Error(`Reprise du verrou ${file} impossible : le fichier ${guard} ne se libère pas.`);
}

function describeOwner(owner: LockOwner): string {
  const since = new Date(owner.startedAt);
  const when = Number.isNaN(since.getTime()) ? '' : `, depuis le ${since.toLocaleString('fr-FR')}`;
  return `${ROLE_LABELS[owner.role] ?? 'un processus FlotteAssur'} (processus ${owner.pid}${when})`;
}

/** Someone else holds the folder: the message says who, and what to do. */
export class DataDirBusyError extends ExplainedError {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
    elsewhere: boolean,
  ) {
    const file = lockFilePath(dataDir);
    const lines = [`Le dossier de données ${dataDir} est déjà utilisé par ${describeOwner(owner)}.`];
    if (elsewhere) {
      lines.push(
        `Ce verrou a été posé depuis la machine « ${owner.hostname} » : impossible de vérifier d'ici si ce processus tourne encore.`,
        `Un seul processus à la fois peut ouvrir la base embarquée : deux l'abîmeraient. Rien n'a été modifié.`,
        `Si aucun FlotteAssur ne tourne plus sur ce dossier, supprimez ${file}, puis relancez.`,
      );
    } else {
      lines.push(`Un seul processus à la fois peut ouvrir la base embarquée : deux l'abîmeraient. Rien n'a été modifié.`, 'Que faire :');
      if (owner.role === 'server') {
        if (owner.url) lines.push(`  - utiliser le serveur déjà lancé : ${owner.url}`);
        lines.push(
          `  - ou l'arrêter (Ctrl+C dans son terminal, ou kill ${owner.pid}), puis relancer la commande ;`,
          `  - ou démarrer un autre serveur sur un autre dossier : DATA_DIR=./data-2 PORT=3001 npm start ;`,
          `  - plusieurs serveurs sur les mêmes données : utilisez PostgreSQL (DATABASE_URL, voir docs/operations.md).`,
        );
      } else {
        lines.push(`  - attendez que ce processus se termine, puis relancez la commande.`);
      }
      lines.push(`Si le processus ${owner.pid} n'est pas FlotteAssur (numéro réutilisé), supprimez ${file}, puis relancez.`);
    }
    super(lines.join('\n'));
  }
}

/** The lock held by this process; released on release() or, failing that, when the process exits. */
export class DataDirLock {
  private released = false;
  private readonly onExit = () => this.release();

  constructor(
    readonly file: string,
    private readonly content: string,
    readonly owner: LockOwner,
  ) {
    process.on('exit', this.onExit);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    process.off('exit', this.onExit);
    try {
      // Only our own lock: never one that someone took over after deciding we were dead.
      if (readRaw(this.file) === this.content) unlinkSync(this.file);
    } catch {
      // Exiting anyway; a lock we could not delete is taken over as stale by the next process.
    }
  }
}

export type LockRequest = {
  role: LockRole;
  url?: string;
  control?: { port: number; token: string };
};

/**
 * Takes DATA_DIR for this process, or throws DataDirBusyError naming the live holder.
 * onTakeover is told when a dead process's lock was taken over.
 */
export function acquireDataDirLock(dataDir: string, request: LockRequest, onTakeover?: (message: string) => void): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = lockFilePath(dataDir);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    bootId: bootId(),
    processStart: processStartOf(process.pid),
    role: request.role,
    startedAt: new Date().toISOString(),
    ...(request.url ? { url: request.url } : {}),
    ...(request.control ? { control: request.control } : {}),
    nonce: randomBytes(8).toString('hex'),
  };
  const content = `${JSON.stringify(owner, null, 2)}\n`;
  const takenOver: LockRecord[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    if (createExclusive(file, content)) {
      const lock = new DataDirLock(file, content, owner);
      for (const stale of takenOver) {
        onTakeover?.(
          stale.owner
            ? `Verrou abandonné repris : ${describeOwner(stale.owner)} tenait ${dataDir} mais n'existe plus (arrêt brutal ?).`
            : `Verrou illisible repris dans ${dataDir} (fichier ${LOCK_FILE} vide ou abîmé, sans doute par une coupure).`,
        );
      }
      return lock;
    }
    const current = readRecord(file);
    if (!current) continue;
    const state = holderState(current.owner);
    if (state !== 'dead') throw new DataDirBusyError(dataDir, current.owner!, state === 'elsewhere');
    removeStale(file, current, content);
    takenOver.push(current);
  }
  throw new Error(`Impossible de prendre le verrou ${file} : il change sans cesse de main.`);
}

/** The live process holding DATA_DIR, if any (a stale lock counts as none). */
export function findLockHolder(dataDir: string): { owner: LockOwner; elsewhere: boolean } | null {
  const record = readRecord(lockFilePath(dataDir));
  if (!record) return null;
  const state = holderState(record.owner);
  return state === 'dead' ? null : { owner: record.owner!, elsewhere: state === 'elsewhere' };
}

/** Throws DataDirBusyError when a live process holds DATA_DIR (e.g. before `npm start` rebuilds). */
export function assertDataDirFree(dataDir: string): void {
  const holder = findLockHolder(dataDir);
  if (holder) throw new DataDirBusyError(dataDir, holder.owner, holder.elsewhere);
}

import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * Real processes on real folders: the built server (node apps/api/dist/server.js, as `npm start`
 * runs it) and the built maintenance commands, on temporary DATA_DIRs and free ports.
 */

export const ROOT = path.resolve(import.meta.dirname, '../../../..');
export const SERVER = path.join(ROOT, 'apps/api/dist/server.js');
export const commandFile = (name: 'backup' | 'restore' | 'import-backup') => path.join(ROOT, 'apps/api/dist/cli', `${name}.js`);
export const DEMO_ADMIN = { email: 'admin@demo.fr', password: 'Demo1234!' };

const scratchDirs: string[] = [];
const children = new Set<ChildProcess>();

/** A fresh temporary folder, removed when the test file ends (removeScratch in afterAll). */
export function scratch(prefix = 'flotte-proc-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
}

/** afterAll of every file: no process outlives its test (even one that timed out), no folder stays. */
export function cleanUp(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Opens an embedded database folder in the test itself (superuser: every organization's rows). */
export function openFolder(dataDir: string): Promise<PGlite> {
  return PGlite.create({ dataDir: path.join(dataDir, 'pglite'), extensions: { pg_trgm, unaccent } });
}

/** Values of one column of a query, as a set. */
export async function column(db: PGlite, sql: string, params: unknown[] = []): Promise<Set<string>> {
  const { rows } = await db.query<Record<string, string>>(sql, params);
  return new Set(rows.map((row) => Object.values(row)[0]!));
}

/** A copy of the seeded demo folder (made once per run by the global setup). */
export function seededDataDir(): string {
  const dir = scratch();
  cpSync(inject('seededDataDir'), dir, { recursive: true });
  return dir;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Environment of a child: the embedded database unless DATABASE_URL is given, no demo seed unless asked. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: '', SEED_DEMO: 'false', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env };
}

export type RunningServer = {
  child: ChildProcess;
  url: string;
  pid: number;
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
};

function track(child: ChildProcess) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  const chunks: string[] = [];
  child.stdout?.on('data', (d) => chunks.push(String(d)));
  child.stderr?.on('data', (d) => chunks.push(String(d)));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { output: () => chunks.join(''), exited };
}

/** Spawns the server without waiting: for starts that must fail. */
export function spawnServer(dataDir: string, port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: childEnv({ PORT: String(port), DATA_DIR: dataDir, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, ...track(child) };
}

/** Starts the server and waits until /api/health answers. */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const { child, output, exited } = spawnServer(dataDir, port, env);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  let exitCode: number | string | null = null;
  void exited.then((code) => (exitCode = code));
  for (;;) {
    if (exitCode !== null) throw new Error(`le serveur s'est arrêté (code ${exitCode}) :\n${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`le serveur ne répond pas sur ${url} :\n${output()}`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    pid: child.pid!,
    output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export type CommandResult = { code: number | string; stdout: string; stderr: string; output: string };

/**
 * Runs a program to its end (a maintenance command, a scanner); cleanUp kills it if its test ends
 * first. `output`: stdout and stderr as they came.
 */
export async function runProcess(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CommandResult> {
  const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.on('data', (d) => {
    stdout += String(d);
    output += String(d);
  });
  child.stderr.on('data', (d) => {
    stderr += String(d);
    output += String(d);
  });
  const code = await new Promise<number | string>((resolve) => child.once('exit', (c, s) => resolve(c ?? s ?? -1)));
  return { code, stdout, stderr, output };
}

/** Runs a built maintenance command (npm run backup / restore / import-backup) to its end. */
export function runCommand(name: 'backup' | 'restore' | 'import-backup', args: string[], env: Record<string, string>): Promise<CommandResult> {
  return runProcess(process.execPath, [commandFile(name), ...args], { cwd: ROOT, env: childEnv(env) });
}

/** The backup file a successful `npm run backup` printed. */
export function backupFileFrom(result: CommandResult): string {
  const match = /Sauvegarde écrite : (\S+) \(/.exec(result.stdout);
  if (result.code !== 0 || !match) throw new Error(`npm run backup a échoué (${result.code}) :\n${result.output}`);
  return match[1]!;
}

export async function login(url: string, account = DEMO_ADMIN): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (response.status !== 200) throw new Error(`connexion refusée : ${response.status} ${await response.text()}`);
  return ((await response.json()) as { tokens: { access_token: string } }).tokens.access_token;
}

export async function api<T>(url: string, token: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}/api${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export async function createDriver(url: string, token: string, lastName: string): Promise<string> {
  const created = await api<{ uuid: string }>(url, token, 'POST', '/driver', { firstName: 'Test', lastName });
  if (created.status !== 201) throw new Error(`conducteur refusé : ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.uuid;
}

/** Every driver (uuid) of the current organization whose name matches search, archived ones included. */
export async function driverUuids(url: string, token: string, search: string): Promise<Set<string>> {
  const uuids = new Set<string>();
  for (let page = 1; ; page++) {
    const route = `/driver?${search ? `search=${encodeURIComponent(search)}&` : ''}limit=1000&page=${page}&withArchived=true`;
    const answer = await api<{ data: { uuid: string }[] }>(url, token, 'GET', route);
    if (answer.status !== 200) throw new Error(`liste refusée : ${answer.status} ${JSON.stringify(answer.body)}`);
    for (const driver of answer.body.data) uuids.add(driver.uuid);
    if (answer.body.data.length < 1000) return uuids;
  }
}

/**
 * Writers hammering the API in parallel until stop(): each keeps the uuids of the writes the server
 * acknowledged (201 received); a write cut by a crash is not acknowledged.
 */
export function startWriters(count: number, write: (writer: number, n: number) => Promise<string[]>) {
  const acknowledged: string[] = [];
  let running = true;
  let failures = 0;
  const loops = Array.from({ length: count }, async (_, writer) => {
    for (let n = 0; running; n++) {
      try {
        acknowledged.push(...(await write(writer, n)));
      } catch {
        failures++;
        // The server is gone (killed on purpose): stop hammering.
        if (running) await new Promise((r) => setTimeout(r, 20));
      }
    }
  });
  return {
    acknowledged,
    get failures() {
      return failures;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Every file under dir (relative paths) with its size: what a failed or killed write left behind. */
export function filesUnder(dir: string): Record<string, number> {
  const result: Record<string, number> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    result[path.relative(dir, file)] = statSync(file).size;
  }
  return result;
}

/** Name, size and content hash of every file under dir: to prove a folder untouched. */
export function fingerprint(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const file = path.join(current, name);
      const stat = statSync(file);
      if (stat.isDirectory()) walk(file);
      else result[path.relative(dir, file)] = `${stat.size}:${createHash('sha1').update(readFileSync(file)).digest('hex')}`;
    }
  };
  walk(dir);
  return result;
}

export async function waitUntil(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition jamais remplie');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs fn with the URL of a new, empty PostgreSQL database of this run (PROCESS_TEST_DATABASE_URL's
 * server), dropped afterwards even if a process still holds it. `label` goes in its name.
 */
export async function withNewDatabase<T>(label: string, fn: (url: string) => Promise<T>): Promise<T> {
  const server = inject('postgresUrl');
  if (!server) throw new Error('withNewDatabase: PROCESS_TEST_DATABASE_URL absent');
  const name = `${inject('databasePrefix')}_${label}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

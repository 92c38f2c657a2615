import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR holding the demo database, made once: each test copies it. */
    seededDataDir: string;
    /** PostgreSQL for the move from the embedded database ('' when unreachable outside CI). */
    postgresUrl: string;
    /** Prefix of the PostgreSQL databases this run creates (dropped at its end, even after a crash). */
    databasePrefix: string;
  }
}

const root = path.resolve(import.meta.dirname, '../../../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The built server seeds the demo once into a folder, then stops cleanly; the tests copy that folder
 * instead of paying the migrations and the seed again.
 */
export default async function setup(project: TestProject) {
  for (const file of ['apps/api/dist/server.js', 'apps/api/dist/cli/backup.js', 'apps/api/dist/cli/restore.js', 'apps/api/dist/cli/import-backup.js']) {
    if (!existsSync(path.join(root, file))) throw new Error(`${file} absent : construisez d'abord le produit (npm run build).`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-proc-seed-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'apps/api/dist/server.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: 'true', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`le serveur de préparation s'est arrêté (${child.exitCode}) :\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`le serveur de préparation ne répond pas :\n${output}`);
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`le serveur de préparation ne s'est pas arrêté proprement (${code}) :\n${output}`);
  project.provide('seededDataDir', dataDir);
  const postgresUrl = process.env.PROCESS_TEST_DATABASE_URL ?? '';
  const databasePrefix = `flotte_proc_${randomBytes(4).toString('hex')}`;
  project.provide('postgresUrl', postgresUrl);
  project.provide('databasePrefix', databasePrefix);
  return async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (!postgresUrl) return;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${databasePrefix}_%`]);
    for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
  };
}

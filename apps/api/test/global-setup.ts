import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: { kind: 'postgres'; url: string; template: string } | { kind: 'pglite'; dumpFile: string };
  }
}

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Migrates once per run, then every test file copies the result: a PostgreSQL template database
 * (TEST_DB=postgres, the default) or a PGlite dump (TEST_DB=pglite). Names are unique per run,
 * so parallel runs never collide.
 */
export default async function setup(project: TestProject) {
  const kind = process.env.TEST_DB === 'pglite' ? 'pglite' : 'postgres';
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'flotte-pglite-'));
    const handle = await openPglite();
    const dump = await handle.pglite!.dumpDataDir('none');
    await handle.close();
    const dumpFile = path.join(dir, 'migrated.tar');
    writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
    project.provide('testDb', { kind, dumpFile });
    return () => rmSync(dir, { recursive: true, force: true });
  }

  const url = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
  const template = `flotte_tpl_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL injoignable sur ${url} (TEST_DATABASE_URL) : ${(error as Error).message}`, { cause: error });
  }
  await admin.query(`CREATE DATABASE ${template}`);
  const handle = await openPostgres(withDatabase(url, template), { max: 1 });
  await handle.close();
  project.provide('testDb', { kind, url, template });
  return async () => {
    // Databases left by a crashed file are dropped with the template.
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
      [template, `${template}_%`],
    );
    for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
  };
}

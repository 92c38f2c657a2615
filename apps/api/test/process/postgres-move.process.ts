import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readBackupFile } from '../../src/backup/backups.js';
import { backupFileFrom, cleanUp, column, driverUuids, login, runCommand, scratch, seededDataDir, startServer } from './harness.js';

afterAll(cleanUp);

const postgresUrl = inject('postgresUrl');

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

type Query = (sql: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** Every table's rows, as sorted JSON texts without the generated columns (recomputed by each side). */
async function allRows(query: Query): Promise<Record<string, string[]>> {
  await query(`SET TimeZone = 'UTC'`);
  const tables = await query(
    `SELECT c.relname AS name,
            array(SELECT attname FROM pg_attribute WHERE attrelid = c.oid AND attgenerated <> '')::text[] AS generated
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
  );
  const result: Record<string, string[]> = {};
  for (const table of tables.rows as { name: string; generated: string[] }[]) {
    const { rows } = await query(`SELECT (to_jsonb(t) - $1::text[])::text AS row FROM public."${table.name}" t`, [table.generated]);
    result[table.name] = rows.map((r) => r.row as string).sort();
  }
  return result;
}

describe.skipIf(!postgresUrl)('from the embedded database to PostgreSQL', () => {
  it('import-backup copies every row of every table into a new database, which then serves several processes (no lock)', async () => {
    // The demo's rows: every table filled, archived rows, claims linked to vehicles and drivers.
    const dataDir = seededDataDir();
    const backupFile = backupFileFrom(await runCommand('backup', [], { DATA_DIR: dataDir }));

    const database = `${inject('databasePrefix')}_${randomBytes(4).toString('hex')}`;
    const targetUrl = withDatabase(postgresUrl, database);
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    let adminDrivers: Set<string>;
    try {
      const imported = await runCommand('import-backup', [backupFile], { DATABASE_URL: targetUrl, DATA_DIR: dataDir });
      expect(imported.code, imported.output).toBe(0);
      expect(imported.stdout).toContain('Import terminé');

      // The source: the backup unpacked as it is.
      const source = await PGlite.create({
        dataDir: path.join(scratch(), 'pglite'),
        loadDataDir: new Blob([(await readBackupFile(backupFile)).pgdataTar as Uint8Array<ArrayBuffer>]),
        extensions: { pg_trgm, unaccent },
      });
      const target = new pg.Client({ connectionString: targetUrl });
      await target.connect();
      try {
        const expected = await allRows((sql, params) => source.query(sql, params));
        // As flotte_system: row-level security would hide every row from the owner.
        await target.query('BEGIN');
        await target.query('SET LOCAL ROLE flotte_system');
        const actual = await allRows((sql, params) => target.query(sql, params));
        await target.query('COMMIT');
        expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
        for (const table of Object.keys(expected)) expect(actual[table], table).toEqual(expected[table]);
        expect(expected.drivers!.length).toBeGreaterThan(2);
        expect(expected.register_counts!.length).toBeGreaterThan(0);
        adminDrivers = await column(
          source,
          `SELECT d.uuid FROM drivers d JOIN organization_users ou ON ou.organization_uuid = d.organization_uuid
           JOIN users u ON u.current_organization_user_uuid = ou.uuid WHERE u.email = 'admin@demo.fr'`,
        );
      } finally {
        await target.end();
        await source.close();
      }

      const twice = await runCommand('import-backup', [backupFile], { DATABASE_URL: targetUrl, DATA_DIR: dataDir });
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain('contient déjà des données');

      // Several processes on one PostgreSQL database, the same DATA_DIR: no folder lock.
      const env = { DATABASE_URL: targetUrl, APP_SECRET: 'import-test-secret-0123456789-0123456789' };
      const first = await startServer(dataDir, env);
      const second = await startServer(dataDir, env);
      try {
        expect(existsSync(path.join(dataDir, 'flotte.lock'))).toBe(false);
        for (const running of [first, second]) {
          expect(await driverUuids(running.url, await login(running.url), '')).toEqual(adminDrivers);
        }
      } finally {
        await first.stop();
        await second.stop();
      }

      const dump = await runCommand('backup', [], { DATABASE_URL: targetUrl, DATA_DIR: dataDir });
      expect(dump.code, dump.output).toBe(0);
      const dumpFile = /Sauvegarde PostgreSQL écrite : (\S+) \(/.exec(dump.stdout)![1]!;
      expect(dumpFile).toMatch(/-postgresql\.dump$/);
      expect(statSync(dumpFile).size).toBeGreaterThan(10_000);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  });
});

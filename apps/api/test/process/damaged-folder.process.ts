import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { PGLITE_EXTENSIONS } from '../../src/db/client.js';
import { backupFileFrom, cleanUp, fingerprint, freePort, openFolder, ROOT, runCommand, scratch, seededDataDir, spawnServer, startServer } from './harness.js';

afterAll(cleanUp);

describe('a folder that does not open, a pending migration', () => {
  it('a damaged folder: exit 1 naming the latest backup and the restore command, folder untouched; the restore brings it back', async () => {
    const dataDir = seededDataDir();
    const backupFile = backupFileFrom(await runCommand('backup', [], { DATA_DIR: dataDir }));
    const control = path.join(dataDir, 'pglite/global/pg_control');
    writeFileSync(control, Buffer.alloc(statSync(control).size));
    const before = fingerprint(dataDir);

    const failing = spawnServer(dataDir, await freePort());
    expect(await failing.exited).toBe(1);
    expect(failing.output()).toContain(`La base embarquée ${path.join(dataDir, 'pglite')} ne s'ouvre pas`);
    expect(failing.output()).toContain(`Dernière sauvegarde : ${backupFile}`);
    expect(failing.output()).toContain(`npm run restore -- ${backupFile}`);
    // Also proves the lock released after an error at start-up: the fingerprint has no flotte.lock.
    expect(fingerprint(dataDir)).toEqual(before);

    const backupOfDamaged = await runCommand('backup', [], { DATA_DIR: dataDir });
    expect(backupOfDamaged.code).toBe(1);
    expect(backupOfDamaged.stderr).toContain("ne s'ouvre pas");
    expect(fingerprint(dataDir)).toEqual(before);

    const restore = await runCommand('restore', [backupFile], { DATA_DIR: dataDir });
    expect(restore.code, restore.output).toBe(0);
    const previous = /Ancienne base mise de côté \(pas supprimée\) : (\S+)/.exec(restore.stdout)![1]!;
    const damaged = Object.fromEntries(Object.entries(before).filter(([file]) => file.startsWith('pglite/')).map(([file, print]) => [file.slice('pglite/'.length), print]));
    expect(fingerprint(previous)).toEqual(damaged);
    const db = await openFolder(dataDir);
    try {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM drivers');
      expect(rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  });

  it('a half-written initialisation (files but no PG_VERSION): exit 1, nothing initialised, seeded or deleted', async () => {
    const dataDir = scratch();
    mkdirSync(path.join(dataDir, 'pglite/base/1'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pglite/base/1/1259'), 'fragment');
    const before = fingerprint(dataDir);
    const failing = spawnServer(dataDir, await freePort(), { SEED_DEMO: 'true', APP_SECRET: 'x'.repeat(40) });
    expect(await failing.exited).toBe(1);
    expect(failing.output()).toContain('PG_VERSION absent');
    expect(failing.output()).toContain(`Aucune sauvegarde dans ${path.join(dataDir, 'backups')}`);
    expect(fingerprint(dataDir)).toEqual(before);
  });

  it('takes a backup before applying a pending migration (an up-to-date database gets none: durability test)', async () => {
    // A database one migration behind this version.
    const migrations = scratch();
    cpSync(path.join(ROOT, 'apps/api/drizzle'), migrations, { recursive: true });
    const journalFile = path.join(migrations, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { when: number }[] };
    journal.entries.pop();
    writeFileSync(journalFile, JSON.stringify(journal));
    const dataDir = scratch();
    // The server's own extensions: whichever migrations run here need them.
    const old = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), extensions: PGLITE_EXTENSIONS });
    await migrate(drizzle(old), { migrationsFolder: migrations });
    await old.close();

    const backups = () => (existsSync(path.join(dataDir, 'backups')) ? readdirSync(path.join(dataDir, 'backups')) : []);
    const server = await startServer(dataDir);
    await server.stop();
    expect(server.output()).toContain('sauvegarde avant migration');
    const taken = backups();
    expect(taken).toHaveLength(1);
    expect(taken[0]).toMatch(/-avant-migration\.tar$/);

    // The backup holds the database as it was before the migration.
    const target = scratch();
    const restore = await runCommand('restore', [path.join(dataDir, 'backups', taken[0]!)], { DATA_DIR: target });
    expect(restore.code, restore.output).toBe(0);
    const restored = await openFolder(target);
    try {
      const level = await restored.query<{ at: string }>('SELECT max(created_at)::text AS at FROM drizzle.__drizzle_migrations');
      expect(Number(level.rows[0]!.at)).toBe(journal.entries.at(-1)!.when);
    } finally {
      await restored.close();
    }
  });
});

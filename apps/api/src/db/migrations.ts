import type { PGlite } from '@electric-sql/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { MIGRATIONS_FOLDER } from './client.js';

/**
 * Where a PGlite database stands in the project's migrations, read the way drizzle's migrator
 * reads it (the newest applied `created_at`, i.e. the journal's `when`). Needs a superuser session
 * (the drizzle schema is not granted to the application roles). null: nothing ever applied.
 */
export async function migrationLevel(client: Pick<PGlite, 'query'>): Promise<number | null> {
  const table = await client.query<{ present: boolean }>(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!table.rows[0]?.present) return null;
  const last = await client.query<{ at: string | null }>('SELECT max(created_at)::text AS at FROM drizzle.__drizzle_migrations');
  return last.rows[0]?.at ? Number(last.rows[0].at) : null;
}

/** Migrations of this version of the code not yet applied to a database at `level`. */
export function pendingMigrations(level: number | null): { folderMillis: number }[] {
  return readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).filter((m) => level === null || m.folderMillis > level);
}

/** The newest migration this version of the code knows. */
export function latestKnownMigration(): number {
  return Math.max(...readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((m) => m.folderMillis));
}

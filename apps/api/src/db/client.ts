import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as drivers from './schema/drivers.js';
import * as environments from './schema/environments.js';
import * as organizations from './schema/organizations.js';
import { registerCounts } from './schema/registers.js';
import * as reports from './schema/reports.js';
import * as sinisters from './schema/sinisters.js';
import * as users from './schema/users.js';
import * as vehicules from './schema/vehicules.js';
import { FairShare } from './fair-share.js';
import { createScopedReadDatabase } from './scoped-reads.js';

export const schema = { ...users, ...environments, ...organizations, ...reports, ...drivers, ...vehicules, ...sinisters, registerCounts };
export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

const scopedReadsByDatabase = new WeakMap<Database, Database>();
const fairSharesByDatabase = new WeakMap<Database, FairShare>();
/** The fair share of the database's connections between organizations (db/fair-share.ts). */
export function fairShareOf(db: Database): FairShare | undefined {
  return fairSharesByDatabase.get(db);
}
function registerScopedReads(db: Database, reads: Database) {
  scopedReadsByDatabase.set(db, reads);
}
/** The single-message read database of a PostgreSQL pool, if any (PGlite has none). */
export function scopedReadsOf(db: Database): Database | undefined {
  return scopedReadsByDatabase.get(db);
}

/** How long a database operation waits for its turn before the request is answered 503 (the pool's own connection timeout). */
const DEFAULT_MAX_WAIT_MS = 5_000;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** The role every connection uses by default: it owns nothing and sees no tenant row until scoped. */
export const APP_ROLE = 'flotte_app';
export const SYSTEM_ROLE = 'flotte_system';

export type DatabaseHandle = {
  db: Database;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
  /** Only for tests and maintenance scripts: the raw PGlite instance (dump/load). */
  pglite?: PGlite;
  /** Only for tests and benchmarks: the raw pg pool. */
  pool?: pg.Pool;
  /** PostgreSQL only: a drizzle database whose queries each carry their scope (db/scoped-reads.ts). */
  scopedReads?: Database;
};

type Logger = { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };

const PGLITE_EXTENSIONS = { pg_trgm, unaccent };

/** PostgreSQL server: migrate on a dedicated connection, then a pool whose sessions run as flotte_app. */
export async function openPostgres(
  databaseUrl: string,
  options: { migrate?: boolean; logger?: Logger; max?: number; maxWaitMs?: number; statementTimeoutMs?: number } = {},
): Promise<DatabaseHandle> {
  if (options.migrate !== false) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      // Two processes starting together must not run the same migration twice.
      await client.query('SELECT pg_advisory_lock(74657001)');
      await migratePg(drizzlePg(client, { casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock(74657001)').catch(() => undefined);
      await client.end();
    }
  }
  const max = options.max ?? 10;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs ?? 15_000,
    idle_in_transaction_session_timeout: 30_000,
    // Every session starts as the role that owns nothing (startup option: no extra query).
    options: `-c role=${APP_ROLE}`,
  });
  // Without this handler a PostgreSQL restart crashes the process.
  pool.on('error', (err) => options.logger?.error({ err }, 'PostgreSQL pool error'));
  const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Database;
  const scopedReads = createScopedReadDatabase(pool, schema) as unknown as Database;
  registerScopedReads(db, scopedReads);
  fairSharesByDatabase.set(db, new FairShare({ capacity: max, maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS }));
  return { db, kind: 'postgres', close: () => pool.end(), pool, scopedReads };
}

/** Embedded PGlite: files in dataDir, or a copy of a dumped database (tests). */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob | File; migrate?: boolean; maxWaitMs?: number } = {},
): Promise<DatabaseHandle> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: path.resolve(options.dataDir) } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: PGLITE_EXTENSIONS,
  });
  const raw = drizzlePglite(client, { schema, casing: 'snake_case' });
  if (options.migrate !== false) {
    await migratePglite(raw, { migrationsFolder: MIGRATIONS_FOLDER });
  }
  // PGlite's only user is a superuser, which bypasses row-level security even with FORCE.
  await client.exec(`SET ROLE ${APP_ROLE}`);
  const db = raw as unknown as Database;
  // One query at a time in PGlite: the organizations take turns for it.
  fairSharesByDatabase.set(db, new FairShare({ capacity: 1, maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS }));
  return { db, kind: 'pglite', close: () => client.close(), pglite: client };
}

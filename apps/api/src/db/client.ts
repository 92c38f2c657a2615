import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
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
  /**
   * Whether the database answers now, within READINESS_TIMEOUT_MS (GET /api/ready): PostgreSQL
   * on a connection of its own, so a busy pool does not take the instance out of its load
   * balancer; PGlite in the process. Throws when it does not.
   */
  ping(): Promise<void>;
};

type Logger = { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void; warn?(obj: unknown, msg?: string): void };

/**
 * A query not answered this long after its statement timeout is on a connection that no longer
 * answers (a network that drops packets, a frozen server): the connection is closed, which fails
 * the query (503) and keeps the pool from handing the dead connection out again.
 */
export const SILENT_CONNECTION_MARGIN_MS = 2_000;
/** How long the readiness check waits for PostgreSQL (GET /api/ready). */
export const READINESS_TIMEOUT_MS = 2_000;

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];
type Callback = (error: unknown, result?: unknown) => void;

/**
 * Closes the client's connection when one of its queries gets no answer within `timeoutMs`.
 * node-postgres' own `query_timeout` fails the query but leaves it active on the connection, so
 * a transaction's ROLLBACK queues behind it and the pool later hands the connection out again.
 */
function closeWhenSilent(client: pg.PoolClient, timeoutMs: number) {
  const query = client.query.bind(client) as (...args: QueryArgs) => unknown;
  const watched = (...args: QueryArgs) => {
    const timer = setTimeout(() => (client as unknown as { connection?: { stream: { destroy(): void } } }).connection?.stream.destroy(), timeoutMs);
    timer.unref();
    const done = () => clearTimeout(timer);
    const [config, values, callback] = args;
    const wrap = (cb: Callback): Callback => (error, result) => (done(), cb(error, result));
    if (typeof callback === 'function') return query(config, values, wrap(callback as Callback));
    if (typeof values === 'function') return query(config, wrap(values as Callback));
    const submittable = config as { submit?: unknown; callback?: Callback } | null;
    if (submittable && typeof submittable.submit === 'function' && typeof submittable.callback === 'function') {
      submittable.callback = wrap(submittable.callback);
      return query(config, values);
    }
    const result = query(config, values);
    if (result instanceof Promise) result.then(done, done);
    else done();
    return result;
  };
  client.query = watched as typeof client.query;
}

/** Passed at every open: PGlite does not remember its extensions. */
export const PGLITE_EXTENSIONS = { pg_trgm, unaccent, btree_gin };

/**
 * A pool whose checked-out clients go back by themselves when their connection is lost. Drizzle's
 * transaction sends BEGIN before its try/finally: a BEGIN failing on a dead connection never
 * releases the client, and after a few such losses (a database restart) the pool is full of
 * clients nobody holds — the service would not come back. Here the client's connection error
 * releases it (the pool then drops it), and the caller's own release later does nothing.
 */
class SelfReleasingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): Promise<pg.PoolClient> | void {
    // The callback form is pg.Pool#query's, which releases on error itself.
    if (callback) return super.connect(callback);
    return super.connect().then((client) => {
      const release = client.release.bind(client);
      let released = false;
      const releaseOnce = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        client.removeListener('error', onLost);
        release(error);
      };
      const onLost = (error: Error) => releaseOnce(error);
      client.on('error', onLost);
      client.release = releaseOnce;
      return client;
    });
  }
}

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
  const statementTimeoutMs = options.statementTimeoutMs ?? 15_000;
  const pool = new SelfReleasingPool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeoutMs,
    idle_in_transaction_session_timeout: 30_000,
    // The system notices a peer gone without a word (a NAT or firewall that forgot the connection).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Every session starts as the role that owns nothing (startup option: no extra query).
    options: `-c role=${APP_ROLE}`,
  });
  // Without this handler a PostgreSQL restart crashes the process. An idle connection lost is
  // dropped by the pool and replaced when needed: a warning, not an error.
  // The error's code and message only: pg attaches the whole client (its settings) to it.
  const lost = (err: Error & { code?: string }) => ({ code: err.code, message: err.message });
  pool.on('error', (err) => (options.logger?.warn ?? options.logger?.error)?.call(options.logger, lost(err), 'PostgreSQL idle connection lost'));
  pool.on('connect', (client) => {
    // The pool listens to a client's errors only while it is idle: a connection lost under a
    // transaction or a scoped read would otherwise crash the process. Its query fails (503) and
    // the pool drops it when it is released.
    client.on('error', (err) => (options.logger?.warn ?? options.logger?.error)?.call(options.logger, lost(err), 'PostgreSQL connection lost'));
    closeWhenSilent(client, statementTimeoutMs + SILENT_CONNECTION_MARGIN_MS);
  });
  const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Database;
  const scopedReads = createScopedReadDatabase(pool, schema) as unknown as Database;
  registerScopedReads(db, scopedReads);
  fairSharesByDatabase.set(db, new FairShare({ capacity: max, maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS }));
  // One connection of its own, out of the fair share: a cheap SELECT 1, time-bounded on both sides.
  const readiness = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    connectionTimeoutMillis: READINESS_TIMEOUT_MS,
    idleTimeoutMillis: 60_000,
    statement_timeout: READINESS_TIMEOUT_MS,
    options: `-c role=${APP_ROLE}`,
  });
  readiness.on('error', () => undefined);
  readiness.on('connect', (client) => {
    client.on('error', () => undefined);
    closeWhenSilent(client, READINESS_TIMEOUT_MS);
  });
  return {
    db,
    kind: 'postgres',
    close: async () => {
      await Promise.all([pool.end(), readiness.end()]);
    },
    pool,
    scopedReads,
    ping: async () => {
      await readiness.query('SELECT 1');
    },
  };
}

/**
 * Embedded PGlite: files in dataDir, or a copy of a dumped database (tests). onOpen runs on the
 * superuser session once the database is open, before any migration (db/embedded.ts: checks and the
 * pre-migration backup).
 */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob | File; migrate?: boolean; maxWaitMs?: number; onOpen?: (client: PGlite) => Promise<void> } = {},
): Promise<DatabaseHandle> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: path.resolve(options.dataDir) } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: PGLITE_EXTENSIONS,
  });
  await options.onOpen?.(client);
  const raw = drizzlePglite(client, { schema, casing: 'snake_case' });
  if (options.migrate !== false) {
    await migratePglite(raw, { migrationsFolder: MIGRATIONS_FOLDER });
  }
  // PGlite's only user is a superuser, which bypasses row-level security even with FORCE.
  await client.exec(`SET ROLE ${APP_ROLE}`);
  const db = raw as unknown as Database;
  // One query at a time in PGlite: the organizations take turns for it.
  fairSharesByDatabase.set(db, new FairShare({ capacity: 1, maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS }));
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    pglite: client,
    ping: async () => {
      if (client.closed) throw new Error('PGlite is closed');
    },
  };
}

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
import { observationsOf } from '../platform/metrics/observations.js';
import { DatabaseSilentError } from './availability.js';
import { FairShare } from './fair-share.js';
import { createScopedReadDatabase } from './scoped-reads.js';
import { StatementEvents, timePgClient, timePglite, type StatementTiming } from './statement-timing.js';

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
  /** PostgreSQL only: tells a silent database from a slow query (SilenceWatch), for the other pools on it. */
  silence?: SilenceWatch;
  /** PostgreSQL only: a drizzle database whose queries each carry their scope (db/scoped-reads.ts). */
  scopedReads?: Database;
  /** Every statement's name, duration and organization, for whoever subscribes (db/statement-timing.ts). */
  statements: StatementEvents;
  /**
   * Whether the database answers now, within READINESS_TIMEOUT_MS (GET /api/ready): PostgreSQL
   * on a connection of its own, so a busy pool does not take the instance out of its load
   * balancer; PGlite in the process. Throws when it does not.
   */
  ping(): Promise<void>;
  /** How busy its connections are now (the metrics' gauges, platform/metrics). */
  stats(): DatabaseStats;
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
 * Tells the metrics attached to the database (a no-op without them) each statement's family,
 * duration and whether the statement timeout cancelled it (SQLSTATE 57014, query_canceled): the
 * timings of statement-timing.ts, the one place the driver is timed.
 */
function reportToMetrics(statements: StatementEvents, db: () => Database | undefined) {
  statements.subscribe((timing: StatementTiming) => {
    const database = db();
    if (database) observationsOf(database).statement(timing.family, timing.ms / 1000, timing.code === '57014');
  });
}

/** How long a query or a new connection waits for its answer before the database is probed. */
const PROBE_AFTER_MS = 1_500;
/** How long a probe's verdict serves the queries and connections that ask for one. */
const VERDICT_TTL_MS = 1_000;

/**
 * Tells a silent database (a network that drops every packet, a frozen server) from a slow query
 * within a few seconds, where the statement timeout alone takes 17 s: a query or a new connection
 * still waiting after PROBE_AFTER_MS asks for a probe — `SELECT 1` on the readiness connection,
 * which gives up after READINESS_TIMEOUT_MS. No answer: the query's connection is closed (503
 * at once, the pool drops it), the waiting connection is abandoned, and for VERDICT_TTL_MS new
 * connections are refused at once rather than each waiting its 5 s. An answer: the slow query is
 * only slow, and runs on to its statement timeout — unless it was sent before the database was
 * heard again after a silence: its bytes may have been lost there, it is closed too. One probe at
 * a time, its verdict shared.
 */
export class SilenceWatch {
  private verdict: { answers: boolean; at: number } | undefined;
  private probing: Promise<boolean> | undefined;
  /**
   * Before this instant, what was sent may have gone into the silence (and been lost there): from
   * a silent verdict until the start of the next probe that was answered.
   */
  private trustedFrom = 0;

  constructor(private readonly probe: () => Promise<void>) {}

  /** Whether the database answers: the last verdict while fresh, otherwise a new probe. */
  answers(): Promise<boolean> {
    if (this.verdict && Date.now() - this.verdict.at < VERDICT_TTL_MS) return Promise.resolve(this.verdict.answers);
    const started = Date.now();
    this.probing ??= this.probe().then(
      () => this.settle(true, started),
      () => this.settle(false, started),
    );
    return this.probing;
  }

  /** The database was found silent a moment ago. */
  get knownSilent(): boolean {
    return this.verdict !== undefined && !this.verdict.answers && Date.now() - this.verdict.at < VERDICT_TTL_MS;
  }

  /** Whether something sent at `sentAt` and still unanswered may have been lost in a silence (its connection is not to be trusted). */
  sentBeforeTrust(sentAt: number): boolean {
    return sentAt < this.trustedFrom;
  }

  private settle(answers: boolean, probeStarted: number): boolean {
    if (!answers) this.trustedFrom = Number.POSITIVE_INFINITY;
    else if (this.trustedFrom === Number.POSITIVE_INFINITY) this.trustedFrom = probeStarted;
    this.verdict = { answers, at: Date.now() };
    this.probing = undefined;
    return answers;
  }
}

/**
 * While something sent now waits for its answer: with a watch, a probe every PROBE_AFTER_MS, and
 * `giveUp` once the database is found silent — or was silent since it was sent: its bytes may have
 * been lost there, it may never be answered even once the database is back; and `giveUp` at
 * `timeoutMs` whatever the probes say (finite without a watch). Returns what to call once answered.
 */
function giveUpWhenSilent(watch: SilenceWatch | undefined, giveUp: () => void, timeoutMs = Number.POSITIVE_INFINITY): () => void {
  const started = Date.now();
  let finished = false;
  const tick = () => {
    if (finished) return;
    const left = timeoutMs - (Date.now() - started);
    if (left <= 0 || !watch) return giveUp();
    void watch.answers().then((answers) => {
      if (finished) return;
      if (!answers || watch.sentBeforeTrust(started)) return giveUp();
      timer = setTimeout(tick, Math.min(PROBE_AFTER_MS, timeoutMs - (Date.now() - started))).unref();
    });
  };
  // One timer: it probes every PROBE_AFTER_MS (with a watch), and gives up at timeoutMs.
  let timer = setTimeout(tick, watch ? Math.min(PROBE_AFTER_MS, timeoutMs) : timeoutMs).unref();
  return () => {
    finished = true;
    clearTimeout(timer);
  };
}

/**
 * Closes the client's connection when one of its queries gets no answer within `timeoutMs` — or,
 * with a watch, as soon as the database is found silent while the query waits (SilenceWatch).
 * node-postgres' own `query_timeout` fails the query but leaves it active on the connection, so
 * a transaction's ROLLBACK queues behind it and the pool later hands the connection out again.
 */
function closeWhenSilent(client: pg.PoolClient, timeoutMs: number, watch?: SilenceWatch) {
  const query = client.query.bind(client) as (...args: QueryArgs) => unknown;
  const close = () => (client as unknown as { connection?: { stream: { destroy(): void } } }).connection?.stream.destroy();
  const watched = (...args: QueryArgs) => {
    const done = giveUpWhenSilent(watch, close, timeoutMs);
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

/**
 * Another pool on the same database (the job queue's) guarded as the application's: a query with
 * no answer within `timeoutMs`, or while the watch finds the database silent, closes its connection.
 */
export function closeSilentConnections(pool: pg.Pool, timeoutMs: number, watch: SilenceWatch | undefined): void {
  pool.on('connect', (client) => {
    // Closed under a checked-out client, the connection's error has no other listener: its query
    // fails by itself, the process must not.
    client.on('error', () => undefined);
    closeWhenSilent(client, timeoutMs, watch);
  });
}

/** How busy the database's connections are now (the metrics' gauges). */
export type DatabaseStats = {
  /** The pool's size (PGlite: its one connection). */
  max: number;
  /** Connections open, and those of them idle. */
  open: number;
  idle: number;
  /** Callers waiting for a pooled connection (PGlite: for its one connection, in the fair share). */
  waiting: number;
  /** The fair share (db/fair-share.ts): operations holding a turn, operations waiting for one. */
  turnsRunning: number;
  turnsWaiting: number;
};

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
  /** Told when a caller gave up waiting for a connection (connectionTimeoutMillis): the metrics. */
  onAcquireTimeout: () => void = () => undefined;

  /** Set once the readiness pool exists: new connections to a silent database give up early. */
  watch: SilenceWatch | undefined;

  private noteTimeout(error: unknown) {
    if (error instanceof Error && error.message.includes('timeout exceeded when trying to connect')) this.onAcquireTimeout();
  }

  /**
   * A new connection to a database found silent gives up without waiting its 5 s: at once while
   * the verdict is fresh, or when a probe made while it waits finds no answer. A connection that
   * succeeds after its caller gave up goes back to the pool.
   */
  private connectWatched(): Promise<pg.PoolClient> {
    const watch = this.watch;
    if (watch?.knownSilent) return Promise.reject(new DatabaseSilentError());
    const connecting = super.connect();
    if (!watch) return connecting;
    return new Promise((resolve, reject) => {
      let settled = false;
      const stop = giveUpWhenSilent(watch, () => {
        settled = true;
        reject(new DatabaseSilentError());
      });
      connecting.then(
        (client) => {
          stop();
          if (settled) return client.release();
          settled = true;
          resolve(client);
        },
        (error: unknown) => {
          stop();
          if (settled) return;
          settled = true;
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): Promise<pg.PoolClient> | void {
    // The callback form is pg.Pool#query's, which releases on error itself.
    if (callback) {
      if (this.watch?.knownSilent) {
        process.nextTick(() => callback(new DatabaseSilentError(), undefined, () => undefined));
        return;
      }
      return super.connect((err, client, done) => {
        if (err) this.noteTimeout(err);
        callback(err, client, done);
      });
    }
    return this.connectWatched().then((client) => {
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
    }, (error: unknown) => {
      this.noteTimeout(error);
      throw error;
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
  const statements = new StatementEvents();
  const statementTimeoutMs = options.statementTimeoutMs ?? 15_000;
  // Read at a statement's end, when the pool has connected: the database exists by then.
  reportToMetrics(statements, () => db);
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
    closeWhenSilent(client, statementTimeoutMs + SILENT_CONNECTION_MARGIN_MS, pool.watch);
    timePgClient(client, statements);
  });
  const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Database;
  pool.onAcquireTimeout = () => observationsOf(db).acquireTimedOut('connection');
  const scopedReads = createScopedReadDatabase(pool, schema) as unknown as Database;
  registerScopedReads(db, scopedReads);
  const share = new FairShare({ capacity: max, maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, onTimeout: () => observationsOf(db).acquireTimedOut('turn') });
  fairSharesByDatabase.set(db, share);
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
  pool.watch = new SilenceWatch(async () => {
    await readiness.query('SELECT 1');
  });
  readiness.on('connect', (client) => {
    client.on('error', () => undefined);
    // Out of the metrics: the readiness check is not the application's work.
    closeWhenSilent(client, READINESS_TIMEOUT_MS);
  });
  return {
    db,
    kind: 'postgres',
    close: async () => {
      await Promise.all([pool.end(), readiness.end()]);
    },
    pool,
    silence: pool.watch,
    scopedReads,
    statements,
    ping: async () => {
      await readiness.query('SELECT 1');
    },
    stats: () => ({
      max,
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      turnsRunning: share.running,
      turnsWaiting: share.waiting,
    }),
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
  // Timed from here: the migrations above are no request's work.
  const statements = new StatementEvents();
  timePglite(client, statements);
  const db = raw as unknown as Database;
  reportToMetrics(statements, () => db);
  // One query at a time in PGlite: the organizations take turns for it.
  const share = new FairShare({ capacity: 1, inProcess: true, maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, onTimeout: () => observationsOf(db).acquireTimedOut('turn') });
  fairSharesByDatabase.set(db, share);
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    pglite: client,
    statements,
    ping: async () => {
      if (client.closed) throw new Error('PGlite is closed');
    },
    // Its one connection, busy while an operation holds the fair share's one turn; the queue is the share's.
    stats: () => ({
      max: 1,
      open: client.closed ? 0 : 1,
      idle: client.closed || share.running > 0 ? 0 : 1,
      waiting: share.waiting,
      turnsRunning: share.running,
      turnsWaiting: share.waiting,
    }),
  };
}

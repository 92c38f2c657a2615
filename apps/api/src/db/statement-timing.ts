import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * How long each statement takes, on PostgreSQL and on PGlite alike (decision 046). The driver is
 * wrapped once, where the database is opened (db/client.ts); whoever wants the timings subscribes
 * to the database handle's `statements` (the slow-statement log of plugins/request-log.ts, and
 * any metrics). A timing names the statement by its shape, never by its values: the prepared
 * statement's name when it has one (db/statements.ts), otherwise a short form of its SQL, whose
 * values travel as placeholders and whose quoted literals are blanked.
 */

export type StatementTiming = Readonly<{
  /** The prepared statement's name (`drivers_list_3`), or `<verb> <table> #<hash>` for the others. */
  name: string;
  /**
   * The prepared statement's family (`drivers_list`: its name without the number, which follows
   * the order shapes were first met and so differs between processes), or 'unnamed': the metrics'
   * label (decision 045).
   */
  family: string;
  /** The SQLSTATE of its failure (`57014`: cancelled by the statement timeout), null otherwise. */
  code: string | null;
  /** The SQL with its quoted literals blanked, at most SQL_MAX_LENGTH characters: what an operator reads to find the query. */
  sql: string;
  ms: number;
  /** The organization of the scope it ran in (db/scope.ts), null for the platform's own work. */
  organization: string | null;
  /** The scope's kind: 'tenant', 'system', 'survey-respondent', or null outside any scope (migrations, tests). */
  scope: string | null;
  /** Whether it failed (a statement timeout, a conflict…): a slow failure is slow all the same. */
  failed: boolean;
}>;

export type StatementListener = (timing: StatementTiming) => void;

/**
 * A listener that needs what the statement's sender knew (its request's logger, its trace): pg
 * answers in the context of its connection's socket (the request that opened the connection, long
 * gone), so `capture` runs when the statement is sent — in the sender's async context — and its
 * value reaches the listener with the timing. Capturing only what a listener reads costs a store
 * lookup; a snapshot of the whole async context cost an AsyncResource per statement (≈ 3 % of the
 * server's CPU on a page computed afresh, docs/performance.md).
 */
type Entry = { listener: (timing: StatementTiming, captured: unknown) => void; capture?: () => unknown };

/** What a statement's start captured for each listener that asked (null: none asked). */
type Captured = ReadonlyMap<Entry, unknown> | null;

/** The listeners of one database's statements. */
export class StatementEvents {
  private readonly entries = new Set<Entry>();

  /** Adds a listener; returns what removes it (a closing app stops listening to its database). */
  subscribe(listener: StatementListener): () => void {
    return this.add({ listener });
  }

  /** Adds a listener given, with each timing, what `capture` read when the statement was sent. */
  subscribeFromSender<C>(capture: () => C, listener: (timing: StatementTiming, captured: C) => void): () => void {
    return this.add({ listener: listener as Entry['listener'], capture });
  }

  private add(entry: Entry): () => void {
    this.entries.add(entry);
    return () => this.entries.delete(entry);
  }

  get active(): boolean {
    return this.entries.size > 0;
  }

  /** Run when a statement is sent, in its sender's context. */
  capture(): Captured {
    let captured: Map<Entry, unknown> | null = null;
    for (const entry of this.entries) {
      if (!entry.capture) continue;
      try {
        const value = entry.capture();
        (captured ??= new Map()).set(entry, value);
      } catch {
        // As a listener's failure: the query goes on.
      }
    }
    return captured;
  }

  emit(timing: StatementTiming, captured: Captured = null) {
    for (const entry of this.entries) {
      try {
        entry.listener(timing, captured?.get(entry));
      } catch {
        // A listener's failure (a log stream closed) must not fail the query it observed.
      }
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const scopes = new AsyncLocalStorage<string>();
const families = new AsyncLocalStorage<string>();

/** Runs a prepared statement's execution under its family (db/statements.ts calls it). */
export function runAsFamily<T>(family: string, fn: () => T): T {
  return families.run(family, fn);
}

/**
 * Runs fn, and every statement it sends, under a scope's key: an organization's uuid, 'system' or
 * 'survey-respondent' (db/scope.ts calls it; nothing else should).
 */
export function runInStatementScope<T>(key: string, fn: () => T): T {
  return scopes.run(key, fn);
}

function currentScope(): Pick<StatementTiming, 'organization' | 'scope'> {
  const key = scopes.getStore();
  if (key === undefined) return { organization: null, scope: null };
  return UUID.test(key) ? { organization: key, scope: 'tenant' } : { organization: null, scope: key };
}

/** Names of the prepared statements by their SQL (PGlite's driver never sees the name). */
const namesBySql = new Map<string, string>();

/** db/statements.ts: the SQL behind a name, so that a timing on PGlite finds the name too. */
export function rememberStatementName(sqlText: string, name: string) {
  if (name) namesBySql.set(sqlText, name);
}

export const SQL_MAX_LENGTH = 300;
const shortForms = new Map<string, { name: string; sql: string }>();
/** Past this many distinct texts the short forms are computed again each time rather than kept. */
const MAX_SHORT_FORMS = 2_000;

/**
 * A statement's shape: its name, or its verb and first table plus a hash of the whole SQL (two
 * shapes of a query on one table stay apart), and the SQL itself with every quoted literal
 * replaced by '?' — a literal written into SQL by hand is the one place a value could hide.
 */
export function statementShape(text: string, name?: string): { name: string; sql: string } {
  // Keyed by name when there is one: a name never changes its SQL (db/statements.ts).
  const key = name ? `\0${name}` : text;
  const known = shortForms.get(key);
  if (known) return known;
  const sql = text
    .replace(/'(?:[^']|'')*'/g, "'?'")
    .replace(/\s+/g, ' ')
    .trim();
  const shortSql = sql.length > SQL_MAX_LENGTH ? `${sql.slice(0, SQL_MAX_LENGTH - 1)}…` : sql;
  const shape = { name: name || namesBySql.get(text) || derivedName(sql), sql: shortSql };
  if (shortForms.size < MAX_SHORT_FORMS) shortForms.set(key, shape);
  return shape;
}

function derivedName(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? 'sql';
  // BEGIN, COMMIT, ROLLBACK, SAVEPOINT…: their word is their whole shape.
  if (!/^(select|insert|update|delete|with)$/.test(verb)) return verb;
  const table = /\b(?:from|into|update)\s+"?([A-Za-z_][\w]*)"?/i.exec(sql)?.[1]?.toLowerCase();
  const hash = createHash('sha1').update(sql).digest('hex').slice(0, 8);
  return table ? `${verb} ${table} #${hash}` : `${verb} #${hash}`;
}

/**
 * What a statement's start knows and its end needs: when it started, its scope, and what the
 * listeners that asked captured in the sender's context (StatementEvents.subscribeFromSender).
 */
function startTiming(events: StatementEvents, text: string, name: string | undefined) {
  const started = performance.now();
  const scope = currentScope();
  const family = families.getStore() ?? 'unnamed';
  const captured = events.capture();
  /** Called with the error when the statement failed. */
  return (...failure: [] | [unknown]) => {
    const ms = performance.now() - started;
    const failed = failure.length > 0;
    const code = failed ? sqlState(failure[0]) : null;
    events.emit({ ...statementShape(text, name), family, ms, failed, code, ...scope }, captured);
  };
}

function sqlState(error: unknown): string | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : null;
}

/** How a timed pg query is sent: as it is, or inside what tracing asks for (platform/tracing). */
let sendStatement: (<T>(send: () => T) => T) | null = null;

/**
 * Tracing draws each statement's span from its timing, and wraps the driver's own call so that
 * the pg instrumentation does not draw it a second time (platform/tracing/tracing.ts). null: as is.
 */
export function setStatementCall(wrap: (<T>(send: () => T) => T) | null) {
  sendStatement = wrap;
}

type QueryArgs = [config: unknown, values?: unknown, callback?: unknown];
type Callback = (error: unknown, result?: unknown) => void;

/** The SQL and name of what a pg client is asked to run: a string, a config, or a Query (db/scoped-reads.ts). */
function pgStatement(config: unknown): { text: string; name?: string } | null {
  if (typeof config === 'string') return { text: config };
  const query = config as { text?: unknown; name?: unknown } | null;
  if (query && typeof query.text === 'string') return { text: query.text, name: typeof query.name === 'string' ? query.name : undefined };
  return null;
}

/**
 * Times every query of a node-postgres client (each pooled connection, when it connects): the
 * three ways pg takes a query — a callback, a Query with its own callback, a promise.
 */
export function timePgClient(client: pg.PoolClient | pg.Client, events: StatementEvents) {
  const bound = client.query.bind(client) as (...args: QueryArgs) => unknown;
  const query = (...args: QueryArgs) => (sendStatement ? sendStatement(() => bound(...args)) : bound(...args));
  const timed = (...args: QueryArgs) => {
    const statement = events.active ? pgStatement(args[0]) : null;
    if (!statement) return query(...args);
    const done = startTiming(events, statement.text, statement.name);
    const [config, values, callback] = args;
    const wrap = (cb: Callback): Callback => (error, result) => (error ? done(error) : done(), cb(error, result));
    if (typeof callback === 'function') return query(config, values, wrap(callback as Callback));
    if (typeof values === 'function') return query(config, wrap(values as Callback));
    const submittable = config as { submit?: unknown; callback?: Callback } | null;
    if (submittable && typeof submittable.submit === 'function') {
      if (typeof submittable.callback === 'function') submittable.callback = wrap(submittable.callback);
      return query(config, values);
    }
    const result = query(config, values);
    if (result instanceof Promise) result.then(() => done(), (error: unknown) => done(error));
    return result;
  };
  client.query = timed as typeof client.query;
}

/**
 * A PGlite method whose first argument is the SQL (`query`, `exec`), timed: PGlite runs one
 * statement at a time, so its duration is its own.
 */
function timedPglite<F extends (text: string, ...rest: never[]) => Promise<unknown>>(run: F, events: StatementEvents): F {
  return (async (text: string, ...rest: never[]) => {
    if (!events.active) return run(text, ...rest);
    const done = startTiming(events, text, undefined);
    try {
      const result = await run(text, ...rest);
      done();
      return result;
    } catch (error) {
      done(error);
      throw error;
    }
  }) as F;
}

/**
 * Times PGlite's queries and scripts: its own and its transactions' (Drizzle runs a transaction's
 * statements on the object PGlite hands to the callback, which does not go through `query`).
 * PGlite runs one at a time, so a statement's duration is its own.
 */
export function timePglite(client: PGlite, events: StatementEvents) {
  client.query = timedPglite(client.query.bind(client), events);
  client.exec = timedPglite(client.exec.bind(client), events);
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const timedTx = Object.create(tx) as Transaction;
      timedTx.query = timedPglite(tx.query.bind(tx), events);
      timedTx.exec = timedPglite(tx.exec.bind(tx), events);
      return callback(timedTx);
    })) as PGlite['transaction'];
}

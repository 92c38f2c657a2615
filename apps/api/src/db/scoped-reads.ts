import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { serialize } from 'pg-protocol';

/**
 * Reads in one round trip, each carrying its own tenant scope (docs/decisions/006-pipelined-prepared-list-reads.md).
 *
 * A read is sent as ONE pipelined series of extended-protocol messages closed by a single Sync:
 *
 *   Parse/Bind/Execute  SELECT set_config('role', $1, true), set_config('app.org_id', $2, true), …
 *   [Parse] Bind/Execute  the query, with its values as bind parameters
 *   Sync
 *
 * PostgreSQL runs everything before a Sync as one implicit transaction, so the transaction-local
 * scope covers exactly that query and is gone afterwards, as in withTenant. A read sends one
 * statement this way; a read of several statements runs in a snapshot instead (db/scope.ts). Values travel as bind
 * parameters (nothing is inlined into the SQL), and a query that has a name (Drizzle's
 * `.prepare(name)`) is parsed once per connection: PostgreSQL then reuses its plan.
 */

export type ReadScope = { role: 'flotte_app'; organizationUuid: string } | { role: 'flotte_system' };

/**
 * A read in progress: its scope, whether it already sent its one statement, and what its first
 * statement taught the pool about the reads that begin with it (`learned`, below).
 */
type ReadState = {
  scope: ReadScope;
  sent: boolean;
  secondStatement: boolean;
  /** The first statement's name (or SQL) and the pool's memory of reads that begin with it. */
  first?: { key: string; learned: SeveralStatementReads };
  /** Sent straight to the snapshot, on the pool's memory, without trying one statement. */
  skipped?: boolean;
};

/**
 * Reads that went on to a second statement, by their first statement (a list and then its
 * documents): the next ones that begin with it go straight to a snapshot instead of running their
 * first statement twice. Each entry counts the reads still sent there; at 0 one is tried as a
 * single statement again, and one that is done with a single statement forgets its entry, so a
 * first statement that only sometimes leads to a second costs at most one read in SEVERAL_SKIPS + 1.
 */
type SeveralStatementReads = Map<string, number>;
export const SEVERAL_SKIPS = 16;
/** Past this many first statements remembered, new ones are not (the shapes a pool meets are few). */
const MAX_SEVERAL_STATEMENT_READS = 1_000;
const reads = new AsyncLocalStorage<ReadState>();

/** Thrown at a read's second statement: the read runs again as a snapshot (db/scope.ts). */
class SecondStatement extends Error {
  constructor() {
    super('a scoped read sends one statement; this read runs again in a snapshot');
  }
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// transaction_read_only: a read cannot write, whatever its SQL says.
const SCOPE_SQL =
  "SELECT set_config('role', $1, true), set_config('app.org_id', $2, true), set_config('plan_cache_mode', coalesce($3, current_setting('plan_cache_mode')), true), set_config('transaction_read_only', 'on', true)";

/**
 * Named statements kept per connection, least recently used first out (a Close message in the
 * next pipeline): a claims-list statement holds ≈ 300 kB of PostgreSQL memory with its plan, and
 * the filters a user can combine make many shapes.
 */
export const MAX_STATEMENTS_PER_CONNECTION = 24;
const namedByConnection = new WeakMap<object, Map<string, true>>();

// node-postgres' own conversion of JS values to protocol text (arrays, dates, buffers, JSON).
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => string | Buffer | null };

function scopeValues(scope: ReadScope): [string, string] {
  if (scope.role === 'flotte_system') return ['flotte_system', ''];
  if (!UUID.test(scope.organizationUuid)) throw new Error('invalid organization uuid');
  return ['flotte_app', scope.organizationUuid];
}

/** The parts of node-postgres' connection a query uses: its socket and its statement bookkeeping. */
type Connection = {
  stream: { writable: boolean; write(buffer: Buffer): boolean };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
};

type QueryConfig = { text: string; name?: string; rowMode?: 'array'; types?: pg.CustomTypesConfig };
type Callback = (error: Error | null, results?: pg.QueryResult | pg.QueryResult[]) => void;

/**
 * A node-postgres Query whose submit() writes the scope statement and the query in one pipeline.
 * Everything else (result parsing, rowMode, type parsers, errors, ReadyForQuery) is pg.Query's:
 * the two statements come back as two results, like a multi-statement simple query.
 */
class ScopedQuery extends (pg.Query as unknown as new (config: QueryConfig & { callback: Callback }) => object) {
  constructor(
    private readonly statement: QueryConfig,
    private readonly parameters: readonly unknown[],
    private readonly scopeParameters: [string, string],
    callback: Callback,
  ) {
    super({ ...statement, callback });
  }

  /** Called by the client when the connection is free; an Error returned fails this query alone. */
  submit(connection: Connection): Error | null {
    const { text, name } = this.statement;
    if (!connection.stream.writable) return new Error('connection closed');
    if (name) {
      const known = connection.parsedStatements[name] ?? connection.submittedNamedStatements[name];
      if (known !== undefined && known !== text) return new Error(`prepared statement '${name}' already names another query`);
    }
    let values: unknown[];
    try {
      // Converted before anything is written: a value that cannot be sent fails alone.
      values = this.parameters.map((value) => prepareValue(value));
    } catch (error) {
      return error as Error;
    }
    // A named query is parsed first, so the connection's first ParseComplete is its own.
    const parseNamed = Boolean(name) && connection.parsedStatements[name!] === undefined && connection.submittedNamedStatements[name!] === undefined;
    const closing = name ? this.useNamed(connection, name, parseNamed) : [];
    const messages = [
      ...closing.map((old) => serialize.close({ type: 'S', name: old })),
      ...(parseNamed ? [serialize.parse({ text, name, types: [] })] : []),
      serialize.parse({ text: SCOPE_SQL, name: '', types: [] }),
      // A named statement is one of a few list shapes built for reuse (db/statements.ts): its
      // generic plan is what it is for, so PostgreSQL skips the five custom plans it would try first.
      serialize.bind({ portal: '', statement: '', values: [...this.scopeParameters, name ? 'force_generic_plan' : null] }),
      serialize.describe({ type: 'P', name: '' }),
      serialize.execute({ portal: '', rows: 0 }),
      ...(name ? [] : [serialize.parse({ text, name: '', types: [] })]),
      serialize.bind({ portal: '', statement: name ?? '', values }),
      serialize.describe({ type: 'P', name: '' }),
      serialize.execute({ portal: '', rows: 0 }),
      serialize.sync(),
    ];
    if (parseNamed) connection.submittedNamedStatements[name!] = text;
    // One write for the whole pipeline (each socket write is a system call and a loopback trip).
    connection.stream.write(Buffer.concat(messages));
    return null;
  }

  /** Marks `name` as just used on the connection; returns the statements to close to make room. */
  private useNamed(connection: Connection, name: string, parsing: boolean): string[] {
    let named = namedByConnection.get(connection);
    if (!named) {
      named = new Map();
      namedByConnection.set(connection, named);
    }
    named.delete(name);
    named.set(name, true);
    const closing: string[] = [];
    if (!parsing) return closing;
    for (const old of named.keys()) {
      if (named.size <= MAX_STATEMENTS_PER_CONNECTION) break;
      if (old === name) continue;
      named.delete(old);
      delete connection.parsedStatements[old];
      closing.push(old);
    }
    return closing;
  }
}

/** A drizzle client over the pool whose every query carries the scope of the current read. */
export function createScopedReadDatabase<TSchema extends Record<string, unknown>>(pool: pg.Pool, schema: TSchema) {
  const learned: SeveralStatementReads = new Map();
  const client = {
    async query(config: QueryConfig | string, values?: unknown[]) {
      const state = reads.getStore();
      // Outside tryOneStatementRead nothing is sent: no scope, no query.
      if (!state) throw new Error('scoped read outside of a scope');
      // Each statement here is its own transaction: a second one could see other data than the first.
      if (state.sent) {
        state.secondStatement = true;
        throw new SecondStatement();
      }
      const query = typeof config === 'string' ? { text: config } : config;
      const key = query.name ?? query.text;
      const skips = learned.get(key) ?? 0;
      if (skips > 0) {
        // Reads that begin so went on to a second statement: straight to the snapshot.
        learned.set(key, skips - 1);
        state.secondStatement = true;
        state.skipped = true;
        throw new SecondStatement();
      }
      state.sent = true;
      state.first = { key, learned };
      const scoped = scopeValues(state.scope);
      const connection = await pool.connect();
      try {
        const results = await new Promise<pg.QueryResult | pg.QueryResult[]>((resolve, reject) => {
          connection.query(new ScopedQuery(query, values ?? [], scoped, (error, res) => (error ? reject(error) : resolve(res!))) as unknown as pg.QueryConfig);
        });
        connection.release();
        return Array.isArray(results) ? results[results.length - 1] : results;
      } catch (error) {
        // As pg.Pool#query does: a connection that saw an error is closed, never reused.
        connection.release(error as Error);
        throw error;
      }
    },
  };
  const database = drizzle(client as unknown as pg.Pool, { schema, casing: 'snake_case' });
  // Each query is its own transaction here: a BEGIN would open one on whichever pooled connection
  // answered it, and leave it there.
  database.transaction = () => {
    throw new Error('no transaction in a scoped read: use withTenant / withSystem');
  };
  return database;
}

/**
 * Runs a read whose queries go through the database of createScopedReadDatabase. When it sends
 * one statement, its result; when it tries a second one (which could see other data than the
 * first), `done: false` (even if fn caught the error): the caller runs it again in a snapshot.
 */
export async function tryOneStatementRead<T>(scope: ReadScope, fn: () => PromiseLike<T>): Promise<{ done: true; value: T } | { done: false }> {
  const state: ReadState = { scope, sent: false, secondStatement: false };
  try {
    // Awaited inside the scope: a drizzle builder is a lazy thenable that would otherwise run
    // (and look for its scope) only after run() has returned.
    const value = await reads.run(state, async () => await fn());
    if (state.secondStatement) return notDone(state);
    state.first?.learned.delete(state.first.key);
    return { done: true, value };
  } catch (error) {
    if (state.secondStatement) return notDone(state);
    throw error;
  }
}

/** A read that needs a snapshot: its first statement is remembered (SeveralStatementReads). */
function notDone(state: ReadState): { done: false } {
  const first = state.first;
  if (first && !state.skipped && (first.learned.has(first.key) || first.learned.size < MAX_SEVERAL_STATEMENT_READS)) {
    first.learned.set(first.key, SEVERAL_SKIPS);
  }
  return { done: false };
}

/** One statement in a read scope (tests and tools); a second statement fails instead of running. */
export async function runScopedRead<T>(scope: ReadScope, fn: () => PromiseLike<T>): Promise<T> {
  const attempt = await tryOneStatementRead(scope, fn);
  if (!attempt.done) throw new Error('runScopedRead sends one statement: use readTenant for several');
  return attempt.value;
}

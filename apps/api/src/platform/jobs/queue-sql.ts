import { createRequire } from 'node:module';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { APP_ROLE, closeSilentConnections, type Database, fairShareOf, SILENT_CONNECTION_MARGIN_MS, type SilenceWatch } from '../../db/client.js';
import type { WriteTx } from '../../db/scope.js';

/**
 * How pg-boss reaches the database (its `db` option: `executeSql(text, values)`). The queue's
 * statements always run as the connection's login role, the owner of the `pgboss` schema; the
 * tenant and system roles have no access to it (decision 021).
 *
 * - PostgreSQL: a small pool of its own, without the app pool's `role=flotte_app`.
 * - PGlite: the one embedded connection, each statement in its own short transaction that runs
 *   `SET LOCAL ROLE NONE` first. PGlite's transaction lock keeps it from ever running inside an app
 *   transaction, and the statement takes its turn in the fair share like an organization ('jobs').
 * - Inside a caller's write transaction (send with `tx`): the statements run on that transaction's
 *   connection, the role switched to the login role for them and back (sendInTransaction).
 */

export type Rows = { rows: Record<string, unknown>[] };
export type QueueSql = { executeSql(text: string, values?: unknown[]): Promise<Rows> };

type Logger = { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };

const require = createRequire(import.meta.url);
// pg-boss's own statement texts (pg-boss 10.4.2, pinned): completing and failing jobs, which its
// worker sends without awaiting them.
const plans = require('pg-boss/src/plans.js') as { completeJobs(schema: string): string; failJobsById(schema: string): string };

export const QUEUE_SCHEMA = 'pgboss';
const UNAWAITED = new Set([plans.completeJobs(QUEUE_SCHEMA), plans.failJobsById(QUEUE_SCHEMA)]);

/** pg-boss's maintenance and migration scripts: `BEGIN; …; COMMIT;` without parameters. */
const SCRIPT = /^\s*BEGIN;([\s\S]*);\s*COMMIT;\s*$/;

/**
 * What every adapter shares: the statements in flight (stop waits for them), whether the last one
 * succeeded (readiness), and the completions pg-boss does not await, which must never reject — a
 * rejection nobody handles would stop the process. A completion that fails leaves its job active:
 * it expires and is retried (at least once, never lost).
 */
export abstract class TrackedQueueSql implements QueueSql {
  private readonly inFlight = new Set<Promise<unknown>>();
  private healthy = true;
  private closed = false;

  constructor(protected readonly logger: Logger) {}

  protected abstract run(text: string, values: unknown[] | undefined): Promise<Rows>;
  protected abstract release(): Promise<void>;

  get isHealthy(): boolean {
    return this.healthy && !this.closed;
  }

  executeSql(text: string, values?: unknown[]): Promise<Rows> {
    const statement = (async () => {
      if (this.closed) throw new Error('job queue closed');
      try {
        const result = await this.run(text, values);
        this.healthy = true;
        return result;
      } catch (error) {
        this.healthy = false;
        throw error;
      }
    })();
    const settled = statement.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    if (!UNAWAITED.has(text)) return statement;
    return statement.catch((error: unknown) => {
      this.logger.error({ err: error }, "fin d'une tâche non enregistrée : elle sera reprise à son expiration");
      return { rows: [{ count: '0' }] };
    });
  }

  /** Waits for the statements in flight, and those they lead to, then refuses new ones. */
  async close(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.all(this.inFlight);
      // A fetch that just returned may lead to a completion on the next turns of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.closed = true;
    await this.release();
  }
}

const QUEUE_STATEMENT_TIMEOUT_MS = 30_000;

/** PostgreSQL: the queue's own pool, as the login role (the owner), not flotte_app. */
export class PostgresQueueSql extends TrackedQueueSql {
  private readonly pool: pg.Pool;

  constructor(connectionString: string, logger: Logger, options: { max?: number; silence?: SilenceWatch } = {}) {
    super(logger);
    this.pool = new pg.Pool({
      connectionString,
      max: options.max ?? 3,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: QUEUE_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: 30_000,
      application_name: 'flotte-jobs',
    });
    // Without this handler a PostgreSQL restart crashes the process. A lost idle connection is
    // expected when the database restarts or the network cuts (the pool opens another): a warning
    // with the error's code, not the client object pg attaches to it.
    this.pool.on('error', (err: Error & { code?: string }) => logger.warn({ code: err.code, message: err.message }, 'PostgreSQL (file de tâches) : connexion perdue'));
    // A statement sent into a silent network would wait forever (the server's timeout cannot
    // reach it) and keep the queue, and /api/ready, unhealthy after the database is back.
    closeSilentConnections(this.pool, QUEUE_STATEMENT_TIMEOUT_MS + SILENT_CONNECTION_MARGIN_MS, options.silence);
  }

  protected async run(text: string, values: unknown[] | undefined): Promise<Rows> {
    if (!SCRIPT.test(text)) return this.pool.query(text, values);
    // A script that fails half-way leaves its transaction open: roll it back before the
    // connection returns to the pool.
    const client = await this.pool.connect();
    try {
      const results = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
      return Array.isArray(results) ? (results.at(-1) ?? { rows: [] }) : results;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  protected release(): Promise<void> {
    return this.pool.end();
  }
}

/** PGlite: the embedded connection, one short owner transaction per statement. */
export class PgliteQueueSql extends TrackedQueueSql {
  constructor(
    private readonly client: PGlite,
    private readonly db: Database,
    logger: Logger,
  ) {
    super(logger);
  }

  protected run(text: string, values: unknown[] | undefined): Promise<Rows> {
    const statement = () =>
      this.client.transaction(async (tx) => {
        // The session runs as flotte_app; the queue's tables belong to the login role.
        await tx.exec('SET LOCAL ROLE NONE');
        const script = SCRIPT.exec(text);
        if (script) {
          // Already in a transaction: run the script's body, PGlite commits or rolls back.
          const results = await tx.exec(`${script[1]};`);
          return (results.at(-1) ?? { rows: [] }) as Rows;
        }
        return (await tx.query(text, values)) as Rows;
      });
    const share = fairShareOf(this.db);
    return share ? share.run('jobs', statement) : statement();
  }

  protected async release(): Promise<void> {
    // The connection belongs to the database handle, which closes it.
  }
}

type RawClient = { query(text: string, values?: unknown[]): Promise<Rows> };

/** The connection under a Drizzle transaction (node-postgres PoolClient or PGlite Transaction). */
function clientOf(tx: WriteTx): RawClient {
  const client = (tx as unknown as { session?: { client?: Partial<RawClient> } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('send({ tx }): tx is not a write transaction of withTenant/withSystem');
  return client as RawClient;
}

export class JobScopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobScopeError';
  }
}

/**
 * Runs pg-boss's insert on the caller's transaction: committed with it, gone with its rollback.
 * A tenant transaction only queues tenant jobs of its own organization (`organizationUuid` of the
 * payload), as a tenant request only writes its own rows; platform jobs check access themselves.
 */
export async function sendInTransaction<T>(tx: WriteTx, organizationUuid: string | undefined, insert: (sql: QueueSql) => Promise<T>): Promise<T> {
  const client = clientOf(tx);
  const { rows } = await client.query(`SELECT current_setting('role') AS role, coalesce(current_setting('app.org_id', true), '') AS org`);
  const scope = rows[0] as { role: string; org: string };
  if (scope.role === APP_ROLE && organizationUuid !== undefined && organizationUuid !== scope.org) {
    throw new JobScopeError(`a transaction of organization ${scope.org || '(none)'} cannot queue a job for ${organizationUuid ?? 'the platform'}`);
  }
  await client.query(`SELECT set_config('role', 'none', true)`);
  const result = await insert({ executeSql: (text, values) => client.query(text, values) });
  // Only on success: after a failed statement the transaction is aborted and rolls back anyway.
  await client.query(`SELECT set_config('role', $1, true)`, [scope.role]);
  return result;
}

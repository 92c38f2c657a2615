import { AsyncLocalStorage } from 'node:async_hooks';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

/**
 * Reads in one round trip (docs/decisions/005-single-message-scoped-reads.md).
 *
 * A list request used to cost BEGIN, set_config, its queries and COMMIT: five round trips to
 * PostgreSQL, which bounded throughput. Here each query travels in ONE simple-protocol message,
 * `SELECT set_config('role', …, true), set_config('app.org_id', …, true); <query>`: PostgreSQL runs
 * a multi-statement message as one implicit transaction, so the transaction-local scope covers
 * the query and vanishes with it, exactly as in withTenant. The simple protocol has no bind
 * parameters, so values are inlined with node-postgres' escapeLiteral.
 */

export type ReadScope = { role: 'flotte_app'; organizationUuid: string } | { role: 'flotte_system' };

const scopes = new AsyncLocalStorage<ReadScope>();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value as a SQL literal; numbers in parentheses so that `- $1` can never become a comment. */
export function toLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('non-finite number parameter');
    return `(${value})`;
  }
  if (typeof value === 'bigint') return `(${value.toString()})`;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  throw new Error(`unsupported parameter type for an inlined read: ${typeof value}`);
}

export function inlineParams(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, index: string) => {
    const position = Number(index) - 1;
    if (position < 0 || position >= params.length) throw new Error(`missing parameter $${index}`);
    return toLiteral(params[position]);
  });
}

function scopePrefix(scope: ReadScope): string {
  if (scope.role === 'flotte_system') return "SELECT set_config('role', 'flotte_system', true);";
  if (!UUID.test(scope.organizationUuid)) throw new Error('invalid organization uuid');
  return `SELECT set_config('role', 'flotte_app', true), set_config('app.org_id', '${scope.organizationUuid}', true);`;
}

type QueryConfig = { text: string; rowMode?: 'array'; types?: pg.CustomTypesConfig; name?: string };

/** A drizzle client over the pool whose every query carries the scope of the current read. */
export function createScopedReadDatabase<TSchema extends Record<string, unknown>>(pool: pg.Pool, schema: TSchema) {
  const client = {
    async query(config: QueryConfig | string, values?: unknown[]) {
      const scope = scopes.getStore();
      // Outside runScopedRead nothing is sent: no scope, no query.
      if (!scope) throw new Error('scoped read outside of a scope');
      const query = typeof config === 'string' ? { text: config } : config;
      const text = `${scopePrefix(scope)}\n${inlineParams(query.text, values ?? [])}`;
      const results = (await pool.query({ text, types: query.types, ...(query.rowMode ? { rowMode: query.rowMode } : {}) } as pg.QueryConfig)) as unknown as
        | pg.QueryResult
        | pg.QueryResult[];
      return Array.isArray(results) ? results[results.length - 1] : results;
    },
  };
  return drizzle(client as unknown as pg.Pool, { schema, casing: 'snake_case' });
}

export function runScopedRead<T>(scope: ReadScope, fn: () => PromiseLike<T>): Promise<T> {
  // Awaited inside the scope: a drizzle builder is a lazy thenable that would otherwise run
  // (and look for its scope) only after run() has returned.
  return scopes.run(scope, async () => await fn());
}

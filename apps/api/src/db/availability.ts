import { OverloadedError } from './fair-share.js';

/**
 * Why the database could not serve a request, when that is what an error says (decisions 011 and
 * 020). Both answer 503 with Retry-After, never 500:
 * - `overloaded`: the database is there but saturated — no turn of the fair share in time, no
 *   pooled connection in time, a statement cancelled by its timeout (57014);
 * - `unavailable`: the database cannot be reached — refused or reset connection, a connection
 *   ended under a query (server stopped or restarted, network cut, the watchdog of a connection
 *   that stopped answering), the server shutting down or not accepting connections yet.
 * Drizzle wraps the driver's error in `cause`; Node wraps the attempts on several addresses in an
 * AggregateError (`errors`).
 */
export type DatabaseTrouble = { kind: 'overloaded' | 'unavailable'; reason: string };

/** A service the request needs besides PostgreSQL (Redis, for the shared limits) did not answer. */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: string,
    cause: unknown,
  ) {
    super(`${dependency} unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DependencyUnavailableError';
  }
}

/**
 * PostgreSQL did not answer a probe on a connection of its own while a query or a new connection
 * waited (db/client.ts SilenceWatch): a network that drops everything, a frozen server.
 */
export class DatabaseSilentError extends Error {
  constructor() {
    super('database silent: no answer to a probe');
    this.name = 'DatabaseSilentError';
  }
}

/** Socket errors of a connection that cannot be made or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * SQLSTATEs of a server that cannot serve: class 08 (connection exception), 57P01–57P03
 * (shutting down, crashed, not accepting connections yet), 53300 (too many connections).
 */
function unavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** Messages of node-postgres (and of db/scoped-reads.ts) for a connection that is gone. */
const LOST_CONNECTION = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'connection closed',
];

export function databaseTroubleOf(error: unknown): DatabaseTrouble | null {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 20) {
    const current = pending.shift();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (current instanceof OverloadedError) return { kind: 'overloaded', reason: 'no database turn in time' };
    if (current instanceof DependencyUnavailableError) return { kind: 'unavailable', reason: current.message };
    if (current instanceof DatabaseSilentError) return { kind: 'unavailable', reason: 'database silent' };
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (code === '57014') return { kind: 'overloaded', reason: 'statement timeout' };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && unavailableSqlState(code)))) {
      return { kind: 'unavailable', reason: `unreachable (${code})` };
    }
    if (typeof message === 'string') {
      if (message.includes('timeout exceeded when trying to connect')) return { kind: 'overloaded', reason: 'no pooled connection in time' };
      if (LOST_CONNECTION.some((text) => message.startsWith(text))) return { kind: 'unavailable', reason: `database connection lost (${message})` };
    }
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...(errors as unknown[]));
  }
  return null;
}

import { sql } from 'drizzle-orm';
import { APP_ROLE, type Database, scopedReadsOf, SYSTEM_ROLE } from './client.js';
import { runScopedRead } from './scoped-reads.js';

/** What repositories run on: a transaction, or the single-message read database. */
export type Tx = Database;

/**
 * Runs fn in a transaction scoped to one organization: row-level security then hides every
 * other organization's rows, even from a query that forgets its WHERE.
 */
export function withTenant<T>(db: Database, organizationUuid: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT set_config('role', ${APP_ROLE}, true), set_config('app.org_id', ${organizationUuid}, true)`,
    );
    return fn(tx);
  });
}

/**
 * Runs fn across organizations: login, the organization directory, role checks. Only services
 * that check access themselves use it; feature data (drivers, vehicles, claims…) never does.
 */
export function withSystem<T>(db: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('role', ${SYSTEM_ROLE}, true)`);
    return fn(tx);
  });
}

/**
 * Read-only work for one organization: on PostgreSQL each query is one round trip carrying its
 * own scope (db/scoped-reads.ts, decision 005); on PGlite a withTenant transaction. Queries are
 * independent (no snapshot shared between them): use withTenant when they must agree.
 */
export function readTenant<T>(db: Database, organizationUuid: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const reads = scopedReadsOf(db);
  if (!reads) return withTenant(db, organizationUuid, fn);
  return runScopedRead({ role: 'flotte_app', organizationUuid }, () => fn(reads));
}

/** Read-only work across organizations, one round trip per query on PostgreSQL. */
export function readSystem<T>(db: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const reads = scopedReadsOf(db);
  if (!reads) return withSystem(db, fn);
  return runScopedRead({ role: 'flotte_system' }, () => fn(reads));
}

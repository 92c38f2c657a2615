import { sql } from 'drizzle-orm';
import { APP_ROLE, type Database, SYSTEM_ROLE } from './client.js';

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

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

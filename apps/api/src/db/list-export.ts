import { sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { exportStatement, type List, type ListQuery } from './list-kit.js';
import { streamTenant } from './scope.js';

/** Rows fetched from the cursor at a time: what an export holds in memory, whatever the register's size. */
export const EXPORT_BATCH = 1_000;

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void };

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Handled where it is awaited; a failure nobody waits for yet must not count as unhandled.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * Every row of a list's query (its filters, search and sort; page and limit aside), batch after
 * batch, read through a cursor in one read-only snapshot of the organization (row-level security
 * applies as to any read). A batch is fetched only when the caller asks for the next one, so a slow
 * client slows the reading instead of filling the memory. The transaction ends with the iteration:
 * read to the end, failed, or abandoned (the client went away: `return()` on the iterator).
 */
export async function* listRows<Q extends ListQuery, Row>(
  db: Database,
  organizationUuid: string,
  list: List<Q, Row>,
  query: Q,
  batchSize: number = EXPORT_BATCH,
): AsyncGenerator<Row[], void, undefined> {
  // The reader and the caller hand each other turns: the caller asks (true) or stops (false), the
  // reader answers a batch, or null once the cursor is exhausted.
  let demand = deferred<boolean>();
  let batch = deferred<Row[] | null>();
  const reading = streamTenant(db, organizationUuid, async (tx) => {
    const { statement, decode } = exportStatement(tx, list, organizationUuid, query);
    await tx.execute(sql`declare list_export no scroll cursor for ${statement}`);
    for (;;) {
      if (!(await demand.promise)) return;
      demand = deferred();
      const result = (await tx.execute(sql.raw(`fetch forward ${batchSize} from list_export`))) as unknown as { rows: Record<string, unknown>[] };
      const answered = batch;
      batch = deferred();
      if (result.rows.length === 0) {
        answered.resolve(null);
        return;
      }
      answered.resolve(result.rows.map((raw) => decode(raw) as Row));
      if (result.rows.length < batchSize) return;
    }
  });
  // Whatever batch is awaited when the reading ends: the end (null) or its failure.
  reading.then(
    () => batch.resolve(null),
    (error: unknown) => batch.reject(error),
  );
  try {
    for (;;) {
      const next = batch.promise;
      demand.resolve(true);
      const rows = await next;
      if (!rows) return;
      yield rows;
    }
  } finally {
    demand.resolve(false);
    // The transaction is over (committed, or rolled back on a failure already thrown) before the caller goes on.
    await reading.catch(() => {});
  }
}

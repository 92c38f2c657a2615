import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from './client.js';
import { exportStatement, type List, type ListQuery } from './list-kit.js';
import { type ReadTx, streamTenant } from './scope.js';

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

/** One batch of `snapshotBatches`: rows of the statement at `index`; `last` on its final batch (which may be empty). */
export type SnapshotBatch = { index: number; rows: Record<string, unknown>[]; last: boolean };

/**
 * The rows of several statements, one statement after the other, batch after batch, each read
 * through a cursor in one read-only snapshot of the organization (row-level security applies as
 * to any read): what an export holds in memory is one batch, whatever the organization's size.
 * `statements` builds them in the snapshot's transaction. A batch is fetched only when the caller
 * asks for the next one, so a slow client slows the reading instead of filling the memory. Every
 * statement yields at least its `last` batch. The transaction ends with the iteration: read to
 * the end, failed, or abandoned (the client went away: `return()` on the iterator).
 */
export async function* snapshotBatches(
  db: Database,
  organizationUuid: string,
  statements: (tx: ReadTx) => readonly SQLWrapper[],
  batchSize: number = EXPORT_BATCH,
): AsyncGenerator<SnapshotBatch, void, undefined> {
  // The reader and the caller hand each other turns: the caller asks (true) or stops (false), the
  // reader answers a batch, or null once every statement is read.
  let demand = deferred<boolean>();
  let batch = deferred<SnapshotBatch | null>();
  const reading = streamTenant(db, organizationUuid, async (tx) => {
    const all = statements(tx);
    for (const [index, statement] of all.entries()) {
      const cursor = `snapshot_export_${index}`;
      await tx.execute(sql`declare ${sql.identifier(cursor)} no scroll cursor for ${statement}`);
      for (let last = false; !last; ) {
        if (!(await demand.promise)) return;
        demand = deferred();
        const result = (await tx.execute(sql.raw(`fetch forward ${batchSize} from ${cursor}`))) as unknown as { rows: Record<string, unknown>[] };
        last = result.rows.length < batchSize;
        const answered = batch;
        batch = deferred();
        answered.resolve({ index, rows: result.rows, last });
      }
      await tx.execute(sql.raw(`close ${cursor}`));
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
      const answered = await next;
      if (!answered) return;
      yield answered;
    }
  } finally {
    demand.resolve(false);
    // The transaction is over (committed, or rolled back on a failure already thrown) before the caller goes on.
    await reading.catch(() => {});
  }
}

/**
 * Every row of a list's query (its filters, search and sort; page and limit aside), batch after
 * batch, through `snapshotBatches`: a batch is read only when asked for; empty batches are not
 * given.
 */
export async function* listRows<Q extends ListQuery, Row>(
  db: Database,
  organizationUuid: string,
  list: List<Q, Row>,
  query: Q,
  batchSize: number = EXPORT_BATCH,
): AsyncGenerator<Row[], void, undefined> {
  let decode: ((raw: Record<string, unknown>) => unknown) | undefined;
  const batches = snapshotBatches(
    db,
    organizationUuid,
    (tx) => {
      const built = exportStatement(tx, list, organizationUuid, query);
      decode = built.decode as (raw: Record<string, unknown>) => unknown;
      return [built.statement];
    },
    batchSize,
  );
  for await (const { rows } of batches) {
    if (rows.length > 0) yield rows.map((raw) => decode!(raw) as Row);
  }
}

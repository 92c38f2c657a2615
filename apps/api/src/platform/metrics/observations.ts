/**
 * What the rest of the code tells the metrics (decision 045): a small typed interface, with no
 * dependency on prom-client, so that the database layer, the page cache, the job queue, the
 * outbox and the imports only say what happened and never handle a metric themselves.
 *
 * Observations are attached to a database (`Database`, the app's `db`): every part that reports
 * something already holds it, and the tests, which build many apps in one process, each on its own
 * database, keep their figures apart. Nothing attached (METRICS_TOKEN unset): every call is a
 * no-op, and the metrics cost nothing.
 *
 * Labels are only names the code defines (a statement's family, a job's kind, an entity): never
 * an organization's or a user's id, nor anything a client writes.
 */
export interface Observations {
  /** One database statement ended: its family (`vehicules_list`, `unnamed`), its duration, whether the statement timeout cancelled it. */
  statement(name: string, seconds: number, timedOut: boolean): void;
  /** A database operation gave up waiting: for its fair-share turn (`turn`) or for a pooled connection (`connection`). */
  acquireTimedOut(wait: 'turn' | 'connection'): void;
  /** The page cache served a page it held (`hit`), or computed one it may keep (`miss`). */
  pageCache(result: 'hit' | 'miss'): void;
  /** Pages the page cache let go to stay within its bounds. */
  pageCacheEvicted(count: number): void;
  /** A background job's attempt ended. */
  job(kind: string, outcome: 'completed' | 'retried' | 'failed'): void;
  /** An e-mail accepted by the mail server (`sent`), or failed (`retried` later, or `dead`). */
  mail(outcome: 'sent' | 'retried' | 'dead'): void;
  /** Rows of an import committed, by what became of them. */
  importRows(entity: string, counts: Readonly<Record<string, number>>): void;
}

const NOTHING: Observations = Object.freeze({
  statement: () => undefined,
  acquireTimedOut: () => undefined,
  pageCache: () => undefined,
  pageCacheEvicted: () => undefined,
  job: () => undefined,
  mail: () => undefined,
  importRows: () => undefined,
});

const attached = new WeakMap<object, Observations>();

/** Where to report what happens on `db` (a no-op when no metrics are attached to it). */
export function observationsOf(db: object): Observations {
  return attached.get(db) ?? NOTHING;
}

/**
 * Reports what happens on `db` to `observations`; returns the detach. Two apps on one database (a
 * test of several instances) both hear it.
 */
export function attachObservations(db: object, observations: Observations): () => void {
  const previous = attached.get(db);
  const combined: Observations = previous ? fanOut(previous, observations) : observations;
  attached.set(db, combined);
  return () => {
    if (attached.get(db) === combined) {
      if (previous) attached.set(db, previous);
      else attached.delete(db);
    }
  };
}

function fanOut(a: Observations, b: Observations): Observations {
  return {
    statement: (...args) => (a.statement(...args), b.statement(...args)),
    acquireTimedOut: (wait) => (a.acquireTimedOut(wait), b.acquireTimedOut(wait)),
    pageCache: (result) => (a.pageCache(result), b.pageCache(result)),
    pageCacheEvicted: (count) => (a.pageCacheEvicted(count), b.pageCacheEvicted(count)),
    job: (kind, outcome) => (a.job(kind, outcome), b.job(kind, outcome)),
    mail: (outcome) => (a.mail(outcome), b.mail(outcome)),
    importRows: (entity, counts) => (a.importRows(entity, counts), b.importRows(entity, counts)),
  };
}

import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Fair use of the database connections between organizations (decision 011).
 *
 * Every database operation of a request (a write transaction, a read) first takes a slot here,
 * under its organization's name ('system' for work across organizations). At most `capacity`
 * operations run at once — the pool's size, so the pool itself never makes anyone wait — and one
 * organization holds at most its share of them: half alone (`perKey`), an equal part of the pool
 * when others are at work, at least one. While a large organization runs heavy searches, the
 * others still find free connections and the database's CPU. Operations waiting for a slot are
 * served one organization after the other in turn, not first come first served, so a burst from
 * one organization does not queue ahead of everybody else's single request. An operation that
 * waits longer than `maxWaitMs` gives up with an OverloadedError (answered 503, Retry-After).
 * On the embedded database (`inProcess`), each operation runs on a turn of the event loop of its
 * own (run, admit).
 */

export class OverloadedError extends Error {
  constructor(readonly waitedMs: number) {
    super(`database busy: no connection within ${waitedMs} ms`);
    this.name = 'OverloadedError';
  }
}

type Waiter = { key: string; resolve: () => void; reject: (error: Error) => void; timer: NodeJS.Timeout | undefined };

export type FairShareOptions = {
  capacity: number;
  perKey?: number;
  maxWaitMs: number;
  /**
   * The database runs in this process (PGlite): its operations wait for no I/O, and run one after
   * the other in one turn of the event loop unless made to wait for the next (run, admit).
   */
  inProcess?: boolean;
  /** Told when an operation gave up waiting for its turn (the metrics, platform/metrics). */
  onTimeout?: () => void;
};

const holding = new AsyncLocalStorage<true>();
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Whether the caller runs inside a database operation's turn (a withTenant/withSystem transaction
 * or a read). The job queue refuses to open a second connection from there (platform/jobs).
 */
export function holdsTurn(): boolean {
  return holding.getStore() === true;
}

export class FairShare {
  private runningCount = 0;
  private readonly runningByKey = new Map<string, number>();
  /** Waiting operations by key, and the keys in the order they get their turn. */
  private readonly queues = new Map<string, Waiter[]>();
  private readonly turns: string[] = [];
  readonly capacity: number;
  readonly perKey: number;

  constructor(private readonly options: FairShareOptions) {
    this.capacity = Math.max(1, options.capacity);
    this.perKey = Math.max(1, Math.min(this.capacity, options.perKey ?? Math.floor(this.capacity / 2)));
  }

  /**
   * Runs fn holding a slot for `key`. Work already holding one (a read inside a write's
   * callback) runs at once: waiting for a second slot could wait for itself.
   */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (holding.getStore()) return fn();
    const waits = !this.canStart(key);
    if (waits) await this.wait(key);
    else this.start(key);
    try {
      // In the process, a turn of the event loop of its own: the slot is taken now, so the requests
      // read in this turn wait for it in turn (with their deadline), instead of each running to its
      // end as soon as read. Admitted from the queue, it is already on a later turn (admit).
      if (this.options.inProcess && !waits) await nextTurn();
      return await holding.run(true, fn);
    } finally {
      this.finish(key);
    }
  }

  /** How many operations hold a turn now (the metrics' gauge). */
  get running(): number {
    return this.runningCount;
  }

  /** How many operations wait, for the logs and tests. */
  get waiting(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  /**
   * How many operations `key` may run now: an equal part of the capacity between the
   * organizations at work (running or waiting), at least one, at most `perKey`. Alone, a large
   * organization uses half the pool; beside twenty others at work, one connection: what limits
   * them all is the database's CPU, not only its connections.
   */
  private shareOf(key: string) {
    let active = this.runningByKey.size + this.queues.size;
    if (!this.runningByKey.has(key) && !this.queues.has(key)) active++;
    for (const waiting of this.queues.keys()) if (this.runningByKey.has(waiting)) active--;
    return Math.max(1, Math.min(this.perKey, Math.floor(this.capacity / active)));
  }

  private canStart(key: string) {
    return this.runningCount < this.capacity && (this.runningByKey.get(key) ?? 0) < this.shareOf(key) && !this.queues.has(key);
  }

  private start(key: string) {
    this.runningCount++;
    this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
  }

  private wait(key: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { key, resolve, reject, timer: undefined };
      const started = Date.now();
      waiter.timer = setTimeout(() => {
        const queue = this.queues.get(key);
        const index = queue?.indexOf(waiter) ?? -1;
        if (index >= 0) {
          queue!.splice(index, 1);
          if (queue!.length === 0) this.forget(key);
        }
        this.options.onTimeout?.();
        reject(new OverloadedError(Date.now() - started));
      }, this.options.maxWaitMs);
      let queue = this.queues.get(key);
      if (!queue) {
        queue = [];
        this.queues.set(key, queue);
        this.turns.push(key);
      }
      queue.push(waiter);
    });
  }

  private finish(key: string) {
    this.runningCount--;
    const left = (this.runningByKey.get(key) ?? 1) - 1;
    if (left === 0) this.runningByKey.delete(key);
    else this.runningByKey.set(key, left);
    this.admit();
  }

  /** Starts waiting operations while slots are free, each waiting organization in turn. */
  private admit() {
    let passes = this.turns.length;
    while (this.runningCount < this.capacity && passes > 0 && this.turns.length > 0) {
      const key = this.turns.shift()!;
      const queue = this.queues.get(key)!;
      if ((this.runningByKey.get(key) ?? 0) >= this.shareOf(key)) {
        // At its share: its turn comes again once one of its own operations ends.
        this.turns.push(key);
        passes--;
        continue;
      }
      const waiter = queue.shift()!;
      clearTimeout(waiter.timer);
      this.start(key);
      // In the process, resumed on a later turn of the event loop, not in the chain of promises of
      // the operation that just ended: PGlite waits for no I/O, and the whole queue would run in one
      // turn, holding the event loop for as long (0.5–1.9 s under the load suite). Meanwhile Node
      // reads no request, fires no timer, and accepts no connection — one per turn (libuv ≥ 1.45):
      // new connections waited 10 s and more before the server saw their request (docs/performance.md).
      if (this.options.inProcess) setImmediate(waiter.resolve);
      else waiter.resolve();
      if (queue.length === 0) this.queues.delete(key);
      else this.turns.push(key);
      passes = this.turns.length;
    }
  }

  private forget(key: string) {
    this.queues.delete(key);
    const index = this.turns.indexOf(key);
    if (index >= 0) this.turns.splice(index, 1);
  }
}

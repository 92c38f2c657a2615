/**
 * Work a request starts but does not wait for: its answer leaves first, then the work runs in
 * this process. For answers that must not tell, by their time, what the work found — « if an
 * account exists, a link was sent » takes as long whether the address has an account or not.
 * The work is not durable (a process stopped in between loses it: the user asks again); what must
 * survive a restart goes through the job queue. The app waits for the work in flight when it
 * closes, and tests wait for it with settled().
 */
export type AfterAnswer = {
  run(name: string, work: () => Promise<unknown>): void;
  /** Resolves once no work is in flight (work started meanwhile included). */
  settled(): Promise<void>;
};

type Logger = { error(object: object, message: string): void };

export function createAfterAnswer(log: Logger): AfterAnswer {
  const pending = new Set<Promise<void>>();
  return {
    run(name, work) {
      // Not before the next turn of the event loop: the answer is written first (an embedded
      // database's statement would otherwise hold the thread before the answer leaves).
      const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .then(
          () => undefined,
          (error: unknown) => log.error({ err: error, work: name }, 'Travail après la réponse en échec'),
        )
        .finally(() => pending.delete(running));
      pending.add(running);
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

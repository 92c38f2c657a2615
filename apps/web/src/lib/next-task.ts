type YieldingScheduler = { yield?: () => Promise<void> };

/**
 * Resolves in a later task of the browser's event loop, so that one long piece of work cut in
 * steps lets the browser paint and answer a touch between them (issue 10: a phone's CPU turns the
 * app's start into long tasks, the blocking time Lighthouse counts). `scheduler.yield()` where the
 * browser has it (its continuation goes before other tasks of the same priority), a timer
 * otherwise.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: YieldingScheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

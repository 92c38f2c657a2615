/**
 * Waits until a condition holds (a mail received, a job run), checking every 50 ms; throws after
 * timeoutMs. For what a background worker does on its own time, not for a request's answer.
 */
export async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition never met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

import v8 from 'node:v8';

/**
 * How far V8 lets the server's old space grow between two full collections (decision 051).
 *
 * By default V8 sets the next full collection's threshold at 1.1 to 4 times what survived the
 * last one, higher the faster the program allocates, up to a heap limit that follows the
 * machine's memory (4 GB here). Under a steady load the server then keeps collecting late: on
 * PostgreSQL, 50 connections for two minutes left it at 392 then 434 MB of RSS while it held
 * 106 to 110 MB of live objects (heap snapshots), and its RSS was still climbing after the second
 * minute (issue 20, point 10). A fixed factor keeps the heap at most that much above what the
 * server holds, whatever it holds: a large import still gets the memory it needs, as it would with
 * V8's own rule, where a `--max-old-space-size` would stop it.
 *
 * `HEAP_GROWTH_PERCENT=0` leaves V8's own rule. A `--heap-growing-percent` given to node itself
 * wins over the setting. V8 reads this flag at each collection, so setting it once the process
 * runs takes effect from the next one.
 */
export function tuneHeap(growthPercent: number, execArgv: readonly string[] = process.execArgv): string | null {
  if (growthPercent === 0) return null;
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return null;
  const flag = `--heap-growing-percent=${growthPercent}`;
  v8.setFlagsFromString(flag);
  return flag;
}

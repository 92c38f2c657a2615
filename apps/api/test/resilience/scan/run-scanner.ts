import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runProcess } from '../../process/harness.js';

/**
 * Runs a scanner to its end, leaving in `dir` the command (the token masked) and its output, for
 * whoever reads the reports.
 */
export async function runScanner(binary: string, args: string[], dir: string, token: string): Promise<{ code: number | string; seconds: number; output: string }> {
  writeFileSync(path.join(dir, 'command.txt'), `${binary} ${args.map((a) => JSON.stringify(a)).join(' ').replace(token, '<jeton>')}\n`);
  const started = Date.now();
  const { code, output } = await runProcess(binary, args);
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(path.join(dir, 'stdout.txt'), output);
  return { code, seconds, output };
}

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes a suite's figures to RESILIENCE_REPORTS_DIR/<name>.json when set (docs/performance.md reads them). */
export function writeReport(name: string, reports: readonly unknown[]): void {
  const dir = process.env.RESILIENCE_REPORTS_DIR;
  if (!dir || reports.length === 0) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify({ measuredAt: new Date().toISOString(), reports }, null, 2)}\n`);
}

/** One line of a suite's closing table: what was tried, what was measured, whether it held. */
export type Check = { check: string; tried: string; measured: string; held: boolean };

/**
 * Prints the table of a suite's checks (and appends it to RESILIENCE_REPORTS_DIR/<name>.txt when
 * set), so that a run says what each fault did, not only pass or fail.
 */
export function printChecks(name: string, checks: readonly Check[]): void {
  if (checks.length === 0) return;
  const widths = {
    check: Math.max(8, ...checks.map((c) => c.check.length)),
    tried: Math.max(6, ...checks.map((c) => c.tried.length)),
    measured: Math.max(7, ...checks.map((c) => c.measured.length)),
  };
  const row = (a: string, b: string, c: string, d: string) => `${a.padEnd(widths.check)} │ ${b.padEnd(widths.tried)} │ ${c.padEnd(widths.measured)} │ ${d}`;
  const lines = [
    '',
    `── ${name} ──`,
    row('Contrôle', 'Essayé', 'Mesuré', 'Tenu'),
    ...checks.map((c) => row(c.check, c.tried, c.measured, c.held ? 'oui' : 'NON')),
    '',
  ];
  const text = lines.join('\n');
  // eslint-disable-next-line no-console -- what the suite tried and what held is its report (issue 20)
  console.log(text);
  const dir = process.env.RESILIENCE_REPORTS_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    appendFileSync(path.join(dir, `${name}.txt`), `${new Date().toISOString()}\n${text}\n`);
  }
}

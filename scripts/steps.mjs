// The step runner shared by `npm test` (scripts/test.mjs) and `npm run test:resilience`
// (scripts/resilience.mjs): each step prints a banner, a failed step stops the run, vitest steps
// count their tests from the JSON report, and the run ends with « N passed, N failed ».
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const CI = process.env.CI === 'true' || process.env.CI === '1';
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const reportsDir = mkdtempSync(path.join(tmpdir(), 'flotte-test-'));
const summary = [];
let passed = 0;
let failed = 0;

export function banner(title) {
  console.log(`\n\x1b[1m━━ ${title}\x1b[0m`);
}

/** A line of the final summary (✓ for a step that held, ⚠ for a step not run and why). */
export function note(line) {
  summary.push(line);
}

export function run(title, command, args, options = {}) {
  banner(title);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, stdio: 'inherit', env: { ...process.env, ...options.env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (result.status !== 0 && !options.reportFailure) {
    summary.push(`✗ ${title} (${seconds} s)`);
    // A failed step (types, lint, build, budget) counts as one failure in the last line.
    failed += 1;
    finish(1, `${title} a échoué.`);
  }
  return { seconds, ok: result.status === 0 };
}

/** Runs a vitest project and records its counts from the JSON report. */
export function vitest(title, workspace, extraArgs = [], env = {}) {
  const report = path.join(reportsDir, `${title.replace(/\W+/g, '-')}.json`);
  const { seconds, ok } = run(title, 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extraArgs], {
    env: { ...env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    cwd: workspace,
    reportFailure: true,
  });
  const counts = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : null;
  if (!counts || counts.numTotalTests === 0) {
    summary.push(`✗ ${title}: ${ok ? 'aucun test exécuté' : `a échoué avant ses tests (${seconds} s)`}`);
    if (!ok) failed += 1;
    finish(1, ok ? `${title} n'a exécuté aucun test.` : `${title} a échoué.`);
  }
  passed += counts.numPassedTests;
  failed += counts.numFailedTests;
  if (!ok) {
    // The failed tests count in the last line; a run that failed with every test passed (an error
    // outside the tests) counts as one failure, so the line never says 0 failed on a failure.
    if (counts.numFailedTests === 0) failed += 1;
    summary.push(`✗ ${title}: ${counts.numFailedTests} échoué(s) sur ${counts.numTotalTests} (${seconds} s)`);
    finish(1, `${title} a échoué.`);
  }
  const skipped = counts.numPendingTests + counts.numTodoTests;
  // A test skipped on purpose (e.g. PostgreSQL-only checks during the PGlite pass) is said, not hidden.
  summary.push(`✓ ${title}: ${counts.numPassedTests} tests${skipped > 0 ? `, ${skipped} ignorés (propres à l'autre base)` : ''} (${seconds} s)`);
}

export function finish(code, message) {
  console.log('\n\x1b[1mRésumé\x1b[0m');
  for (const line of summary) console.log(`  ${line}`);
  if (message) console.log(`\n${message}`);
  console.log(`\n${passed} passed, ${failed} failed`);
  rmSync(reportsDir, { recursive: true, force: true });
  process.exit(code);
}

/** Ends the run with its counts: exit 1 when anything failed. */
export function done() {
  finish(failed > 0 ? 1 : 0);
}

export async function postgresAnswers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Debian packages npm cannot install (Chromium, sqlmap, wapiti): installed through apt-get when
 * missing and running as root; otherwise the run fails, saying the command to type.
 */
export function ensureDebianPackages(title, packages) {
  const missing = packages.filter(({ binary }) => !existsSync(binary));
  if (missing.length === 0) return;
  const names = missing.map(({ name }) => name);
  banner(`Installation de ${names.join(', ')} (apt-get)`);
  if (process.getuid?.() !== 0) {
    summary.push(`✗ ${title} : ${names.join(', ')} absent(s)`);
    finish(1, `${names.join(', ')} introuvable(s) et l'installation demande root : sudo apt-get install -y ${names.join(' ')}`);
  }
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...names]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      summary.push(`✗ ${title} : installation de ${names.join(', ')} impossible`);
      finish(1, `apt-get ${args.join(' ')} a échoué.`);
    }
  }
  for (const { name, binary } of missing) {
    if (!existsSync(binary)) finish(1, `${name} toujours introuvable après installation (${binary}).`);
  }
}

#!/usr/bin/env node
// `npm test`: everything, in order, failing loudly. Types, lint, web unit tests, the scripts'
// tests, the API suite on PostgreSQL and on PGlite, then the built server and commands as real
// processes (lock, crashes, backups, restore), then e2e in Debian's Chromium against the built app.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CI = process.env.CI === 'true' || process.env.CI === '1';
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const reportsDir = mkdtempSync(path.join(tmpdir(), 'flotte-test-'));
const summary = [];
let passed = 0;
let failed = 0;

function banner(title) {
  console.log(`\n\x1b[1m━━ ${title}\x1b[0m`);
}

function run(title, command, args, options = {}) {
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
function vitest(title, workspace, extraArgs = [], env = {}) {
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

function finish(code, message) {
  console.log('\n\x1b[1mRésumé\x1b[0m');
  for (const line of summary) console.log(`  ${line}`);
  if (message) console.log(`\n${message}`);
  console.log(`\n${passed} passed, ${failed} failed`);
  rmSync(reportsDir, { recursive: true, force: true });
  process.exit(code);
}

async function postgresAnswers(url) {
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

function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(chromium)) return chromium;
  banner('Installation de Chromium (apt-get)');
  if (process.getuid?.() !== 0) {
    summary.push('✗ e2e : Chromium absent');
    finish(1, `Chromium est introuvable (${chromium}) et l'installation demande root : sudo apt-get install -y chromium`);
  }
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      summary.push('✗ e2e : installation de Chromium impossible');
      finish(1, `apt-get ${args.join(' ')} a échoué.`);
    }
  }
  if (!existsSync(chromium)) finish(1, `Chromium toujours introuvable après installation (${chromium}).`);
  return chromium;
}

run('Types (tsc --noEmit, chaque espace de travail)', 'npm', ['run', 'typecheck', '--workspaces', '--if-present']);
// The benchmarks are no workspace but import the API's code: a change there must not leave them broken.
run('Types des bancs d’essai (bench/)', 'npx', ['tsc', '--noEmit', '-p', 'bench']);
summary.push('✓ Types : contract, api, web, e2e, bench');
run('Lint (ESLint, règles de frontières)', 'npx', ['eslint', '--max-warnings=0', '.']);
summary.push('✓ Lint');

vitest('Web : tests unitaires (jsdom)', path.join(root, 'apps/web'));
// The repository's own scripts (the web size budget: fails on an oversized fake build, passes a small one).
vitest('Scripts du dépôt (budget de taille du web)', path.join(root, 'scripts'));

const apiDir = path.join(root, 'apps/api');
const postgresOk = await postgresAnswers(TEST_DATABASE_URL);
if (postgresOk) {
  vitest('API sur PostgreSQL', apiDir, [], { TEST_DB: 'postgres', TEST_DATABASE_URL });
  vitest('API sur PGlite (passe de contrôle)', apiDir, [], { TEST_DB: 'pglite' });
} else if (CI) {
  summary.push(`✗ API : PostgreSQL injoignable (${TEST_DATABASE_URL})`);
  finish(1, `CI=true exige PostgreSQL : aucune réponse sur ${TEST_DATABASE_URL}.`);
} else {
  console.log(`\n\x1b[33m⚠ PostgreSQL ne répond pas sur ${TEST_DATABASE_URL} : toute la suite API tourne sur PGlite.\x1b[0m`);
  vitest('API sur PGlite (PostgreSQL injoignable)', apiDir, [], { TEST_DB: 'pglite' });
  summary.push('⚠ API non testée sur PostgreSQL (serveur injoignable)');
}

run('Build (contrat, web, API)', 'npm', ['run', 'build']);
summary.push('✓ Build');
// The JavaScript each page downloads cold, brotli, against the budgets of issue 10: a heavy import
// fails here, naming the chunk and the import chain that brings it (scripts/size-budget.mjs).
run('Budget de taille du web (JavaScript par page, brotli)', 'node', ['scripts/size-budget.mjs']);
summary.push('✓ Budget de taille du web');
// Real servers and commands on temporary data folders; the move to PostgreSQL needs the server.
vitest('Processus réels : verrou, arrêts brutaux, sauvegardes, restauration', apiDir, ['--config', 'vitest.process.config.ts'], {
  PROCESS_TEST_DATABASE_URL: postgresOk ? TEST_DATABASE_URL : '',
});
const chromium = ensureChromium();
vitest('E2E dans Chromium', path.join(root, 'e2e'), [], { CHROMIUM_PATH: chromium, TEST_DATABASE_URL });

finish(failed > 0 ? 1 : 0);

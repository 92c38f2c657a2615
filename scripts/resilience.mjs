#!/usr/bin/env node
// `npm run test:resilience`: the slow suites of issue 20 on the built server as real processes —
// load, SIGTERM under load, kill -9 during an import, an upload and a job, the database cut and
// frozen under load, a full disk, slow clients, then sqlmap and wapiti on every list, create and id
// route of the OpenAPI document; ends with « N passed, N failed ». .ci/run calls it after `npm test`.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CI, TEST_DATABASE_URL, ensureDebianPackages, finish, note, postgresAnswers, root, run, vitest, done, banner } from './steps.mjs';

/** Newest modification time under a folder (sources only: node_modules and build output skipped). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

function builtAndCurrent() {
  try {
    const built = Math.min(statSync(path.join(root, 'apps/api/dist/server.js')).mtimeMs, statSync(path.join(root, 'apps/web/dist/index.html')).mtimeMs);
    const sources = Math.max(...['apps/api/src', 'apps/web/src', 'packages/contract/src'].map((dir) => newest(path.join(root, dir))));
    return built > sources;
  } catch {
    return false;
  }
}

const postgresOk = await postgresAnswers(TEST_DATABASE_URL);
if (!postgresOk) {
  note(`✗ PostgreSQL injoignable (${TEST_DATABASE_URL})`);
  finish(1, `Les suites de résilience mesurent PostgreSQL et la base embarquée : aucune réponse sur ${TEST_DATABASE_URL}.`);
}
ensureDebianPackages('scanners', [
  { name: 'sqlmap', binary: '/usr/bin/sqlmap' },
  { name: 'wapiti', binary: '/usr/bin/wapiti' },
]);
// Run after `npm test`, which has just built the same tree: the build runs again only when a source is newer.
if (builtAndCurrent()) {
  banner('Build à jour (apps/api/dist, apps/web/dist)');
  note('✓ Build déjà à jour');
} else {
  run('Build (contrat, web, API)', 'npm', ['run', 'build']);
  note('✓ Build');
}

const reports = process.env.RESILIENCE_REPORTS_DIR ?? path.join(root, 'reports', `resilience-${new Date().toISOString().replace(/[:.]/g, '-')}`);
mkdirSync(reports, { recursive: true });
console.log(`\nRapports (sqlmap, wapiti, charge) : ${reports}`);
vitest('Résilience : charge, arrêts, pannes, disque plein, clients lents, scanners', path.join(root, 'apps/api'), ['--config', 'vitest.resilience.config.ts'], {
  PROCESS_TEST_DATABASE_URL: TEST_DATABASE_URL,
  RESILIENCE_REPORTS_DIR: reports,
  CI: CI ? 'true' : '',
});
note(`Rapports : ${reports}`);
done();

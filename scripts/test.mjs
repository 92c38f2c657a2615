#!/usr/bin/env node
// `npm test`: everything, in order, failing loudly. Types, lint, web unit tests, the scripts'
// tests, the API suite on PostgreSQL and on PGlite, then the built server and commands as real
// processes (lock, crashes, backups, restore), then e2e in Debian's Chromium against the built app.
import path from 'node:path';
import { CI, TEST_DATABASE_URL, done, ensureDebianPackages, finish, note, postgresAnswers, root, run, vitest } from './steps.mjs';

run('Types (tsc --noEmit, chaque espace de travail)', 'npm', ['run', 'typecheck', '--workspaces', '--if-present']);
// The benchmarks are no workspace but import the API's code: a change there must not leave them broken.
run('Types des bancs d’essai (bench/)', 'npx', ['tsc', '--noEmit', '-p', 'bench']);
note('✓ Types : contract, api, web, e2e, bench');
run('Lint (ESLint, règles de frontières)', 'npx', ['eslint', '--max-warnings=0', '.']);
note('✓ Lint');

vitest('Web : tests unitaires (jsdom)', path.join(root, 'apps/web'));
// The repository's own scripts (the web size budget: fails on an oversized fake build, passes a small one).
vitest('Scripts du dépôt (budget de taille du web)', path.join(root, 'scripts'));

const apiDir = path.join(root, 'apps/api');
const postgresOk = await postgresAnswers(TEST_DATABASE_URL);
if (postgresOk) {
  vitest('API sur PostgreSQL', apiDir, [], { TEST_DB: 'postgres', TEST_DATABASE_URL });
  vitest('API sur PGlite (passe de contrôle)', apiDir, [], { TEST_DB: 'pglite' });
} else if (CI) {
  note(`✗ API : PostgreSQL injoignable (${TEST_DATABASE_URL})`);
  finish(1, `CI=true exige PostgreSQL : aucune réponse sur ${TEST_DATABASE_URL}.`);
} else {
  console.log(`\n\x1b[33m⚠ PostgreSQL ne répond pas sur ${TEST_DATABASE_URL} : toute la suite API tourne sur PGlite.\x1b[0m`);
  vitest('API sur PGlite (PostgreSQL injoignable)', apiDir, [], { TEST_DB: 'pglite' });
  note('⚠ API non testée sur PostgreSQL (serveur injoignable)');
}

run('Build (contrat, web, API)', 'npm', ['run', 'build']);
note('✓ Build');
// The JavaScript each page downloads cold, brotli, against the budgets of issue 10: a heavy import
// fails here, naming the chunk and the import chain that brings it (scripts/size-budget.mjs).
run('Budget de taille du web (JavaScript par page, brotli)', 'node', ['scripts/size-budget.mjs']);
note('✓ Budget de taille du web');
// Real servers and commands on temporary data folders; the move to PostgreSQL needs the server.
vitest('Processus réels : verrou, arrêts brutaux, sauvegardes, restauration', apiDir, ['--config', 'vitest.process.config.ts'], {
  PROCESS_TEST_DATABASE_URL: postgresOk ? TEST_DATABASE_URL : '',
});
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
ensureDebianPackages('e2e', [{ name: 'chromium', binary: chromium }]);
vitest('E2E dans Chromium', path.join(root, 'e2e'), [], { CHROMIUM_PATH: chromium, TEST_DATABASE_URL });

done();

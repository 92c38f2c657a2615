#!/usr/bin/env node
// First step of `npm start`: when a live process already holds DATA_DIR, say so now rather than
// after a build that would replace the files that running server serves (it would refuse to start
// anyway: one process per embedded data folder, docs/decisions/009-embedded-database-safety.md).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(import.meta.dirname, '../apps/api/dist');
// Nothing built yet: no server from this checkout can be running.
if (!existsSync(path.join(dist, 'db/data-dir-lock.js'))) process.exit(0);
const { loadConfig } = await import(pathToFileURL(path.join(dist, 'config.js')).href);
const { assertDataDirFree } = await import(pathToFileURL(path.join(dist, 'db/data-dir-lock.js')).href);
let config;
try {
  config = loadConfig();
} catch {
  // The server reports a bad configuration itself, with the list of what is wrong.
  process.exit(0);
}
if (config.databaseUrl) process.exit(0);
try {
  assertDataDirFree(config.dataDir);
} catch (error) {
  console.error(`\nDémarrage impossible.\n${error.message}\n`);
  process.exit(1);
}

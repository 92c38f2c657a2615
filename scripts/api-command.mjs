#!/usr/bin/env node
// npm run backup | restore | import-backup → the built command in apps/api/dist/cli/ (the same
// code as the server `npm start` runs), with the arguments after `--`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const [name, ...args] = process.argv.slice(2);
const file = path.join(root, 'apps/api/dist/cli', `${name}.js`);
if (!existsSync(file)) {
  console.error(`La commande ${name} n'est pas construite (${path.relative(root, file)} absent) : lancez d'abord npm run build (ou npm start).`);
  process.exit(1);
}
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(file).href);

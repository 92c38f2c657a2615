#!/usr/bin/env node
// npm run bench → bench/run.ts (TypeScript through tsx, with the workspace sources);
// `npm run bench -- import export` runs those scenarios only.
// The server it measures is the built API run by plain node (bench/server.mjs), as `npm start`
// runs it: the contract and the API are built first.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build', '-w', 'packages/contract', '-w', 'apps/api'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('npm run bench : la construction du contrat et de l’API a échoué.');
  process.exit(build.status ?? 1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', path.join(root, 'bench/run.ts'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);

#!/usr/bin/env node
// npm run bench → bench/run.ts (TypeScript through tsx, with the workspace sources);
// `npm run bench -- import export` runs those scenarios only.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const result = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', path.join(root, 'bench/run.ts'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COLD_LOADS, LATER_CHUNK_BUDGET_KB } from './size-budget.mjs';

const script = path.join(import.meta.dirname, 'size-budget.mjs');
const folders = [];

/** Small JavaScript that compresses well. */
const small = (name) => `export const ${name.replace(/\W/g, '_')} = ${JSON.stringify(name)};\n`;
/** JavaScript that brotli cannot shrink below `kb` kB (random base64 in a string). */
const heavy = (kb) => `export const blob = "${randomBytes(Math.ceil(kb * 1000)).toString('base64')}";\n`;

/**
 * A fake Vite build: an entry, every route module the budgets name, a shared chunk, and a
 * lazily loaded chunk reached only through a route. `contents` overrides a file's text.
 */
function fakeBuild(contents = {}) {
  const dist = mkdtempSync(path.join(tmpdir(), 'flotte-size-budget-'));
  folders.push(dist);
  mkdirSync(path.join(dist, '.vite'));
  mkdirSync(path.join(dist, 'assets'));
  const routes = [...new Set(COLD_LOADS.flatMap((load) => load.modules))];
  const manifest = {
    'index.html': { file: 'assets/index-abc.js', isEntry: true, imports: ['_shared-abc.js'], dynamicImports: [...routes, 'src/app/routes/app/account.tsx'] },
    '_shared-abc.js': { file: 'assets/shared-abc.js' },
    '_chart-abc.js': { file: 'assets/chart-abc.js', imports: ['_shared-abc.js'] },
    'src/app/routes/app/account.tsx': { file: 'assets/account-abc.js', isDynamicEntry: true, imports: ['_chart-abc.js', '_shared-abc.js'] },
  };
  for (const [i, route] of routes.entries()) {
    manifest[route] = { file: `assets/route${i}-abc.js`, isDynamicEntry: true, imports: ['_shared-abc.js'] };
  }
  writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
  for (const chunk of Object.values(manifest)) writeFileSync(path.join(dist, chunk.file), contents[chunk.file] ?? small(chunk.file));
  return dist;
}

function check(dist) {
  const result = spawnSync(process.execPath, [script, dist], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('scripts/size-budget.mjs', () => {
  it('passes a build within every budget', () => {
    const { status, output } = check(fakeBuild());
    expect(output).toContain('✓ Budget de taille respecté.');
    expect(status).toBe(0);
  });

  it('fails on an oversized lazily loaded chunk, naming it and the import chain that brings it', () => {
    const { status, output } = check(fakeBuild({ 'assets/chart-abc.js': heavy(LATER_CHUNK_BUDGET_KB + 10) }));
    expect(status).toBe(1);
    expect(output).toContain('Budget de taille dépassé');
    expect(output).toMatch(/Morceau chargé plus tard assets\/chart-abc\.js : \d+,\d kB \(brotli\) pour un budget de 60 kB/);
    expect(output).toContain('via index.html ⇢ src/app/routes/app/account.tsx → assets/chart-abc.js');
  });

  it('fails when the entry makes the login page exceed its cold-load budget', () => {
    const { status, output } = check(fakeBuild({ 'assets/index-abc.js': heavy(110) }));
    expect(status).toBe(1);
    expect(output).toMatch(/`\/` \(connexion\) chargé à froid : \d+,\d kB de JavaScript \(brotli\) pour un budget de 100 kB/);
    expect(output).toContain('assets/index-abc.js');
  });

  it('reads the precompressed .br file, as the server sends it', () => {
    const dist = fakeBuild();
    // A small file whose .br says 70 kB: the .br is what the browser receives.
    writeFileSync(path.join(dist, 'assets/chart-abc.js.br'), randomBytes(70_000));
    const { status, output } = check(dist);
    expect(status).toBe(1);
    expect(output).toMatch(/assets\/chart-abc\.js : 70,0 kB/);
  });

  it('fails, saying what to update, when a budgeted route module is not in the build', () => {
    const dist = fakeBuild();
    const manifestFile = path.join(dist, '.vite/manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    delete manifest['src/app/routes/auth/login.tsx'];
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const { status, output } = check(dist);
    expect(status).toBe(1);
    expect(output).toContain('src/app/routes/auth/login.tsx absent du manifeste');
    expect(output).toContain('mettez à jour COLD_LOADS');
  });

  it('fails without a manifest', () => {
    const dist = fakeBuild();
    rmSync(path.join(dist, '.vite'), { recursive: true });
    const { status, output } = check(dist);
    expect(status).toBe(1);
    expect(output).toContain('Manifeste Vite introuvable');
  });
});

#!/usr/bin/env node
// Size budget of the web build (issue 10): the JavaScript a browser downloads, brotli-compressed as
// the server sends it (apps/web/scripts/compress.mjs writes each file's .br; @fastify/static serves
// it), read from Vite's manifest (dist/.vite/manifest.json). Fails (exit code 1) naming the chunk
// and the import chain that brings it, so a heavy import is caught when it lands.
//
//   node scripts/size-budget.mjs [dist folder, default apps/web/dist]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// ── Budgets (kB = 1 000 bytes of brotli, as transferred) ────────────────────────────────────────
// A cold load is the entry (index.html's script and its static imports) plus the lazy route
// modules the router loads for that URL and their static imports. A logged-in page opened cold has
// no access token: the entry restores the session from the refresh cookie while the router loads
// the logged layout and the page (RequireAuth waits for it in place, no /refresh detour), so its
// cold load is the entry, the logged layout and the page. When the routes or the session restore
// change, change these lists: a module missing from the manifest fails the check.
const PUBLIC = 'src/app/layouts/public-layout.tsx';
const LOGGED = 'src/app/layouts/logged-layout.tsx';

export const COLD_LOADS = [
  { name: '`/` (connexion)', budgetKb: 100, modules: [PUBLIC, 'src/app/routes/auth/login.tsx'] },
  { name: '`/dashboard` (connecté)', budgetKb: 200, modules: [LOGGED, 'src/app/routes/app/dashboard.tsx'] },
  { name: '`/vehicules` (connecté)', budgetKb: 200, modules: [LOGGED, 'src/app/routes/app/vehicules.tsx'] },
  { name: '`/drivers` (connecté)', budgetKb: 200, modules: [LOGGED, 'src/app/routes/app/drivers.tsx'] },
  { name: '`/sinisters` (connecté)', budgetKb: 200, modules: [LOGGED, 'src/app/routes/app/sinisters.tsx'] },
  { name: '`/parameters` (connecté)', budgetKb: 200, modules: [LOGGED, 'src/app/routes/app/parameters.tsx'] },
  { name: '`/media` (connecté)', budgetKb: 200, modules: [LOGGED, 'src/app/routes/app/media.tsx'] },
];
/** Every chunk not in the entry's static imports (loaded later, on a route), each. */
export const LATER_CHUNK_BUDGET_KB = 60;

const kb = (bytes) => (bytes / 1000).toFixed(1).replace('.', ',');

function compressedSizes(dist, file) {
  const full = path.join(dist, file);
  const content = readFileSync(full);
  const br = existsSync(`${full}.br`)
    ? readFileSync(`${full}.br`).length
    : brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }).length;
  const gz = existsSync(`${full}.gz`) ? readFileSync(`${full}.gz`).length : gzipSync(content, { level: 9 }).length;
  return { br, gz };
}

/**
 * Measures a build. Returns { coldLoads, laterChunks, errors }: errors are the missed budgets and
 * the problems that prevent measuring (no manifest, a budgeted module missing), in French.
 */
export function measure(dist) {
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestFile)) {
    return {
      coldLoads: [],
      laterChunks: [],
      errors: [`Manifeste Vite introuvable : ${manifestFile}. Construisez le web (npm run build ; build.manifest: true dans apps/web/vite.config.ts).`],
    };
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const errors = [];
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) return { coldLoads: [], laterChunks: [], errors: [`Aucune entrée (isEntry) dans ${manifestFile}.`] };

  // The shortest import chain from the entry to each module: → a static import, ⇢ an import().
  // `routes` limits the import() followed to a cold load's route modules (null: any).
  const chainsFor = (routes) => {
    const via = new Map([[entryKey, null]]);
    const queue = [entryKey];
    while (queue.length > 0) {
      const from = queue.shift();
      const chunk = manifest[from];
      const edges = [
        ...(chunk.imports ?? []).map((k) => [k, '→']),
        ...(chunk.dynamicImports ?? []).filter((k) => !routes || routes.includes(k)).map((k) => [k, '⇢']),
      ];
      for (const [next, arrow] of edges) {
        if (!via.has(next) && manifest[next]) {
          via.set(next, { from, arrow });
          queue.push(next);
        }
      }
    }
    return via;
  };
  // Shared chunks are keyed `_name-hash.js`: show their file; modules show their source path.
  const label = (key) => (key.startsWith('_') ? manifest[key].file : key);
  const chain = (via, key) => {
    if (!via.has(key)) return `${label(key)} (importé par aucun chemin depuis ${entryKey})`;
    const parts = [label(key)];
    for (let step = via.get(key); step; step = via.get(step.from)) parts.unshift(label(step.from), step.arrow);
    return parts.join(' ');
  };
  const anyRoute = chainsFor(null);

  const sizes = new Map();
  const sizeOf = (key) => {
    const file = manifest[key].file;
    if (!sizes.has(file)) sizes.set(file, compressedSizes(dist, file));
    return sizes.get(file);
  };
  const isJs = (key) => /\.m?js$/.test(manifest[key].file);
  /** The module and everything it imports statically: what loading it downloads. */
  const closure = (keys) => {
    const seen = new Set();
    const stack = [...keys];
    while (stack.length > 0) {
      const key = stack.pop();
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      stack.push(...(manifest[key].imports ?? []));
    }
    return [...seen].filter(isJs);
  };
  const entryClosure = new Set(closure([entryKey]));

  const coldLoads = [];
  for (const load of COLD_LOADS) {
    const missing = load.modules.filter((m) => !manifest[m]);
    if (missing.length > 0) {
      errors.push(
        `${load.name} : ${missing.join(', ')} absent du manifeste. Les routes ont changé : mettez à jour COLD_LOADS dans scripts/size-budget.mjs.`,
      );
      continue;
    }
    const chunks = closure([entryKey, ...load.modules]).map((key) => ({ key, file: manifest[key].file, ...sizeOf(key) }));
    const br = chunks.reduce((sum, c) => sum + c.br, 0);
    const gz = chunks.reduce((sum, c) => sum + c.gz, 0);
    const over = br > load.budgetKb * 1000;
    const routeChains = chainsFor(load.modules);
    coldLoads.push({ name: load.name, budgetKb: load.budgetKb, br, gz, files: chunks.length, over });
    if (over) {
      const largest = [...chunks].sort((a, b) => b.br - a.br).slice(0, 5);
      errors.push(
        [
          `${load.name} chargé à froid : ${kb(br)} kB de JavaScript (brotli) pour un budget de ${load.budgetKb} kB, en ${chunks.length} fichiers. Les plus gros :`,
          ...largest.map((c) => `    ${kb(c.br)} kB  ${c.file}\n             via ${chain(routeChains, c.key)}`),
        ].join('\n'),
      );
    }
  }

  const laterChunks = [];
  const seenFiles = new Set();
  for (const key of Object.keys(manifest)) {
    const file = manifest[key].file;
    if (!isJs(key) || entryClosure.has(key) || seenFiles.has(file)) continue;
    seenFiles.add(file);
    const { br, gz } = sizeOf(key);
    const over = br > LATER_CHUNK_BUDGET_KB * 1000;
    laterChunks.push({ key, file, br, gz, chain: chain(anyRoute, key), over });
    if (over) {
      errors.push(`Morceau chargé plus tard ${file} : ${kb(br)} kB (brotli) pour un budget de ${LATER_CHUNK_BUDGET_KB} kB par morceau.\n    via ${chain(anyRoute, key)}`);
    }
  }
  laterChunks.sort((a, b) => b.br - a.br);
  return { coldLoads, laterChunks, errors };
}

/** The report as printed: a Markdown table of the cold loads and the largest later chunks. */
export function report({ coldLoads, laterChunks }) {
  const lines = [
    '| Chargement à froid | JS brotli (kB) | gzip (kB) | Fichiers | Budget (kB) | |',
    '|---|---:|---:|---:|---:|---|',
    ...coldLoads.map((c) => `| ${c.name} | ${kb(c.br)} | ${kb(c.gz)} | ${c.files} | ${c.budgetKb} | ${c.over ? '✗ dépassé' : '✓'} |`),
    '',
    `| Morceaux chargés plus tard (${laterChunks.length}), les plus gros | JS brotli (kB) | gzip (kB) | Budget (kB) | |`,
    '|---|---:|---:|---:|---|',
    ...laterChunks
      .filter((c, i) => i < 5 || c.over)
      .map((c) => `| \`${c.file}\` | ${kb(c.br)} | ${kb(c.gz)} | ${LATER_CHUNK_BUDGET_KB} | ${c.over ? '✗ dépassé' : '✓'} |`),
  ];
  return lines.join('\n');
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dist = path.resolve(process.argv[2] ?? path.join(root, 'apps/web/dist'));
  const result = measure(dist);
  console.log(`Budget de taille du web (${path.relative(process.cwd(), dist) || dist}) : JavaScript brotli, 1 kB = 1 000 octets\n`);
  if (result.coldLoads.length > 0 || result.laterChunks.length > 0) console.log(`${report(result)}\n`);
  if (result.errors.length > 0) {
    console.error(`✗ Budget de taille dépassé ou non mesurable (size budget exceeded):\n\n${result.errors.map((e) => `- ${e}`).join('\n\n')}\n`);
    process.exit(1);
  }
  console.log('✓ Budget de taille respecté.');
}

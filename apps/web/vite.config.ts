import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { pageFrames } from './src/lib/page-frame';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } };

/**
 * Which entry points of the app import each module statically, found once the module graph is
 * built: from a root (a layout, a page), all it imports without `import()`. What a dialog, a form
 * or a date picker loads lazily is reached by no root.
 */
const BARREL = /[\\/]packages[\\/]contract[\\/]src[\\/]index\.ts$/;

function staticReach(roots: RegExp): { plugin: Plugin; rootsReaching: (id: string) => ReadonlySet<string>; isDynamicEntry: (id: string) => boolean } {
  const reach = new Map<string, Set<string>>();
  const dynamicEntries = new Set<string>();
  const none: ReadonlySet<string> = new Set();
  return {
    rootsReaching: (id) => reach.get(id) ?? none,
    isDynamicEntry: (id) => dynamicEntries.has(id),
    plugin: {
      name: 'flotte:static-reach',
      apply: 'build',
      buildEnd() {
        reach.clear();
        dynamicEntries.clear();
        for (const id of this.getModuleIds()) for (const imported of this.getModuleInfo(id)?.dynamicallyImportedIds ?? []) dynamicEntries.add(imported);
        for (const root of [...this.getModuleIds()].filter((id) => roots.test(id) && !id.includes('.test.'))) {
          const seen = new Set<string>();
          const stack = [root];
          while (stack.length > 0) {
            const id = stack.pop()!;
            if (seen.has(id)) continue;
            seen.add(id);
            if (!reach.has(id)) reach.set(id, new Set());
            reach.get(id)!.add(root);
            // Not through a barrel (the contract's index re-exports every module, but an importer
            // gets only what it names, the rest being left out by tree shaking): its modules would
            // seem imported by every page.
            if (!BARREL.test(id)) stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
          }
        }
      },
    },
  };
}

/** The modules of the pages above, and their chunks (named after their module). */
const RARE_SOURCE =
  /[\\/]src[\\/]app[\\/](routes[\\/](onboarding[\\/][^\\/]+|survey|auth[\\/]signup-confirmation|app[\\/](superadmin-alerts|plans|plans-checkout|plans-confirmation|payment-history)|superadmin[\\/](organizations|settings)|root[\\/]spaces)|layouts[\\/](onboarding-layout|root-layout))\.tsx$/;
const RARE_PAGE =
  /(^|\/)(welcome|company|members|finish|onboarding-layout|survey|signup-confirmation|superadmin-alerts|organizations|plans|plans-checkout|plans-confirmation|payment-history|settings|spaces|root-layout)-[\w-]+\.js$/;

const LOGGED_LAYOUT = /[\\/]src[\\/]app[\\/]layouts[\\/]logged-layout\.tsx$/;
const LOGGED_PAGE = /[\\/]src[\\/]app[\\/]routes[\\/]app[\\/][^\\/]+\.tsx$/;
const LOGIN = /[\\/]src[\\/]app[\\/](layouts[\\/]public-layout|routes[\\/]auth[\\/]login)\.tsx$/;
/** The entry (index.html's script): what it imports statically runs on every page. */
const ENTRY = /[\\/]src[\\/]main\.tsx$/;
const reach = staticReach(new RegExp(`${ENTRY.source}|${LOGGED_LAYOUT.source}|${LOGGED_PAGE.source}|${LOGIN.source}`));

/**
 * Shown at once by the logged-in pages: imported statically by their layout or by two of their
 * pages at least (a module of one page stays with that page), and not by the login page (it stays
 * light).
 */
function loggedShared(id: string): boolean {
  const roots = [...reach.rootsReaching(id)];
  if (roots.some((root) => LOGIN.test(root))) return false;
  // A seldom-entered page (RARE_SOURCE: the plans, the broker's and the operator's pages) does not
  // count: what three of them share stays out of every register's first load.
  return roots.some((root) => LOGGED_LAYOUT.test(root)) || roots.filter((root) => LOGGED_PAGE.test(root) && !RARE_SOURCE.test(root)).length >= 3;
}
/** Imported statically by a logged page (a seldom-entered one aside) or the logged layout. */
function loggedPageUses(id: string): boolean {
  return [...reach.rootsReaching(id)].some((root) => LOGGED_LAYOUT.test(root) || (LOGGED_PAGE.test(root) && !RARE_SOURCE.test(root)));
}
/** MUI's styling engine and base: what every MUI component needs. */
const MUI_CORE =
  /node_modules[\\/](@mui[\\/](system|utils|styled-engine|private-theming)[\\/]|@mui[\\/]material[\\/](styles|internal|utils|colors|transitions|className|useMediaQuery|SvgIcon|ButtonBase|Button|Typography|Paper|IconButton|Box|zero-styled|DefaultPropsProvider|CssBaseline|locale)[\\/]|@emotion[\\/]|stylis[\\/]|clsx[\\/]|react-is[\\/]|hoist-non-react-statics[\\/])/;
/** The other MUI components, the icons and TanStack Query (an icon a page shows is ≈ 0,2 kB: one file each cost as much again). */
const UI_LIBRARIES = /node_modules[\\/](@mui[\\/](material|icons-material)|@tanstack)[\\/]/;

const DASHBOARD = /[\\/]src[\\/]app[\\/]routes[\\/]app[\\/]dashboard\.tsx$/;
/** The web app's own modules. */
const APP_SOURCE = /[\\/]apps[\\/]web[\\/]src[\\/]/;
/** What the bundler adds to the entry: its runtime, Vite's preload helper and module preload polyfill, index.html. */
const BUNDLER_RUNTIME = /^\0?(rolldown[\\/]runtime|vite[\\/](preload-helper|modulepreload-polyfill))|(^|[\\/])index\.html$/;

/**
 * The chunk of a module on a phone's first load (issue 10): each file a page downloads costs
 * ≈ 430 bytes of response headers (Lighthouse counts them) and a request, and Rolldown's automatic
 * chunks are one per set of importers — lazy dialogs and forms included — which cut a register's
 * first load into 30-odd files, most of a few hundred bytes. Here a module goes by the first loads
 * that import it statically (the entry, the login page, the logged layout, each logged page but the
 * seldom-entered ones):
 * - the entry's, or the login page's and a logged page's at once → `boot`, the entry's chunk;
 * - the login page's alone → `login`;
 * - the logged layout's or three logged pages' (`loggedShared`) → `mui-core`, `ui` (the other
 *   libraries), or for the app's own modules `logged` (the layout's and the dashboard's, the page a
 *   session lands on) and `registers` (three pages' but neither of those: the register kit, which
 *   the dashboard and /parameters would download and run for nothing);
 * - the app's own modules of one or two logged pages → a chunk for that set of pages (`drivers`,
 *   `drivers+sinisters`).
 * Routes, layouts, a register's view and lazy dialogs stay chunks of their own (dynamic entries),
 * holding just their module; what only a dialog, a form or a picker imports is left to the automatic
 * chunks that load with it. A module imports only modules imported by at least the same first
 * loads, so these chunks import from chunks loaded by as many pages or more: no cycle between them.
 * Measured (bench/web-bytes.ts, 2026-11-27): the login page 9 → 4 files, a register 32–36 → 10–12.
 */
function firstLoadChunk(id: string): string | null {
  if (BUNDLER_RUNTIME.test(id)) return 'boot';
  // A route, a layout, a register's view, a lazy dialog: a chunk of its own, named after it in
  // Vite's manifest, which the server and the size budget read (in a group, Rolldown leaves it out
  // of the manifest; and a page's module in a group was built without its exports: « Export
  // 'vehicules_exports' is not defined », the page failed).
  if (reach.isDynamicEntry(id)) return null;
  const roots = [...reach.rootsReaching(id)];
  if (roots.length === 0) return null;
  const byLogin = roots.some((root) => LOGIN.test(root));
  const pages = roots.filter((root) => LOGGED_PAGE.test(root) && !RARE_SOURCE.test(root));
  const byLogged = pages.length > 0 || roots.some((root) => LOGGED_LAYOUT.test(root));
  if (roots.some((root) => ENTRY.test(root)) || (byLogin && byLogged)) return 'boot';
  if (byLogin) return 'login';
  if (loggedShared(id)) {
    if (MUI_CORE.test(id)) return 'mui-core';
    if (UI_LIBRARIES.test(id)) return 'ui';
    return roots.some((root) => LOGGED_LAYOUT.test(root) || DASHBOARD.test(root)) ? 'logged' : 'registers';
  }
  if (pages.length > 0) return pages.map((root) => path.basename(root, '.tsx')).sort().join('+');
  return null;
}

/** firstLoadChunk's shared chunks and their priority (a higher one takes a module first). */
const FIRST_LOAD_GROUPS = [
  ['boot', 9],
  ['login', 8],
  ['mui-core', 7],
  ['ui', 6],
  ['logged', 5],
  ['registers', 5],
] as const;

/**
 * The logged-in pages' frames (src/lib/page-frame.ts) written beside the manifest, in the dot
 * folder the server reads and never serves: the server puts each in its page's HTML (issue 10).
 */
const pageFramesFile: Plugin = {
  name: 'flotte:page-frames',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: '.vite/page-frames.json', source: JSON.stringify(pageFrames()) });
  },
};

/** MUI's locales build their number formatter lazily (src/lib/mui-format-number.ts says why). */
const lazyMuiNumberFormat: Plugin = {
  name: 'flotte:lazy-mui-number-format',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === './utils/buildFormatNumber.mjs' && importer && /[\\/]@mui[\\/]material[\\/]locale[\\/]/.test(importer)) {
      return path.resolve(here, 'src/lib/mui-format-number.ts');
    }
    return null;
  },
};

/**
 * React Router's package points every import at its development build (dev warnings on); the
 * build takes its production twin, the same code with the warnings off.
 */
const reactRouterProduction: Plugin = {
  name: 'flotte:react-router-production',
  apply: 'build',
  config: () => ({ resolve: { alias: { 'react-router': path.resolve(here, '../../node_modules/react-router/dist/production/index.mjs') } } }),
};

export default defineConfig({
  plugins: [react(), reach.plugin, pageFramesFile, lazyMuiNumberFormat, reactRouterProduction],
  resolve: {
    alias: {
      // Compile the contract from source: no build step between an edit there and the web.
      '@flotte/contract': path.resolve(here, '../../packages/contract/src/index.ts'),
    },
  },
  server: { proxy: api },
  preview: { proxy: api },
  // The manifest (dist/.vite/, never served: dot folder) tells scripts/size-budget.mjs which
  // chunks each route loads.
  build: {
    // Pages entered from a link of their own, seldom from the app's menu (the onboarding after a
    // signup, a survey's link, the broker's consoles): their chunks' dependencies are not listed in
    // the entry for preloading — the list is the entry's, which every page downloads first, and each
    // file name in it costs every phone (issue 10). They load their imports when opened.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'js' && RARE_PAGE.test(_file) ? [] : deps),
    },
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    manifest: true,
    rolldownOptions: {
      output: {
        // Chunks named by their hash alone: every chunk's file name is written in the entry's
        // preload list and in the imports of the others, which every phone downloads (issue 10);
        // the manifest (and so the size budget's report) still says which modules each holds. The
        // seldom-entered pages keep their names, which RARE_PAGE matches.
        chunkFileNames: (chunk) => (RARE_SOURCE.test(chunk.facadeModuleId ?? '') ? 'assets/[name]-[hash].js' : 'assets/[hash].js'),
        // A phone's first load (issue 10, decision 016): a few chunks per page (firstLoadChunk
        // above) rather than thirty — brotli compresses them ≈ 10 % better together, and each file
        // costs its headers. What only a dialog, a form or a picker needs is left to the automatic
        // chunks that load with it.
        codeSplitting: {
          groups: [
            // Each with what its modules import that a group before it does not hold: the
            // contract's constants and labels among them (firstLoadChunk does not see through the
            // contract's index), and MUI's inner modules (a split inside MUI ran modules out of
            // order: « Cannot read properties of undefined (reading 'muiName') »). Before the charts'
            // group, whose dependencies it would take.
            ...FIRST_LOAD_GROUPS.map(([name, priority]) => ({ name, priority, test: (id: string) => firstLoadChunk(id) === name })),
            // A page's own modules (and those it shares with one other page only), the app's alone: a
            // library a page imports may be imported by another page's dialog or tooltip, which would
            // then download the page. Their own imports stay where they are, else a contract module
            // that two pages import would be taken by the first page's chunk.
            {
              name: (id) => {
                const chunk = firstLoadChunk(id);
                return chunk && APP_SOURCE.test(id) && !FIRST_LOAD_GROUPS.some(([name]) => name === chunk) ? chunk : null;
              },
              debugName: 'pages',
              priority: 4,
              includeDependenciesRecursively: false,
            },
            // MUI's utilities a logged page imports that the chunks above do not hold (one or two
            // pages use them): apart, else the charts' group (below) takes them with its own
            // dependencies and such a page downloads the charts.
            { name: 'mui-utils', priority: 3, test: (id) => !loggedShared(id) && loggedPageUses(id) && /node_modules[\\/]@mui[\\/]utils[\\/]/.test(id) },
            // The dashboard's charts (MUI X Charts, loaded after its figures): d3 and the charts'
            // internals apart from the charts, so that no later chunk passes 60 kB brotli. (With
            // includeDependenciesRecursively: false the built dashboard failed at run time: modules
            // ran out of order.)
            { name: 'charts-vendor', priority: 1, test: /node_modules[\\/](@mui[\\/](x-charts-vendor|x-internals|x-internal-gestures|x-charts[\\/](ChartsLegend|ChartsLabel))|reselect|bezier-easing|d3-shape|d3-path)[\\/]/ },
          ],
        },
      },
    },
  },
});

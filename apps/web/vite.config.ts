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
function staticReach(roots: RegExp): { plugin: Plugin; rootsReaching: (id: string) => ReadonlySet<string> } {
  const reach = new Map<string, Set<string>>();
  const none: ReadonlySet<string> = new Set();
  return {
    rootsReaching: (id) => reach.get(id) ?? none,
    plugin: {
      name: 'flotte:static-reach',
      apply: 'build',
      buildEnd() {
        reach.clear();
        for (const root of [...this.getModuleIds()].filter((id) => roots.test(id) && !id.includes('.test.'))) {
          const seen = new Set<string>();
          const stack = [root];
          while (stack.length > 0) {
            const id = stack.pop()!;
            if (seen.has(id)) continue;
            seen.add(id);
            if (!reach.has(id)) reach.set(id, new Set());
            reach.get(id)!.add(root);
            stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
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
const reach = staticReach(new RegExp(`${LOGGED_LAYOUT.source}|${LOGGED_PAGE.source}|${LOGIN.source}`));

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
/** The register kit's pieces shown by every register (src/components/register). */
const REGISTER_KIT = /[\\/]src[\\/]components[\\/]register[\\/](search-field|register-error-state|register-pagination|register-actions|use-list-search-params)\.tsx?$/;
/** The other MUI components, the icons and TanStack Query (an icon a page shows is ≈ 0,2 kB: one file each cost as much again). */
const UI_LIBRARIES = /node_modules[\\/](@mui[\\/](material|icons-material)|@tanstack)[\\/]/;

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
        // A phone's first load (issue 10, decision 016): the entry's static imports in one chunk;
        // the libraries a logged-in page shows at once (MUI, TanStack Query) in two shared chunks
        // rather than forty small ones — brotli compresses them ≈ 10 % better together, and each
        // file costs its headers. What only a dialog, a form or a picker needs is left to the
        // automatic chunks that load with it.
        codeSplitting: {
          groups: [
            { name: 'boot', priority: 3, tags: ['$initial'] },
            { name: 'mui-core', priority: 2, test: (id) => loggedShared(id) && MUI_CORE.test(id) },
            // MUI's utilities a logged page imports that the two chunks above do not hold (one or two
            // pages use them): apart, else the charts' group (below) takes them with its own
            // dependencies and such a page downloads the charts.
            { name: 'mui-utils', priority: 2, test: (id) => !loggedShared(id) && loggedPageUses(id) && /node_modules[\\/]@mui[\\/]utils[\\/]/.test(id) },
            { name: 'ui', priority: 1, test: (id) => loggedShared(id) && UI_LIBRARIES.test(id) },
            // The register kit's pieces every register shows (search, pagination, error state,
            // actions) in one chunk, whatever other page also uses a few of them (a lazy section,
            // a rare page): otherwise each set of users gets its own small chunk. Only these
            // modules: their dependencies stay where they were (the login's among them).
            { name: 'register-kit', priority: 1, includeDependenciesRecursively: false, test: (id) => loggedShared(id) && REGISTER_KIT.test(id) },
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

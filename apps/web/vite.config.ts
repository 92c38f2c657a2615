import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } };

/**
 * The modules each area of the app imports statically, found once the module graph is built: from
 * its layout and every page under it, all they import without `import()`. What a dialog, a form
 * or a date picker loads lazily is not among them.
 */
function staticAreas(roots: Record<'logged' | 'login', RegExp>): { plugin: Plugin; has: (area: 'logged' | 'login', id: string) => boolean } {
  const found = { logged: new Set<string>(), login: new Set<string>() };
  return {
    has: (area, id) => found[area].has(id),
    plugin: {
      name: 'flotte:static-areas',
      apply: 'build',
      buildEnd() {
        for (const area of ['logged', 'login'] as const) {
          const seen = found[area];
          seen.clear();
          const stack = [...this.getModuleIds()].filter((id) => roots[area].test(id) && !id.includes('.test.'));
          while (stack.length > 0) {
            const id = stack.pop()!;
            if (seen.has(id)) continue;
            seen.add(id);
            stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
          }
        }
      },
    },
  };
}

const areas = staticAreas({
  logged: /[\\/]src[\\/]app[\\/](layouts[\\/]logged-layout|routes[\\/]app[\\/][^\\/]+)\.tsx$/,
  login: /[\\/]src[\\/]app[\\/](layouts[\\/]public-layout|routes[\\/]auth[\\/]login)\.tsx$/,
});
/** Needed at once by the logged-in pages, and not by the login page (it stays light). */
const loggedOnly = (id: string) => areas.has('logged', id) && !areas.has('login', id);
/** MUI's styling engine and base: what every MUI component needs. */
const MUI_CORE =
  /node_modules[\\/](@mui[\\/](system|utils|styled-engine|private-theming)[\\/]|@mui[\\/]material[\\/](styles|internal|utils|colors|transitions|className|useMediaQuery|SvgIcon|ButtonBase|Button|Typography|Paper|IconButton|Box|zero-styled|DefaultPropsProvider|CssBaseline|locale)[\\/]|@emotion[\\/]|stylis[\\/]|clsx[\\/]|react-is[\\/]|hoist-non-react-statics[\\/])/;
/** The other MUI components and TanStack Query. */
const UI_LIBRARIES = /node_modules[\\/](@mui[\\/]material|@tanstack)[\\/]/;

export default defineConfig({
  plugins: [react(), areas.plugin],
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
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    manifest: true,
    rolldownOptions: {
      output: {
        // A phone's first load (issue 10, decision 016): the entry's static imports in one chunk;
        // the libraries a logged-in page shows at once (MUI, TanStack Query) in two shared chunks
        // rather than forty small ones — brotli compresses them ≈ 10 % better together, and each
        // file costs its headers. What only a dialog, a form or a picker needs is left to the
        // automatic chunks that load with it.
        codeSplitting: {
          groups: [
            { name: 'boot', priority: 3, tags: ['$initial'] },
            { name: 'mui-core', priority: 2, test: (id) => loggedOnly(id) && MUI_CORE.test(id) },
            { name: 'ui', priority: 1, test: (id) => loggedOnly(id) && UI_LIBRARIES.test(id) },
          ],
        },
      },
    },
  },
});

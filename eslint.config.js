import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(new URL(import.meta.url).pathname);

/**
 * Architecture boundaries (STYLE.md habits 3 and 11), checked on resolved paths:
 * - an API module never reaches into another module's repository (it calls its service);
 * - a web feature never imports another feature (shared code lives in components/ or lib/);
 * - the contract never imports Drizzle or the apps; the web never imports the API.
 */
const boundaries = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = path.relative(root, context.filename);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const target = source.startsWith('.') ? path.relative(root, path.resolve(path.dirname(context.filename), source)) : source;
      const apiModule = file.match(/^apps\/api\/src\/modules\/([^/]+)\//);
      const targetModule = target.match(/^apps\/api\/src\/modules\/([^/]+)\/.*\.repository(\.js)?$/);
      if (apiModule && targetModule && targetModule[1] !== apiModule[1]) {
        context.report({ node, message: `Le module ${apiModule[1]} ne doit pas importer le repository de ${targetModule[1]} : passez par son service.` });
      }
      const webFeature = file.match(/^apps\/web\/src\/features\/([^/]+)\//);
      const targetFeature = target.match(/^apps\/web\/src\/features\/([^/]+)(\/|$)/);
      if (webFeature && targetFeature && targetFeature[1] !== webFeature[1]) {
        context.report({ node, message: `La fonctionnalité ${webFeature[1]} ne doit pas importer ${targetFeature[1]} : partagez via components/ ou lib/.` });
      }
      if (file.startsWith('packages/contract/') && (/^drizzle-orm|^pg$|^@electric-sql/.test(target) || target.startsWith('apps/'))) {
        context.report({ node, message: 'Le contrat ne dépend que de zod : ni base de données ni application.' });
      }
      if (file.startsWith('apps/web/') && (target.startsWith('apps/api') || target.startsWith('@flotte/api'))) {
        context.report({ node, message: "Le web ne parle à l'API que par HTTP et le contrat." });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/coverage/**', 'apps/api/drizzle/**', '**/*.d.ts', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { local: { rules: { boundaries } } },
    rules: {
      'local/boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // MUI 9's color prop takes a palette name: 'text.secondary' is silently ignored (the text stays black).
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='color'] > Literal[value=/^text\\./]",
          message: "MUI 9 ignore color=\"text.…\" : écrivez color=\"textSecondary\" (ou sx={{ color: 'text.secondary' }}).",
        },
      ],
    },
  },
  {
    // MUI's Menu brings its popover, modal and transitions (≈ 8 kB brotli) into the first load of the
    // page that imports it: menus use components/menu/lazy-menu.tsx (decision 016).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/components/menu/menu-parts.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@mui/material/Menu',
              allowTypeImports: true,
              message: 'Menu de components/menu/lazy-menu : chargé à la première ouverture, hors du premier chargement de la page.',
            },
          ],
        },
      ],
    },
  },
  {
    // Command-line entry points talk to the person running them.
    files: ['apps/api/src/server.ts', 'apps/api/src/serve.ts', 'apps/api/scripts/**', 'scripts/**', 'bench/**', 'e2e/**', 'apps/web/scripts/**'],
    rules: { 'no-console': 'off' },
  },
);

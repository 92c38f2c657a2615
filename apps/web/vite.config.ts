import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } };

export default defineConfig({
  plugins: [react()],
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
        codeSplitting: {
          groups: [{ name: 'boot', tags: ['$initial'] }],
        },
      },
    },
  },
});

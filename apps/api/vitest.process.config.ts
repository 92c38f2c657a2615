import { defineConfig } from 'vitest/config';

/**
 * Tests on real processes (test/process/): the built server and maintenance commands on temporary
 * data folders — the lock, kill -9, backups, restore, a damaged folder, the move to PostgreSQL.
 * Run by `npm test` after the build (scripts/test.mjs).
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['test/process/**/*.process.ts'],
    globalSetup: ['test/process/global-setup.ts'],
    setupFiles: ['test/setup-file.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});

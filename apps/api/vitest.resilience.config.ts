import { defineConfig } from 'vitest/config';

/**
 * The slow suites of issue 20 (test/resilience/): the built server as real processes under load,
 * SIGTERM, kill -9, a cut or frozen database, a full disk, slow clients, and the scanners.
 * One file at a time: each measures the machine and must not share it with another.
 * Run by `npm run test:resilience` (scripts/resilience.mjs), after the build.
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['test/resilience/**/*.resilience.ts'],
    globalSetup: ['test/process/global-setup.ts'],
    setupFiles: ['test/setup-file.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 900_000,
    hookTimeout: 300_000,
  },
});

import { defineConfig } from 'vitest/config';
import processConfig from './vitest.process.config.js';

/**
 * The slow suites of issue 20 (test/resilience/): the built server as real processes under load,
 * SIGTERM, kill -9, a cut or frozen database, a full disk, slow clients, and the scanners.
 * The process suites' setup (test/process/harness.ts and its global setup) on other files, one at
 * a time: each measures the machine and must not share it with another.
 * Run by `npm run test:resilience` (scripts/resilience.mjs), after the build.
 */
export default defineConfig({
  ...processConfig,
  test: {
    ...processConfig.test,
    include: ['test/resilience/**/*.resilience.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 900_000,
    hookTimeout: 300_000,
  },
});

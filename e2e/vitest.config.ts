import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.e2e.ts'],
    globalSetup: ['support/global-setup.ts'],
    // One browser, one server: files run one after the other, tests in order.
    fileParallelism: false,
    testTimeout: 60_000,
    // A page load on 2 cores shared with other suites takes seconds (token refresh, then the list):
    // expect.poll's 1 s default fails on a loaded machine, not on a broken page.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
  },
});

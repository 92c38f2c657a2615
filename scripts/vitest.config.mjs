import { defineConfig } from 'vitest/config';

// The tests of the repository's own scripts (scripts/*.test.mjs), run by `npm test`.
export default defineConfig({
  test: { include: ['*.test.mjs'], testTimeout: 30_000 },
});

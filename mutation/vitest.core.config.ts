import { defineConfig } from 'vitest/config';

/**
 * The tests that pin the shared rules in `core/`, and nothing else, so each mutant of core costs
 * one short run. The second reporter makes a test file that fails to load count as a failed test
 * (see the file).
 */
export default defineConfig({
  test: {
    include: ['core/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', './mutation/load-failure-reporter.ts'],
  },
});

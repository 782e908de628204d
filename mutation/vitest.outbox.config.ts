import { defineConfig } from 'vitest/config';

/**
 * The tests that pin the outbox and the drafts, and nothing else, so each mutant of
 * `src/lib/outbox/` and `src/lib/drafts/` is judged in seconds. Same settings as the root config's
 * web project (the app's Vite config, jsdom, fake-indexeddb through the setup file). The second
 * reporter makes a test file that fails to load count as a failed test (see the file).
 */
export default defineConfig({
  test: {
    reporters: ['default', './mutation/load-failure-reporter.ts'],
    projects: [
      {
        extends: './vite.config.ts',
        test: {
          name: 'web',
          include: ['src/lib/outbox/**/*.test.{ts,tsx}', 'src/lib/drafts/**/*.test.{ts,tsx}', 'sw/outbox-sync.test.ts'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          testTimeout: 20_000,
          // Stryker reruns these files once per mutant: setting up jsdom again for each file was
          // most of that time. The files clear the database and the clock before each test, so
          // they do not need a fresh module registry each.
          isolate: false,
        },
      },
    ],
  },
});

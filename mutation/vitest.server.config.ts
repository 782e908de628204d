import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The server tests that pin the rules guarding data (idempotency, rate and content limits, login
 * lockout, group access, paging, notification fan-out and settings), on SQLite only: Stryker runs these for
 * every mutant of `stryker.server.config.mjs`, so the list stays as short as the rules allow.
 * The 100,000-member fan-out test is left out on purpose (minutes per run); its batching rules
 * are pinned by the small batches in `fanout-batches.test.ts`. The second reporter makes a test
 * file that fails to load count as a failed test (see the file).
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: [
      'server/tests/lib/*.test.ts',
      'server/tests/posts/content-limits.test.ts',
      'server/tests/auth/login.test.ts',
      'server/tests/auth/lockout-burst.test.ts',
      'server/tests/auth/lockout-rules.test.ts',
      'server/tests/groups/private-matrix.test.ts',
      'server/tests/groups/access-rules.test.ts',
      'server/tests/groups/visibility-callers.test.ts',
      'server/tests/hostile/paging.test.ts',
      'server/tests/notifications/generation.test.ts',
      'server/tests/notifications/collapse.test.ts',
      'server/tests/notifications/fanout-batches.test.ts',
      'server/tests/notifications/fanout-events.test.ts',
      'server/tests/notifications/notification-prefs.test.ts',
      // Who an edit of a post tells (only the newly mentioned, once).
      'server/tests/posts/edit.test.ts',
    ],
    environment: 'node',
    reporters: ['default', './mutation/load-failure-reporter.ts'],
    env: { KRUH_TEST_DB: 'sqlite' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// @ts-check
/**
 * Mutation testing of the server's rules that guard data, against the tests that pin them
 * (`vitest.server.config.ts`, SQLite only). Run from the repository root:
 *   npx stryker run mutation/stryker.server.config.mjs            (incremental, see below)
 *   npx stryker run mutation/stryker.server.config.mjs --force    (every mutant again: 45-60 minutes)
 * Server tests build a whole app per file, so coverage is measured per test and each mutant runs
 * only the tests that reach it.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.server.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // Every server test file builds its app and users in beforeAll, so most of these rules also run
  // outside any one test, and a mutant seen there (a "static" mutant) would rerun every file:
  // hours per run. Mutants reached only there (module-level constants and schemas) are reported as
  // ignored; the ones a test reaches run against the tests that reach them.
  ignoreStatic: true,
  // Two cores shared by the whole machine; each worker builds whole apps, so more only queues.
  concurrency: 1,
  mutate: [
    'server/src/lib/idempotency.ts',
    'server/src/lib/rate-limit.ts',
    'server/src/lib/content-limits.ts',
    'server/src/modules/auth/login-lockout.ts',
    'server/src/modules/groups/group-access.ts',
    'server/src/lib/paging.ts',
    'server/src/modules/notifications/notifications.fanout.ts',
    'server/src/modules/notifications/notification-prefs.ts',
  ],
  ignorePatterns: ['/dist', '/dev-dist', '/data', '/coverage', '/public', '/tests/e2e'],
  // Incremental: the previous report is the baseline, and only mutants whose code changed, or whose
  // covering tests changed or are new, run again (`--force` runs them all). The report is written
  // back to the same file, so the committed mutation.json is both the result and the next baseline;
  // no json reporter, which would write the same file a second time. The HTML report is one page
  // for every area, built by `npm run mutation:summary`.
  incremental: true,
  incrementalFile: 'reports/mutation/server/mutation.json',
  reporters: ['clear-text', 'progress'],
  thresholds: { high: 90, low: 85, break: null },
  timeoutMS: 20_000,
  cleanTempDir: true,
};

export default config;

// @ts-check
/**
 * Mutation testing of the outbox and the drafts: the promise that what a person writes offline is
 * neither lost nor sent twice. Run from the repository root:
 *   npx stryker run mutation/stryker.outbox.config.mjs            (incremental; `--force` runs all)
 * (add `--mutate src/lib/outbox/outbox.ts` to work on one file).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'mutation/vitest.outbox.config.ts', related: false },
  mutate: ['src/lib/outbox/**/*.ts', 'src/lib/drafts/**/*.ts', '!**/*.test.ts', '!**/*.test.tsx'],
  coverageAnalysis: 'perTest',
  // Mutants of values a module computes once as it loads (its handler objects, constants) are only
  // active if the module loads again under them, which the shared module registry of the test
  // config (isolate: false, for speed) never does: they would show as survivors that no test could
  // see. Applied by hand, each fails its kind's tests; they are left out of the score here.
  ignoreStatic: true,
  // The machine is shared: one test process.
  concurrency: 1,
  timeoutMS: 20_000,
  // Incremental, as the server area: the committed report is the baseline, only mutants whose code
  // or covering tests changed run again (`--force` runs them all), and the report is written back to
  // the same file. The HTML report is one page for every area, built by `npm run mutation:summary`.
  incremental: true,
  incrementalFile: 'reports/mutation/outbox/mutation.json',
  reporters: ['clear-text', 'progress'],
  // The web tests need neither the server nor the built app in the sandbox.
  ignorePatterns: ['/dist', '/dev-dist', '/data', '/coverage', '/server', '/tests', '/reports'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};

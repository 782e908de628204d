// @ts-check
/**
 * Mutation testing of the outbox and the drafts: the promise that what a person writes offline is
 * neither lost nor sent twice. Run from the repository root:
 *   npx stryker run mutation/stryker.outbox.config.mjs
 * (add `--mutate src/lib/outbox/outbox.ts` to work on one file).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'mutation/vitest.outbox.config.ts', related: false },
  mutate: ['src/lib/outbox/**/*.ts', 'src/lib/drafts/**/*.ts', '!**/*.test.ts', '!**/*.test.tsx'],
  coverageAnalysis: 'perTest',
  // The machine is shared: one test process.
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/outbox/index.html' },
  jsonReporter: { fileName: 'reports/mutation/outbox/mutation.json' },
  // The web tests need neither the server nor the built app in the sandbox.
  ignorePatterns: ['/dist', '/dev-dist', '/data', '/coverage', '/server', '/tests', '/reports'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};

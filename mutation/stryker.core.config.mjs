// @ts-check
// Mutation testing of the shared rules in core/: `npm run mutation:core`.
// CI sets MUTATION_BREAK (see .ci/run) so a fall of the score below it fails the build.
const breakAt = process.env.MUTATION_BREAK ? Number(process.env.MUTATION_BREAK) : null;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.core.config.ts', related: false },
  mutate: ['core/*.ts', '!core/*.test.ts'],
  coverageAnalysis: 'perTest',
  // Two cores on the build machines; one more worker than that only queues.
  concurrency: 2,
  ignorePatterns: ['/dist', '/dev-dist', '/data', '/coverage'],
  // The HTML report is one page for every area, built from the JSON reports by `npm run mutation:summary`.
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/core/mutation.json' },
  thresholds: { high: 95, low: 90, break: breakAt },
};

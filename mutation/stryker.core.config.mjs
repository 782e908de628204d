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
  // Incremental, as the other areas: the committed report is the baseline, so CI runs again only
  // the mutants whose code or covering tests changed, while the score still counts every mutant
  // (`--force` runs them all). The report is written back to the same file; the HTML report is one
  // page for every area, built from the JSON reports by `npm run mutation:summary`.
  incremental: true,
  incrementalFile: 'reports/mutation/core/mutation.json',
  reporters: ['clear-text', 'progress'],
  thresholds: { high: 95, low: 90, break: breakAt },
};

import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { fullMatrixDue } from './tests/support/full-matrix';

const serverTests = ['server/tests/**/*.test.ts', 'core/**/*.test.ts'];

/**
 * Web test files share a worker's modules and jsdom, which spares each file seconds of loading
 * them; fresh-page.ts gives each the app's modules anew and an empty IndexedDB. A module replaced
 * with vi.mock stays replaced for the worker's later files, so a file that mocks runs on its own.
 */
const webTests = ['src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'];
const mockingWebTests = [
  ...globSync(webTests).filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8'))),
];
const webProject = (name: string, include: string[], exclude: string[], isolate: boolean): TestProjectInlineConfiguration => ({
  extends: './vite.config.ts',
  test: {
    name,
    include,
    exclude,
    environment: 'jsdom',
    setupFiles: ['./src/test/fresh-page.ts', './src/test/setup.ts'],
    isolate,
    testTimeout: 20_000,
  },
});

/**
 * One `npm test` for the repository: the pure rules, the server on SQLite (and on PostgreSQL when
 * TEST_DATABASE_URL is set), and the web app under jsdom with fake-indexeddb.
 */
const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'server-sqlite',
      include: serverTests,
      environment: 'node',
      env: { KRUH_TEST_DB: 'sqlite' },
      // Files share a worker's modules: loading the server's (Fastify, the AWS SDK, sharp…) again
      // for each file was most of a file's time. Each test app still has its own database, data
      // folder and settings, which is all a file may change.
      isolate: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  webProject('web', webTests, mockingWebTests, false),
  webProject('web-mocking', mockingWebTests, [], true),
  {
    // Weighs the last `npm run build` (CI builds before testing); skipped when there is none.
    test: {
      name: 'build',
      include: ['tests/build/**/*.test.ts'],
      environment: 'node',
    },
  },
];

if (process.env.TEST_DATABASE_URL) {
  projects.push({
    test: {
      name: 'server-postgres',
      include: ['server/tests/**/*.test.ts'],
      environment: 'node',
      env: { KRUH_TEST_DB: 'postgres' },
      globalSetup: ['./server/tests/helpers/pg-global-setup.ts'],
      isolate: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  });
}

if (process.env.KRUH_E2E !== 'off') {
  const e2e = (name: string, include: string[], env: Record<string, string>, pg: boolean, exclude: string[] = []): TestProjectInlineConfiguration => ({
    test: {
      name,
      include,
      exclude,
      environment: 'node',
      env,
      ...(pg ? { globalSetup: ['./server/tests/helpers/pg-global-setup.ts'] } : {}),
      // As for the server tests: every file starts its own server, so they may share modules.
      isolate: false,
      testTimeout: 120_000,
      hookTimeout: 240_000,
      // Each file starts its own server (own data folder, database and port) and its own browser,
      // so files of one project may run side by side like any other.
      // No second try: the tests wait for what they check, so a failure is a fault to look at (its
      // screenshots and console log, and with KRUH_E2E_TRACE=always its trace, stay in test-results/).
    },
  });
  // Every browser test on SQLite at phone size, but for half the journeys, which run at desktop
  // size instead: on PostgreSQL when there is one. The journeys alternate between the two pairs by
  // name, so each runs once and both pairs walk through half of them. The full matrix runs every
  // journey in all four pairs (adding desktop on SQLite and phone on PostgreSQL): with
  // KRUH_E2E_MATRIX=full (`npm run test:full`), and whenever the files that tell the pairs apart
  // changed since a full run passed (tests/support/full-matrix.ts), so CI runs it for the changes
  // it can catch.
  const journeys = ['tests/e2e/journeys/**/*.test.ts'];
  const full = process.env.KRUH_E2E_MATRIX === 'full' || (process.env.KRUH_E2E_MATRIX !== 'default' && fullMatrixDue(fileURLToPath(new URL('.', import.meta.url))));
  if (full) console.log('Running the full browser matrix (KRUH_E2E_MATRIX=default skips it).');
  const atDesktop = full ? journeys : globSync(journeys).sort().filter((_, i) => i % 2 === 1);
  const pg = !!process.env.TEST_DATABASE_URL;
  projects.push(e2e('e2e', ['tests/e2e/**/*.test.ts'], { KRUH_E2E_VIEWPORT: 'phone' }, false, full ? [] : atDesktop));
  if (pg) projects.push(e2e('e2e-postgres-desktop', atDesktop, { KRUH_E2E_DB: 'postgres', KRUH_E2E_VIEWPORT: 'desktop' }, true));
  if (full || !pg) projects.push(e2e('e2e-desktop', atDesktop, { KRUH_E2E_VIEWPORT: 'desktop' }, false));
  if (full && pg) projects.push(e2e('e2e-postgres', journeys, { KRUH_E2E_DB: 'postgres', KRUH_E2E_VIEWPORT: 'phone' }, true));
}

/**
 * Test files run side by side, one per core. Vitest's own default is one worker fewer than the
 * cores, which on the 2-core build machines is a single worker: the second core then idles while
 * a file waits on PostgreSQL, on Chromium or on a server it started. Every file keeps its own
 * database schema, data folder, ports and browser, so files may overlap. KRUH_TEST_WORKERS overrides.
 */
const maxWorkers = Number(process.env.KRUH_TEST_WORKERS) || Math.max(2, availableParallelism());

export default defineConfig({ test: { projects, maxWorkers, reporters: ['default', './tests/support/project-times.ts'] } });

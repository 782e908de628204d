import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

const serverTests = ['server/tests/**/*.test.ts', 'core/**/*.test.ts'];

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
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    extends: './vite.config.ts',
    test: {
      name: 'web',
      include: ['src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'],
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      testTimeout: 20_000,
    },
  },
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
      // One file at a time: each migrates a schema of its own, and Kysely's migrator reads every
      // schema's tables, so a migration running in another file can fail it ("column … does not
      // exist" while another schema's table is being altered).
      fileParallelism: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  });
}

if (process.env.KRUH_E2E !== 'off') {
  const e2e = (name: string, include: string[], env: Record<string, string>, pg: boolean): TestProjectInlineConfiguration => ({
    test: {
      name,
      include,
      environment: 'node',
      env,
      // On PostgreSQL one file at a time, for the reason the server-postgres project gives.
      ...(pg ? { globalSetup: ['./server/tests/helpers/pg-global-setup.ts'], fileParallelism: false } : {}),
      testTimeout: 120_000,
      hookTimeout: 240_000,
      // Each file starts its own server (own data folder, database schema and port) and its own
      // browser, so files of one project may run side by side like any other; the wait for pages
      // and servers is most of their time.
      // A real browser on a shared machine: one more try before a journey counts as failed. The
      // first try's screenshots, console log and trace stay in test-results/ to look into.
      retry: 1,
    },
  });
  // Every browser test on SQLite (journeys at phone size); the journeys again at desktop size, and
  // on PostgreSQL at both sizes when there is one.
  const journeys = ['tests/e2e/journeys/**/*.test.ts'];
  projects.push(e2e('e2e', ['tests/e2e/**/*.test.ts'], { KRUH_E2E_VIEWPORT: 'phone' }, false));
  projects.push(e2e('e2e-desktop', journeys, { KRUH_E2E_VIEWPORT: 'desktop' }, false));
  if (process.env.TEST_DATABASE_URL) {
    projects.push(e2e('e2e-postgres', journeys, { KRUH_E2E_DB: 'postgres', KRUH_E2E_VIEWPORT: 'phone' }, true));
    projects.push(e2e('e2e-postgres-desktop', journeys, { KRUH_E2E_DB: 'postgres', KRUH_E2E_VIEWPORT: 'desktop' }, true));
  }
}

/**
 * Test files run side by side, one per core. Vitest's own default is one worker fewer than the
 * cores, which on the 2-core build machines is a single worker: the second core then idles while
 * a file waits on PostgreSQL, on Chromium or on a server it started. Every file keeps its own
 * database schema, data folder, ports and browser, so files may overlap. KRUH_TEST_WORKERS overrides.
 */
const maxWorkers = Number(process.env.KRUH_TEST_WORKERS) || Math.max(2, availableParallelism());

export default defineConfig({ test: { projects, maxWorkers, reporters: ['default', './tests/support/project-times.ts'] } });

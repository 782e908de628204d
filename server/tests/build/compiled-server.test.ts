import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOutDir, compiledServer, REPO } from '../helpers/compiled-build';
import { startServerProcess } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';

const METRICS_TOKEN = 'from-the-env-file-0123456789';

/**
 * Production runs the compiled server on Node alone: the build must give JavaScript that starts
 * without a TypeScript loader, finds the compiled shared rules and its migrations, and answers.
 * SQLite only; the database makes no difference to how the code loads.
 */
describe.skipIf(TEST_DB !== 'sqlite')('compiled server', () => {
  // Made in beforeAll, not while collecting: a skipped block would leave them behind.
  let dir = '';
  let out = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kruh-build-test-'));
    out = buildOutDir();
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('npm start and npm run serve run compiled JavaScript with no TypeScript loader', () => {
    const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.serve).toMatch(/^node server\/dist\/\S+\.js$/);
    expect(scripts.start).toContain('npm run build');
    expect(scripts.start).toContain('npm run serve');
    expect(scripts.build).toContain('build:server');
  });

  // A whole TypeScript build, unless the last one is fresh: on a machine busy with the rest of the
  // suite it takes minutes.
  it('builds, starts on Node alone with a fresh data folder, and answers health', async () => {
    const build = await compiledServer(out);
    // A .env in the working folder is read; the environment's own PORT wins over the file's.
    writeFileSync(join(dir, '.env'), `PORT=1\nMETRICS_TOKEN=${METRICS_TOKEN}\n`);
    // Started from elsewhere than the repository, so nothing is found relative to the working folder by luck.
    const server = await startServerProcess([join(build, 'server/src/server.js')], {
      cwd: dir,
      env: { PATH: process.env.PATH, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn', WEB_DIR: join(dir, 'no-web') },
    });
    try {
      const doc = await fetch(`${server.url}/api/openapi.json`);
      expect(doc.status).toBe(200);
      expect(((await doc.json()) as { info: { version: string } }).info.version).toMatch(/^\d+\.\d+\.\d+/);
      const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 300_000);
});

import { execFile } from 'node:child_process';
import { existsSync, globSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../../..');
const METRICS_TOKEN = 'from-the-env-file-0123456789';

/** What the server's build compiles from, or reads while it builds. */
const BUILD_INPUTS = ['server/src/**/*', 'core/**/*.ts', 'server/scripts/build.mjs', 'server/tsconfig*.json', 'tsconfig.base.json', 'package.json'];

/**
 * The last `npm run build`'s server when it is newer than everything it is built from (as in CI,
 * which builds before testing), so the suite need not compile the server a second time.
 */
function freshBuild(): string | null {
  const dist = join(REPO, 'server/dist');
  if (!existsSync(join(dist, 'server/src/server.js'))) return null;
  const built = statSync(join(dist, 'package.json')).mtimeMs;
  const stale = globSync(BUILD_INPUTS, { cwd: REPO }).some((file) => statSync(join(REPO, file)).mtimeMs > built);
  return stale ? null : dist;
}

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
    // The build goes where Node finds the repository's packages by walking up, as it does from server/dist.
    mkdirSync(join(REPO, 'node_modules/.cache'), { recursive: true });
    out = mkdtempSync(join(REPO, 'node_modules/.cache/kruh-build-test-'));
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
    let build = freshBuild();
    if (!build) {
      await run(process.execPath, ['server/scripts/build.mjs', '--out-dir', out], { cwd: REPO });
      build = out;
    }
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

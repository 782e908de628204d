import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOutDir, compiledServer, REPO } from '../helpers/compiled-build';
import { startServerProcess } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';

const run = promisify(execFile);

/** What a clone holds that building and running the server read (the web app aside). */
const CLONE_FILES = ['package.json', 'package-lock.json', '.npmrc', 'tsconfig.base.json', 'scripts', 'core', 'server/src', 'server/scripts', 'server/tsconfig.json', 'server/tsconfig.build.json'];

/** The commands an operator runs on a production install, which must run the last build as it is. */
const OPERATOR_SCRIPTS = ['serve', 'migrate', 'admin', 'media:migrate', 'backup', 'restore'];

const scripts = () => (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const serveCommand = () => scripts().serve!.split(' ');

/**
 * The README's production install, in a folder of its own: a clone's files, the repository's
 * packages (hard-linked, so copying them takes a second, and pruned there), then the commands an
 * operator runs. SQLite only; the database makes no difference to what a pruned install lacks.
 */
describe.skipIf(TEST_DB !== 'sqlite')('a production install pruned of its development packages', () => {
  let install = '';
  let out = '';
  let env: Record<string, string | undefined> = {};
  const npm = (args: string[]) => run('npm', args, { cwd: install, env, timeout: 60_000 });

  beforeAll(async () => {
    out = buildOutDir();
    const build = await compiledServer(out);
    install = mkdtempSync(join(tmpdir(), 'kruh-install-'));
    for (const file of CLONE_FILES) if (existsSync(join(REPO, file))) cpSync(join(REPO, file), join(install, file), { recursive: true });
    cpSync(build, join(install, 'server/dist'), { recursive: true });
    // Hard links: pruning unlinks files and leaves the repository's own; npm rewrites its record
    // of the tree in place, so that file is a copy.
    await run('cp', ['-al', realpathSync(join(REPO, 'node_modules')), join(install, 'node_modules')]);
    rmSync(join(install, 'node_modules/.cache'), { recursive: true, force: true });
    rmSync(join(install, 'node_modules/.package-lock.json'));
    copyFileSync(join(REPO, 'node_modules/.package-lock.json'), join(install, 'node_modules/.package-lock.json'));
    env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: join(install, 'data'), WEB_DIR: join(install, 'no-web'), LOG_LEVEL: 'warn' };
    await npm(['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund']);
    expect(existsSync(join(install, 'node_modules/vitest'))).toBe(false);
  }, 600_000);
  afterAll(() => {
    if (install) rmSync(install, { recursive: true, force: true });
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('runs the operator commands on the last build, never building', () => {
    for (const name of OPERATOR_SCRIPTS) expect(scripts()[name], name).toMatch(/^node server\/dist\/\S+\.js$/);
  });

  it('migrates, serves, makes a moderator, backs up and copies media with what is left', async () => {
    expect((await npm(['run', 'migrate'])).stdout).toMatch(/Applied: |up to date/);
    // `npm run serve`'s own command, started without npm between, so that stopping it stops the server.
    const server = await startServerProcess(serveCommand().slice(1), { cwd: install, env });
    try {
      const signup = await fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'operator', email: 'operator@example.com', password: 'Long-enough-passw0rd' }),
      });
      expect(signup.status, await signup.clone().text()).toBe(201);
      expect((await npm(['run', 'admin', '--', '--grant', 'operator'])).stdout).toContain('operator is now a moderator.');
      expect((await npm(['run', 'backup', '--', join(install, 'backup')])).stdout).toContain('Backed up');
      // media:migrate wants a bucket: its refusal shows the compiled command ran.
      const media = await npm(['run', 'media:migrate']).catch((err: { stderr: string }) => err);
      expect(media.stderr).toContain('MEDIA_STORAGE must be s3');
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('keeps serving the last build when a build fails for want of the compiler', async () => {
    await expect(npm(['run', 'build:server'])).rejects.toThrow();
    expect(existsSync(join(install, 'server/dist/package.json'))).toBe(true);
    const server = await startServerProcess(serveCommand().slice(1), { cwd: install, env });
    await server.stop();
  }, 120_000);
});

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';
import { copyClone, packageScripts, readmeInstallCommands, runInstallCommand } from './install';

const run = promisify(execFile);

/** The commands an operator runs on a production install, which must run the last build as it is. */
const OPERATOR_SCRIPTS = ['serve', 'migrate', 'admin', 'media:migrate', 'backup', 'restore'];

const scripts = packageScripts;
const serveCommand = () => scripts().serve!.split(' ');

/**
 * The README's production install, in a folder of its own: a clone's files, then the recipe's
 * commands as an operator types them (install.ts takes the packages and the build from the
 * repository), then the commands an operator runs on it. SQLite only; the database makes no
 * difference to what a pruned install lacks.
 */
describe.skipIf(TEST_DB !== 'sqlite')('a production install pruned of its development packages', () => {
  let install = '';
  let env: Record<string, string | undefined> = {};
  const npm = (args: string[]) => run('npm', args, { cwd: install, env, timeout: 60_000 });
  const commands = readmeInstallCommands();

  beforeAll(async () => {
    install = mkdtempSync(join(tmpdir(), 'kruh-install-'));
    await copyClone(install);
    env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: join(install, 'data'), LOG_LEVEL: 'warn' };
    // The recipe up to the first command that needs the database: installing, building, pruning.
    for (const command of commands.slice(0, commands.indexOf('npm run migrate'))) await runInstallCommand(command, install, env);
    expect(existsSync(join(install, 'node_modules/vitest'))).toBe(false);
  }, 600_000);
  afterAll(() => {
    if (install) rmSync(install, { recursive: true, force: true });
  });

  it('is the recipe the README gives: install, build, prune, migrate, serve', () => {
    expect(commands).toEqual(['npm ci', 'npm run build', 'npm prune --omit=dev', 'npm run migrate', 'npm run serve']);
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

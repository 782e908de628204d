import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/compiled-build';
import { TEST_DB } from '../helpers/test-app';

const run = promisify(execFile);
const OLD_NODE = '20.20.0';

/** Runs `node <args>` in `cwd` as a Node that calls itself OLD_NODE; resolves to its exit code and output. */
async function asOldNode(loader: string, cwd: string, args: string[]) {
  return run(process.execPath, ['--import', loader, ...args], { cwd, env: { ...process.env, npm_config_loglevel: 'warn' }, timeout: 120_000 })
    .then(({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }))
    .catch((err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, output: err.stdout + err.stderr }));
}

/**
 * An install on a Node older than package.json's engines stops at once with one refusal (not a
 * minute of downloads and a warning per package), and the refusal of the other commands names a
 * part of the README that is there. The old Node is this one told to give an old version number.
 */
describe.skipIf(TEST_DB !== 'sqlite')('an old Node', () => {
  let dir = '';
  let loader = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kruh-old-node-'));
    loader = join(dir, 'old-node.mjs');
    writeFileSync(
      loader,
      `Object.defineProperty(process, 'version', { value: 'v${OLD_NODE}' });\n` +
        `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${OLD_NODE}' } });\n`,
    );
    mkdirSync(join(dir, 'scripts'));
    for (const file of ['package.json', 'package-lock.json', '.npmrc', 'scripts/check-node.cjs']) if (existsSync(join(REPO, file))) copyFileSync(join(REPO, file), join(dir, file));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is refused by npm ci before anything is installed, in one error', async () => {
    const npmCli = realpathSync(execFileSync('which', ['npm'], { encoding: 'utf8' }).trim());
    // A dry run: if the refusal is missing, nothing is downloaded all the same.
    const result = await asOldNode(loader, dir, [npmCli, 'ci', '--dry-run', '--offline', '--no-audit', '--no-fund']);
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain('Not compatible with your version of node/npm: kruh@');
    expect(result.output.match(/EBADENGINE/g)).toHaveLength(1);
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  });

  it('is told which Node to install, by a part of the README that exists', async () => {
    const result = await asOldNode(loader, REPO, ['scripts/check-node.cjs']);
    expect(result.code).toBe(1);
    expect(result.output).toContain(`this is v${OLD_NODE}`);
    const heading = /see "([^"]+)" in README\.md/.exec(result.output)?.[1];
    expect(heading, result.output).toBeDefined();
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(readme.split('\n')).toContain(`### ${heading}`);
  });

  it('is documented with the npm settings .ci/run gives an install on another Node', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const settings = readFileSync(join(REPO, '.ci/run'), 'utf8').match(/npm_config_\w+/g) ?? [];
    expect(settings.length).toBeGreaterThan(0);
    for (const setting of settings) expect(readme).toContain(setting);
  });
});

import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, globSync, linkSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { BUILD_INPUTS, buildOutDir, compiledServer, REPO } from '../helpers/compiled-build';

/**
 * Carries out an operator's install commands in a folder of its own: the README's production
 * install, and the same steps as the container image's build runs them.
 */

const run = promisify(execFile);

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** The commands of the README's production install, in order, as an operator types them. */
export function readmeInstallCommands(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Install it for production\n'));
  const block = section && /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no sh block under "Install it for production"');
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

/** The `npm run <name>` scripts of package.json. */
export function packageScripts(): Record<string, string> {
  return (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
}

/**
 * Copies the repository's files as a clone of it holds them (tracked, and new ones not ignored, so
 * that a change not yet committed is seen), hard-linked, but those `leaveOut` names.
 */
export async function copyClone(into: string, leaveOut: (path: string) => boolean = () => false): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
  for (const path of stdout.split('\0').filter(Boolean)) {
    // A link (a worktree's node_modules pointing at another's) is no file of a clone.
    if (leaveOut(path) || !existsSync(join(REPO, path)) || lstatSync(join(REPO, path)).isSymbolicLink()) continue;
    mkdirSync(dirname(join(into, path)), { recursive: true });
    linkOrCopy(join(REPO, path), join(into, path));
  }
}

/** `cp -al`: a tree of hard links, which takes a second for all the packages; nothing here writes into a linked file. */
async function linkTree(from: string, to: string): Promise<void> {
  // cp would copy into a folder already there (or one a link leads to): never into the repository's.
  if (existsSync(to)) throw new Error(`${to} is already there`);
  mkdirSync(dirname(to), { recursive: true });
  await run('cp', ['-al', realpathSync(from), to]);
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** The environment a command runs in: npm never asks the registry, as no test may. */
function offline(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return { ...env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/**
 * Runs one install command in `cwd`. The two steps whose result the repository already holds are
 * taken from it, after checking that the folder has what they read:
 * - `npm ci`: the packages of the same lockfile, the repository's own, hard-linked (its
 *   preinstall check of Node's version runs as npm would run it);
 * - `npm run build`: the current build (the server's as `compiledServer` keeps it fresh; the web
 *   app's `dist/`, or when the repository has none built, a page standing in for it).
 * Every other command runs as written, through the shell as the image's RUN does. A command the
 * install does not know fails here, so a new step in the README or the Dockerfile is never skipped.
 */
export async function runInstallCommand(command: string, cwd: string, env: Record<string, string | undefined>): Promise<CommandResult> {
  if (command === 'npm ci') return installPackages(cwd, env);
  if (command === 'npm run build') return placeBuild(cwd);
  if (/^npm (prune|run) /.test(command)) return run('sh', ['-c', command], { cwd, env: offline(env), timeout: 120_000 });
  throw new Error(`no known way to run "${command}" in a test install: add it to runInstallCommand`);
}

async function installPackages(cwd: string, env: Record<string, string | undefined>): Promise<CommandResult> {
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
    const path = join(cwd, file);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== readFileSync(join(REPO, file), 'utf8')) {
      throw new Error(`npm ci in ${cwd}: ${file} is missing or differs from the repository's`);
    }
  }
  const preinstall = packageScripts().preinstall;
  const checked = preinstall ? await run('sh', ['-c', preinstall], { cwd, env }) : { stdout: '', stderr: '' };
  await linkTree(join(REPO, 'node_modules'), join(cwd, 'node_modules'));
  rmSync(join(cwd, 'node_modules/.cache'), { recursive: true, force: true });
  // npm rewrites its record of the tree in place, so that file is a copy rather than a link.
  rmSync(join(cwd, 'node_modules/.package-lock.json'));
  copyFileSync(join(REPO, 'node_modules/.package-lock.json'), join(cwd, 'node_modules/.package-lock.json'));
  return checked;
}

async function placeBuild(cwd: string): Promise<CommandResult> {
  const missing = globSync([...BUILD_INPUTS, 'index.html', 'vite.config.ts', 'src/main.tsx'], { cwd: REPO }).filter((file) => !existsSync(join(cwd, file)));
  if (missing.length > 0) throw new Error(`npm run build in ${cwd}: it lacks ${missing.slice(0, 5).join(', ')}`);
  const out = buildOutDir();
  try {
    cpSync(await compiledServer(out), join(cwd, 'server/dist'), { recursive: true });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const web = join(REPO, 'dist');
  if (existsSync(join(web, 'index.html'))) cpSync(web, join(cwd, 'dist'), { recursive: true });
  else {
    mkdirSync(join(cwd, 'dist'), { recursive: true });
    writeFileSync(join(cwd, 'dist/index.html'), '<!doctype html><title>Kruh</title><div id="root"></div>\n');
  }
  return { stdout: '', stderr: '' };
}

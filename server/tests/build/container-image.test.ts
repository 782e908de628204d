import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, matchesGlob, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/compiled-build';
import { type ServerProcess, startServerProcess } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';
import { copyClone, packageScripts, readmeInstallCommands, runInstallCommand } from './install';

const run = promisify(execFile);

/** One instruction of the Dockerfile: its name, its --flags, and the rest as written. */
interface Instruction {
  name: string;
  flags: Record<string, string>;
  args: string;
}

interface Stage {
  from: string;
  alias: string | undefined;
  steps: Instruction[];
}

/** The Dockerfile's stages, continuation lines joined and comments dropped. */
function dockerfileStages(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  for (const line of lines) {
    const [, name = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const flags: Record<string, string> = {};
    let args = rest;
    for (let flag = /^--([\w-]+)=(\S+)\s+/.exec(args); flag; flag = /^--([\w-]+)=(\S+)\s+/.exec(args)) {
      flags[flag[1]!] = flag[2]!;
      args = args.slice(flag[0].length);
    }
    const step = { name: name.toUpperCase(), flags, args };
    if (step.name === 'FROM') {
      const [from = '', , alias] = args.split(/\s+/);
      stages.push({ from, alias, steps: [] });
    } else stages.at(-1)!.steps.push(step);
  }
  return stages;
}

/** An exec-form argument list (`["node", "x.js"]`). */
const execForm = (args: string): string[] => JSON.parse(args) as string[];

/**
 * Each stage's filesystem is a folder standing for its root: `/app` of the build stage is
 * `<build>/app`. The instructions are carried out with the meaning Docker gives them, within it.
 */
class StageRoot {
  workdir = '/';
  env: Record<string, string> = {};
  constructor(readonly root: string) {}
  path(inside: string): string {
    return join(this.root, posix.resolve(this.workdir, inside));
  }
  /** ENV values that are absolute paths name places inside the stage. */
  hostEnv(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.env).map(([name, value]) => [name, value.startsWith('/') ? join(this.root, value) : value]));
  }
}

/** COPY: each source (a file, or a folder's contents) into the destination, a folder when it ends in `/` or there are several. */
function copy(sources: string[], from: (path: string) => string, dest: string, into: StageRoot): void {
  const target = into.path(dest);
  for (const source of sources) {
    const path = from(source);
    if (!existsSync(path)) throw new Error(`COPY ${source}: not in the ${from === contextPath ? 'build context' : 'stage'}`);
    const to = statSync(path).isFile() && (dest.endsWith('/') || sources.length > 1) ? join(target, basename(source)) : target;
    // The build stage is not read again once the image's stage takes its packages: they move.
    if (statSync(path).isDirectory() && basename(path) === 'node_modules') renameSync(path, to);
    else cpSync(path, to, { recursive: true });
  }
}

let context = '';
const contextPath = (source: string) => join(context, source);

/** .dockerignore's patterns, each leaving out a path or everything under it. */
function dockerIgnored(): (path: string) => boolean {
  const patterns = readFileSync(join(REPO, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  return (path) => patterns.some((pattern) => path.split('/').some((_, i, parts) => matchesGlob(parts.slice(0, i + 1).join('/'), pattern)));
}

/**
 * The Dockerfile, with no container engine: its build stage's commands run in a copy of the build
 * context (`.dockerignore` applied), which are the README's production install; the image's stage
 * then gets only what its COPY lines take, and its CMD starts the server, whose readiness the
 * HEALTHCHECK's own command checks. Whatever the file says that this cannot carry out fails here.
 */
describe.skipIf(TEST_DB !== 'sqlite')('the container image', () => {
  const stages = dockerfileStages(readFileSync(join(REPO, 'Dockerfile'), 'utf8'));
  const [build, image] = stages as [Stage, Stage];
  const step = (stage: Stage, name: string) => stage.steps.filter((s) => s.name === name);
  let folder = '';
  let runtime: StageRoot;
  let server: ServerProcess | undefined;
  const baseEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME });

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'kruh-image-'));
    context = join(folder, 'context');
    await copyClone(context, dockerIgnored());
    const built = new StageRoot(join(folder, 'build'));
    const roots = new Map([[build.alias, built]]);
    for (const [stage, root] of [[build, built], [image, (runtime = new StageRoot(join(folder, 'image')))]] as const) {
      for (const { name, flags, args } of stage.steps) {
        if (name === 'WORKDIR') {
          root.workdir = posix.resolve(root.workdir, args);
          mkdirSync(root.path('.'), { recursive: true });
        } else if (name === 'ENV') {
          const [, key = '', value = ''] = /^(\w+)=(.*)$/.exec(args) ?? [];
          root.env[key] = value;
        } else if (name === 'COPY') {
          const parts = args.split(/\s+/);
          const from = flags.from ? roots.get(flags.from) : undefined;
          if (flags.from && !from) throw new Error(`COPY --from=${flags.from}: no such stage`);
          copy(parts.slice(0, -1), from ? (source) => join(from.root, source) : contextPath, parts.at(-1)!, root);
        } else if (name === 'RUN') {
          if (root === built) await runInstallCommand(args, root.path('.'), { ...baseEnv(), ...root.hostEnv() });
          else {
            // The image's one command of its own: the data folder, owned by the user the server runs as.
            const made = /^mkdir -p (\/\S+) && chown node:node \1$/.exec(args);
            if (!made) throw new Error(`no known way to run "${args}" in the image's stage`);
            mkdirSync(join(root.root, made[1]!), { recursive: true });
          }
        } else if (!['VOLUME', 'USER', 'EXPOSE', 'HEALTHCHECK', 'CMD'].includes(name)) throw new Error(`${name} is not carried out by this test`);
      }
    }
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('builds with the README production install, in an image with the compilers, and runs on a slim Node 24 as a user', () => {
    expect(stages).toHaveLength(2);
    expect(build.from).toMatch(/^node:24-/);
    expect(image.from).toMatch(/^node:24-[a-z]+-slim$/);
    const runs = step(build, 'RUN').map((s) => s.args);
    expect(runs).toEqual(readmeInstallCommands().slice(0, runs.length));
    expect(runs.at(-1)).toBe('npm prune --omit=dev');
    expect(step(image, 'USER').map((s) => s.args)).toEqual(['node']);
    // The data folder is a volume, made for that user.
    expect(step(image, 'VOLUME').map((s) => s.args)).toEqual([runtime.env.DATA_DIR]);
    expect(step(image, 'EXPOSE').map((s) => s.args)).toEqual([runtime.env.PORT]);
  });

  it('keeps in the image what the server runs, and no sources nor development packages', () => {
    expect(existsSync(runtime.path('server/dist/server/src/server.js'))).toBe(true);
    expect(existsSync(runtime.path('dist/index.html'))).toBe(true);
    expect(existsSync(runtime.path('server/src'))).toBe(false);
    expect(existsSync(runtime.path('node_modules/vitest'))).toBe(false);
    expect(existsSync(runtime.path('node_modules/fastify'))).toBe(true);
  });

  it('starts the way CMD says, keeps its data on the volume, and HEALTHCHECK follows readiness', async () => {
    const [command] = step(image, 'CMD');
    const cmd = execForm(command!.args);
    expect(cmd).toEqual(packageScripts().serve!.split(' '));
    const [check] = step(image, 'HEALTHCHECK');
    const probe = execForm(/^CMD\s+(.*)$/.exec(check!.args)![1]!);
    expect(check!.flags['start-period']).toMatch(/^\d+s$/);
    expect(probe[0]).toBe('node');

    const env = { ...baseEnv(), ...runtime.hostEnv() };
    server = await startServerProcess(cmd.slice(1), { cwd: runtime.path('.'), env, readyPath: '/api/health/ready' });
    const port = new URL(server.url).port;
    const healthcheck = () => run(process.execPath, probe.slice(1), { env: { ...env, PORT: port } });
    await expect(healthcheck()).resolves.toBeDefined();
    expect(existsSync(join(runtime.hostEnv().DATA_DIR!, 'kruh.sqlite'))).toBe(true);
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');

    await server.stop();
    // Nothing answers now: the check fails, as Docker marks such a container unhealthy.
    await expect(healthcheck()).rejects.toMatchObject({ code: 1 });
  }, 120_000);
});

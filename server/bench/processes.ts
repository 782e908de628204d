import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The processes the benchmarks start: the server (compiled or from source) and their helpers. */

const REPO = resolve(import.meta.dirname, '../..');

export interface Child {
  process: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/**
 * A TypeScript file runs through tsx; a .js file (the compiled server) on Node alone. With `ipc`,
 * the child gets a message channel (process.send) beside its output.
 */
export async function startProcess(script: string, env: Record<string, string>, ready: () => Promise<boolean>, { ipc = false } = {}): Promise<Child> {
  const argv = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
  const child = spawn(process.execPath, argv, { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? (['ipc'] as const) : [])] });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + 60_000;
  while (!(await ready())) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${script} did not start:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    process: child,
    output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000).unref())]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

export async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** Builds the server as production runs it (server/dist) and answers the entry to start. */
export async function compileServer(): Promise<string> {
  console.log('Compiling the server (server/dist)...');
  await new Promise<void>((done, fail) => {
    const build = spawn(process.execPath, ['server/scripts/build.mjs'], { cwd: REPO, stdio: 'inherit' });
    build.once('exit', (code) => (code === 0 ? done() : fail(new Error(`server build failed (${code})`))));
  });
  return 'server/dist/server/src/server.js';
}

/** What every benchmark gives the server it starts: where it listens and its data, a known secret, no web app, few log lines. */
export function serverEnv(port: number, dataDir: string, databaseUrl: string | undefined, secret: string, scratch: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    JWT_SECRET: secret,
    WEB_DIR: join(scratch, 'none'),
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
}

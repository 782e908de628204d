import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from './free-port';

/** A server started as a process of its own, listening on 127.0.0.1. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Everything it wrote to stdout and stderr so far, to show when something fails. */
  output(): string;
  /** Ends it with SIGTERM (SIGKILL if it has not gone in 15 s) and waits until it has. */
  stop(): Promise<void>;
  /** The process itself: its IPC channel when started with `ipc`. */
  child: ChildProcess;
}

export interface ServerProcessOptions {
  cwd: string;
  /** The whole environment of the process (nothing of the test's own leaks in); PORT and HOST are added. */
  env: Record<string, string | undefined>;
  /** What must answer 200 before the server counts as started. */
  readyPath?: string;
  timeoutMs?: number;
  /** Opens an IPC channel to the process (`child.send`, its `process.send`). */
  ipc?: boolean;
}

/**
 * Arguments that run the TypeScript server itself on Node through tsx, as `npm run dev:server` does:
 * a real process without the minutes a build takes. tsx is named by its file, so the process may
 * start from any folder (a test's own, where no .env of the repository is read).
 */
export function typeScriptServerArgs(): string[] {
  return typeScriptArgs('server.ts');
}

/** The same for another program of server/src, such as `cli/backup.ts`. */
export function typeScriptArgs(program: string): string[] {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return ['--import', tsx, fileURLToPath(new URL(`../../src/${program}`, import.meta.url))];
}

/** Starts `node <args>` on a free port and waits until `readyPath` answers 200; throws with its output if it never does. */
export async function startServerProcess(args: string[], options: ServerProcessOptions): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const server: ServerProcess = { url, output: () => output, stop: () => stopProcess(child), child };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (child.exitCode === null && Date.now() < deadline) {
    const res = await fetch(`${url}${options.readyPath ?? '/api/health'}`).catch(() => undefined);
    if (res?.status === 200) return server;
    await new Promise((r) => setTimeout(r, 20));
  }
  await server.stop();
  throw new Error(`the server at ${url} did not start (exit code ${child.exitCode}):\n${output}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // The server waits for open requests on SIGTERM; one that hangs must not hold the test run.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

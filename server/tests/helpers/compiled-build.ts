import { execFile } from 'node:child_process';
import { existsSync, globSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO = resolve(import.meta.dirname, '../../..');

/** What the server's build compiles from, or reads while it builds. */
export const BUILD_INPUTS = ['server/src/**/*', 'core/**/*.ts', 'server/scripts/build.mjs', 'server/tsconfig*.json', 'tsconfig.base.json', 'package.json'];

/**
 * The last `npm run build`'s server when it is newer than everything it is built from (as in CI,
 * which builds before testing), so the suite need not compile the server a second time.
 */
export function freshBuild(): string | null {
  const dist = join(REPO, 'server/dist');
  if (!existsSync(join(dist, 'server/src/server.js'))) return null;
  const built = statSync(join(dist, 'package.json')).mtimeMs;
  const stale = globSync(BUILD_INPUTS, { cwd: REPO }).some((file) => statSync(join(REPO, file)).mtimeMs > built);
  return stale ? null : dist;
}

/**
 * The folder of a compiled server of the current sources: the last build when fresh, else a new one
 * written to `out` (a whole TypeScript build: on a machine busy with the rest of the suite it takes
 * minutes). `out` must sit where Node finds the repository's packages by walking up.
 */
export async function compiledServer(out: string): Promise<string> {
  const fresh = freshBuild();
  if (fresh) return fresh;
  await run(process.execPath, ['server/scripts/build.mjs', '--out-dir', out], { cwd: REPO });
  return out;
}

/** An empty folder for `compiledServer` to build into, where Node finds the repository's packages by walking up, as it does from server/dist. */
export function buildOutDir(): string {
  mkdirSync(join(REPO, 'node_modules/.cache'), { recursive: true });
  return mkdtempSync(join(REPO, 'node_modules/.cache/kruh-build-test-'));
}

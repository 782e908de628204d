// Compiles the server and the shared rules it uses into plain JavaScript, so production runs on
// Node alone with no TypeScript loader. `--out-dir <dir>` writes elsewhere than server/dist.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const flag = process.argv.indexOf('--out-dir');
const outDir = resolve(flag >= 0 ? process.argv[flag + 1] : join(root, 'server/dist'));

// A stale file of a module since deleted would otherwise linger beside the new build.
rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// Emit only: the types are checked by `npm run typecheck` (and CI), which covers these sources and
// more; checking them again here took two thirds of the build.
const result = spawnSync(
  process.execPath,
  [tsc, '-p', join(root, 'server/tsconfig.build.json'), '--outDir', outDir, '--noCheck'],
  { stdio: 'inherit' },
);
if (result.status !== 0) process.exit(result.status ?? 1);

// The compiled files sit in a package of their own: ES modules, with `#core/*` naming the compiled
// rules beside them instead of the TypeScript sources the repository's own map points at. The
// name, version and description stay, since the OpenAPI document reads them from here.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const compiled = {
  name: pkg.name,
  version: pkg.version,
  description: pkg.description,
  private: true,
  type: 'module',
  imports: { '#core/*': './core/*.js' },
};
writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(compiled, null, 2)}\n`);

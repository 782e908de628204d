// Compiles the server and the shared rules it uses into plain JavaScript, so production runs on
// Node alone with no TypeScript loader. `--out-dir <dir>` writes elsewhere than server/dist.
//
// The new build is written beside the old one and takes its place only once whole: a build that
// fails (a pruned install has no compiler, a source does not compile) leaves the running
// server's build as it was.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const flag = process.argv.indexOf('--out-dir');
const outDir = resolve(flag >= 0 ? process.argv[flag + 1] : join(root, 'server/dist'));
const next = `${outDir}.next`;
const old = `${outDir}.old`;

/** Ends the build without touching outDir. */
function fail(message, status = 1) {
  rmSync(next, { recursive: true, force: true });
  if (message) console.error(message);
  process.exit(status);
}

// Left over by a build that was killed midway.
rmSync(next, { recursive: true, force: true });
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  fail(`Building the server needs the development packages (npm ci), which this install lacks; ${outDir} is left as it was.`);
}
// Emit only: the types are checked by `npm run typecheck` (and CI), which covers these sources and
// more; checking them again here took two thirds of the build.
const result = spawnSync(
  process.execPath,
  [tsc, '-p', join(root, 'server/tsconfig.build.json'), '--outDir', next, '--noCheck'],
  { stdio: 'inherit' },
);
if (result.status !== 0) fail(`The server's build failed; ${outDir} is left as it was.`, result.status ?? 1);

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
writeFileSync(join(next, 'package.json'), `${JSON.stringify(compiled, null, 2)}\n`);

// Two renames: between them there is no build at outDir for an instant, never half of one. A
// whole new folder also drops the files of modules since deleted.
rmSync(old, { recursive: true, force: true });
if (existsSync(outDir)) renameSync(outDir, old);
renameSync(next, outDir);
rmSync(old, { recursive: true, force: true });

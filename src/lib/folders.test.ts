import { globSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web app's shared code imports one way: the service worker (`sw/`) may import shared modules
 * of `src/lib/`, never the other way round, and the places of `src/lib/` (each folder, and each file
 * at its top) import one another in no loop, so each can be read and tested with what is below it.
 * Lint refuses a loop of files; this holds the folders.
 */

const repo = process.cwd();
const configFile = join(repo, 'tsconfig.json');
const options = ts.parseJsonConfigFileContent(ts.readConfigFile(configFile, ts.sys.readFile).config, ts.sys, dirname(configFile)).options;
const fromRepo = (file: string) => relative(repo, file).split(sep).join('/');

interface FileImport {
  from: string;
  to: string;
}

/** Every import between the web app's own files (tests and their kits left out), resolved as tsc does. */
function webImports(): FileImport[] {
  const imports: FileImport[] = [];
  const files = globSync(['src/**/*.{ts,tsx}', 'sw/**/*.ts'], { cwd: repo }).filter((file) => !/\.test\.tsx?$|^src\/test\//.test(file));
  for (const from of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(repo, from), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, join(repo, from), options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport || !/\.tsx?$/.test(resolved.resolvedFileName)) continue;
      imports.push({ from: from.split(sep).join('/'), to: fromRepo(resolved.resolvedFileName) });
    }
  }
  return imports;
}

/** A file's place among the shared code: `sw`, a folder of src/lib, or a file at src/lib's top; else none. */
function placeOf(file: string): string | null {
  if (file.startsWith('sw/')) return 'sw';
  const inLib = /^src\/lib\/(.+)$/.exec(file)?.[1];
  if (!inLib) return null;
  return inLib.includes('/') ? `src/lib/${inLib.split('/')[0]}/` : file;
}

/** The loops among places: each a list of places, each importing the next and the last the first. */
function loops(edges: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (place: string, path: string[]) => {
    for (const next of edges.get(place) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) found.push(path.slice(at));
      else if (!done.has(next)) walk(next, [...path, next]);
    }
    done.add(place);
  };
  for (const place of edges.keys()) if (!done.has(place)) walk(place, [place]);
  return found;
}

describe('the shared web code imports one way', () => {
  const imports = webImports();

  it('reads the imports it checks', () => {
    expect(imports.some(({ from, to }) => from === 'sw/outbox-sync.ts' && to.startsWith('src/lib/outbox/'))).toBe(true);
  });

  it('never imports the service worker from src/', () => {
    const intoWorker = imports.filter(({ from, to }) => from.startsWith('src/') && to.startsWith('sw/'));
    expect(intoWorker).toEqual([]);
  });

  it('has no loop among the folders of src/lib and sw/', () => {
    const edges = new Map<string, Set<string>>();
    const witness = new Map<string, string>();
    for (const { from, to } of imports) {
      const a = placeOf(from);
      const b = placeOf(to);
      if (!a || !b || a === b) continue;
      edges.set(a, (edges.get(a) ?? new Set()).add(b));
      witness.set(`${a} -> ${b}`, `${from} -> ${to}`);
    }
    const described = loops(edges).map((loop) =>
      loop.map((place, i) => witness.get(`${place} -> ${loop[(i + 1) % loop.length]}`)).join(', '),
    );
    expect(described).toEqual([]);
  });
});

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * What a phone downloads before the app can draw anything, in gzip bytes: the one place these
 * figures live. The first load is the entry script of the built index.html and every module it
 * preloads or imports statically; pages, languages and libraries used by one screen only come later.
 */
export const BUDGETS = {
  /** Entry chunk plus the chunks it preloads or imports statically. */
  firstLoadJs: 150_000,
  /** The explore feed's own code beyond the first load, which a cold start there fetches beside it. */
  feedScreenJs: 110_000,
  /**
   * The service worker (Workbox, the outbox for Background Sync): no UI code. The outbox it carries
   * looks up the names typed as @name when a post leaves with every tab closed, hence 82 KB.
   */
  serviceWorker: 82_000,
} as const;

/**
 * At most this many script files before the feed can draw (entry and feed screen together): on a
 * phone's network each file costs a round trip, six at a time, so many small files cost more than
 * their bytes.
 */
export const MAX_FIRST_SCREEN_FILES = 6;

export interface Measured {
  file: string;
  bytes: number;
  gzip: number;
}

const gzipSize = (content: Buffer): number => gzipSync(content).length;

function read(dist: string, file: string): Measured {
  const content = readFileSync(join(dist, file));
  return { file, bytes: content.length, gzip: gzipSize(content) };
}

/** Relative module specifiers a chunk imports statically (`import ... from`, `export ... from`, bare `import "x"`). */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  const pattern = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g;
  for (const match of code.matchAll(pattern)) found.add(match[1] as string);
  return [...found];
}

/**
 * The first-load scripts of a build: the module scripts and module preloads of index.html, and
 * whatever those import statically, each file once.
 */
export function firstLoadScripts(dist: string): Measured[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const tags = /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g;
  return withStaticImports(dist, [...html.matchAll(tags)].map((m) => (m[1] ?? m[2] ?? '').replace(/^\//, '')));
}

/** The chunks of a built page (`assets/<Name>-<hash>.js`) and whatever they import statically. */
export function pageScripts(dist: string, page: string): Measured[] {
  const chunks = readdirSync(join(dist, 'assets')).filter((file) => new RegExp(`^${page}-[\\w-]+\\.js$`).test(file));
  if (chunks.length === 0) throw new Error(`no chunk of ${page} in ${dist}`);
  return withStaticImports(dist, chunks.map((file) => `assets/${file}`));
}

/** `files` and every file they import statically, each once. */
function withStaticImports(dist: string, files: string[]): Measured[] {
  const queue = [...files];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    for (const spec of staticImports(code)) queue.push(posix.normalize(posix.join(posix.dirname(file), spec)));
  }
  return [...seen].map((file) => read(dist, file));
}

/**
 * The files the head's script of index.html fetches when the app opens on the explore feed (see
 * firstScreenPreloadScript), as paths in the build.
 */
export function headPreloads(dist: string): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const list = /(\[[^\]]*\])\.forEach\(function\(f\)/.exec(html)?.[1];
  return list ? (JSON.parse(list) as string[]).map((file) => file.replace(/^\//, '')) : [];
}

export const serviceWorker = (dist: string): Measured => read(dist, 'sw.js');

/** Packages bundled into a built file, from its source map (empty without one). */
export function packagesOf(dist: string, file: string): string[] {
  const map = join(dist, `${file}.map`);
  if (!existsSync(map)) return [];
  const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
  const packages = sources.map((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1]).filter((p): p is string => !!p);
  return [...new Set(packages)].sort();
}

export const total = (files: Measured[]): number => files.reduce((sum, f) => sum + f.gzip, 0);

export const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;

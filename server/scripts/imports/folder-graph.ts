import type { FileImport } from './read-imports';

/**
 * The files that wire everything together or start a program: they may import any module, and
 * nothing else may import them. A module that needs one of them is handed what it needs instead
 * (so the job registry, which names every module's jobs, hands them to the jobs plugin).
 */
export const COMPOSITION_ROOTS: readonly string[] = [
  'server/src/server.ts',
  'server/src/app.ts',
  'server/src/routes.ts',
  'server/src/jobs.ts',
  'server/src/events.ts',
  'server/src/cli/admin.ts',
  'server/src/cli/migrate.ts',
  'server/src/cli/copy-media.ts',
  'server/src/cli/backup.ts',
  'server/src/cli/restore.ts',
  'server/src/cli/sqlite-instance.ts',
];

/** The folders of server/src that hold no feature of their own. */
const SHARED_FOLDERS: readonly string[] = ['lib', 'db', 'policy', 'plugins'];

/**
 * Where a file sits in the layers: `modules/<name>`, `lib`, `db`, `policy`, `plugins`, `config`,
 * `core` or `root`; undefined for a file the layers do not know, which the check refuses.
 */
export function placeOf(file: string): string | undefined {
  if (COMPOSITION_ROOTS.includes(file)) return 'root';
  if (file.startsWith('core/')) return 'core';
  if (file === 'server/src/config.ts') return 'config';
  if (!file.startsWith('server/src/')) return undefined;
  const [folder = '', name, ...rest] = file.slice('server/src/'.length).split('/');
  if (folder === 'modules') return name && rest.length > 0 ? `modules/${name}` : undefined;
  return name !== undefined && SHARED_FOLDERS.includes(folder) ? folder : undefined;
}

/** Every file import from one place to another, the first (in path order) standing for the rest. */
export interface FolderEdge {
  readonly from: string;
  readonly to: string;
  readonly imports: readonly FileImport[];
}

export interface FolderGraph {
  /** Edges between two different places, sorted by name. */
  readonly edges: readonly FolderEdge[];
  /** Files, importing or imported, that have no place. */
  readonly unplaced: readonly string[];
}

export const edgeName = (edge: { from: string; to: string }) => `${edge.from} -> ${edge.to}`;

/** Folds file imports into imports between places; an import within one place is no edge. */
export function folderGraph(imports: readonly FileImport[]): FolderGraph {
  const byName = new Map<string, { from: string; to: string; imports: FileImport[] }>();
  const unplaced = new Set<string>();
  for (const fileImport of imports) {
    const from = placeOf(fileImport.from);
    const to = placeOf(fileImport.to);
    if (!from) unplaced.add(fileImport.from);
    if (!to) unplaced.add(fileImport.to);
    if (!from || !to || from === to) continue;
    const name = edgeName({ from, to });
    const edge = byName.get(name) ?? { from, to, imports: [] };
    edge.imports.push(fileImport);
    byName.set(name, edge);
  }
  const byPath = (a: FileImport, b: FileImport) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to);
  const edges = [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, edge]) => ({ ...edge, imports: edge.imports.sort(byPath) }));
  return { edges, unplaced: [...unplaced].sort() };
}

/** The shortest way from one place to another along the given edges, or undefined when there is none. */
export function shortestPath(edges: readonly FolderEdge[], from: string, to: string): FolderEdge[] | undefined {
  const came = new Map<string, FolderEdge | null>([[from, null]]);
  const queue = [from];
  for (let place = queue.shift(); place !== undefined; place = queue.shift()) {
    if (place === to) break;
    for (const edge of edges) {
      if (edge.from !== place || came.has(edge.to)) continue;
      came.set(edge.to, edge);
      queue.push(edge.to);
    }
  }
  if (!came.has(to)) return undefined;
  const path: FolderEdge[] = [];
  for (let step = came.get(to); step; step = came.get(step.from)) path.unshift(step);
  return path;
}

/**
 * The groups of places that all reach one another (strongly connected components of two places
 * or more), each sorted by name, largest first. Tarjan's algorithm; the graph is a few dozen places.
 */
export function stronglyConnected(edges: readonly FolderEdge[]): string[][] {
  const places = [...new Set(edges.flatMap((edge) => [edge.from, edge.to]))].sort();
  const seen = new Map<string, { index: number; low: number }>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (place: string) => {
    const mark = { index: seen.size, low: seen.size };
    seen.set(place, mark);
    stack.push(place);
    onStack.add(place);
    for (const edge of edges) {
      if (edge.from !== place) continue;
      const next = seen.get(edge.to);
      if (!next) {
        visit(edge.to);
        mark.low = Math.min(mark.low, seen.get(edge.to)?.low ?? mark.low);
      } else if (onStack.has(edge.to)) {
        mark.low = Math.min(mark.low, next.index);
      }
    }
    if (mark.low !== mark.index) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === place) break;
    }
    if (group.length > 1) groups.push(group.sort());
  };
  for (const place of places) if (!seen.has(place)) visit(place);
  return groups.sort((a, b) => b.length - a.length || String(a[0]).localeCompare(String(b[0])));
}

import { type FolderEdge, type FolderGraph, edgeName, shortestPath, stronglyConnected } from './folder-graph';

/**
 * The modules from the lowest up: a module imports only the modules before it, so they import one
 * another in no loop, and the order docs/architecture.md gives is the one the code keeps. The four
 * first stand alone (they import no module and none imports them). A new module takes its place here.
 */
export const MODULE_ORDER: readonly string[] = [
  'config',
  'gifs',
  'health',
  'metrics',
  'instance',
  'auth',
  'passkeys',
  'media',
  'remote',
  'counters',
  'follows',
  'comments',
  'posts',
  'groups',
  'profiles',
  'blocks',
  'feeds',
  'reports',
  'people',
  'search',
  'suggestions',
  'syndication',
  'account',
  'clientapi',
  'notifications',
  'federation',
  'jobs',
].map((name) => `modules/${name}`);

/** What each rule asks, as the check explains it when an import breaks it. */
export const RULES = {
  layers:
    'a place imports only its own layer and those below it: core; config, lib, db, policy; plugins; modules; the root',
  'federation-notifications':
    'no module imports federation or notifications: a module says what happened, and the composition root wires who reacts',
  'module-order': 'a module imports only the modules below it in MODULE_ORDER (server/scripts/imports/import-rules.ts)',
  cycles: 'the places do not import one another in a loop (the imports the layers refuse left aside)',
} as const;

export type RuleName = keyof typeof RULES;

/** Lower layers first; a module is any `modules/<name>`. */
const LAYERS: readonly (readonly string[])[] = [['core'], ['config', 'lib', 'db', 'policy'], ['plugins'], ['modules'], ['root']];
const layerOf = (place: string) => LAYERS.findIndex((layer) => layer.includes(place.replace(/\/.*/, '')));

const isModule = (place: string) => place.startsWith('modules/');
const REACTING_MODULES = ['modules/federation', 'modules/notifications'];

export interface Breach {
  readonly rule: RuleName;
  readonly edge: FolderEdge;
  /** A way back from the edge's target to its source, when the edge closes a loop. */
  readonly cycle: readonly FolderEdge[] | undefined;
}

export interface Findings {
  readonly breaches: readonly Breach[];
  /** The places that import one another in a loop, each loop's members sorted by name. */
  readonly loops: readonly (readonly string[])[];
  readonly unplaced: readonly string[];
}

const isUpward = (edge: FolderEdge) => layerOf(edge.from) < layerOf(edge.to);

/** The imports the cycle rule looks at: the layers already refuse the rest, and nothing may import the root. */
const sidewaysAndDown = (graph: FolderGraph) => graph.edges.filter((edge) => !isUpward(edge));

/** The loops among places, with the layers' breaches left aside, largest first. */
export const importCycles = (graph: FolderGraph) => stronglyConnected(sidewaysAndDown(graph));

/**
 * Whether a module may import another as MODULE_ORDER has them: the target below. Modules the order
 * does not name are left to the cycle rule (the architecture test requires every real one named).
 */
function keepsModuleOrder(edge: FolderEdge): boolean {
  const from = MODULE_ORDER.indexOf(edge.from);
  const to = MODULE_ORDER.indexOf(edge.to);
  return from < 0 || to < 0 || to < from;
}

/** Which folder imports break which rule. */
export function ruleBreaches(graph: FolderGraph): Findings {
  const loops = importCycles(graph);
  const inLoop = new Map(loops.flatMap((group) => group.map((place) => [place, group] as const)));
  const loopEdges = sidewaysAndDown(graph);
  const breaches: Breach[] = [];
  for (const edge of graph.edges) {
    const closes = (edges: readonly FolderEdge[]) => shortestPath(edges, edge.to, edge.from);
    if (isUpward(edge)) breaches.push({ rule: 'layers', edge, cycle: closes(graph.edges) });
    if (isModule(edge.from) && REACTING_MODULES.includes(edge.to)) {
      breaches.push({ rule: 'federation-notifications', edge, cycle: closes(graph.edges) });
    }
    if (!keepsModuleOrder(edge)) breaches.push({ rule: 'module-order', edge, cycle: closes(graph.edges) });
    if (!isUpward(edge) && inLoop.get(edge.from)?.includes(edge.to)) {
      breaches.push({ rule: 'cycles', edge, cycle: closes(loopEdges) });
    }
  }
  return { breaches, loops, unplaced: graph.unplaced };
}

const example = (edge: FolderEdge) => {
  const [first] = edge.imports;
  return first ? `${first.from} imports ${first.to}` : '';
};

function describeBreach(breach: Breach): string {
  const { edge, cycle } = breach;
  const count = edge.imports.length;
  const lines = [`  ${breach.rule}: ${edgeName(edge)} (${count} file import${count === 1 ? '' : 's'})`, `    e.g. ${example(edge)}`];
  if (cycle) {
    const loop = [edge, ...cycle];
    lines.push(`    cycle: ${[edge.from, ...loop.map((step) => step.to)].join(' -> ')}`);
    for (const step of loop) lines.push(`      ${edgeName(step)}: ${example(step)}`);
  }
  return lines.join('\n');
}

/**
 * The verdict: passes only when no folder import breaks a rule. The message names every loop's
 * members, then each breaking folder import with a file import that makes it and the loop it closes.
 */
export function checkRules(findings: Findings): { ok: boolean; message: string } {
  const sections: string[] = [];
  if (findings.unplaced.length > 0) {
    sections.push(
      `Files outside the layers (server/src/{modules/<name>,lib,db,policy,plugins}, config.ts, the composition roots, core/); give their folder a place in server/scripts/imports/folder-graph.ts:\n${findings.unplaced.map((file) => `  ${file}`).join('\n')}`,
    );
  }
  if (findings.loops.length > 0) {
    sections.push(['Places importing one another in a loop:', ...findings.loops.map((loop) => `  ${loop.join(', ')}`)].join('\n'));
  }
  if (findings.breaches.length > 0) {
    const rules = [...new Set(findings.breaches.map((breach) => breach.rule))];
    sections.push(
      [
        'Imports that break a rule:',
        ...findings.breaches.map(describeBreach),
        ...rules.map((rule) => `  (${rule}: ${RULES[rule]})`),
      ].join('\n'),
    );
  }
  return { ok: sections.length === 0, message: sections.join('\n\n') };
}

/** Every breaking folder import as `rule: from -> to`, one a line: what `--list` prints. */
export const breachLines = (findings: Findings): string[] => findings.breaches.map((breach) => `${breach.rule}: ${edgeName(breach.edge)}`);

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FolderEdge, type FolderGraph, edgeName, shortestPath, stronglyConnected } from './folder-graph';

export const BASELINE_FILE = 'server/architecture-baseline.json';

/** What each rule asks, as the check explains it when an import breaks it. */
export const RULES = {
  layers:
    'a place imports only its own layer and those below it: core; config, lib, db, policy; plugins; modules; the root',
  'federation-notifications':
    'no module imports federation or notifications: a module says what happened, and the composition root wires who reacts',
  cycles: 'the places do not import one another in a loop (the imports the layers refuse left aside)',
} as const;

export type RuleName = keyof typeof RULES;
const RULE_NAMES = Object.keys(RULES) as RuleName[];

/** The folder imports that break each rule today, as `from -> to`. */
export type Baseline = Record<RuleName, string[]>;

export const emptyBaseline = (): Baseline => ({ layers: [], 'federation-notifications': [], cycles: [] });

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
  readonly unplaced: readonly string[];
}

const isUpward = (edge: FolderEdge) => layerOf(edge.from) < layerOf(edge.to);

/** The imports the cycle rule looks at: the layers already refuse the rest, and nothing may import the root. */
const sidewaysAndDown = (graph: FolderGraph) => graph.edges.filter((edge) => !isUpward(edge));

/** The loops among places, with the layers' breaches left aside, largest first. */
export const importCycles = (graph: FolderGraph) => stronglyConnected(sidewaysAndDown(graph));

/** Which folder imports break which rule. */
export function ruleBreaches(graph: FolderGraph): Findings {
  const inLoop = new Map(importCycles(graph).flatMap((group) => group.map((place) => [place, group] as const)));
  const loopEdges = sidewaysAndDown(graph);
  const breaches: Breach[] = [];
  for (const edge of graph.edges) {
    const closes = (edges: readonly FolderEdge[]) => shortestPath(edges, edge.to, edge.from);
    if (isUpward(edge)) breaches.push({ rule: 'layers', edge, cycle: closes(graph.edges) });
    if (isModule(edge.from) && REACTING_MODULES.includes(edge.to)) {
      breaches.push({ rule: 'federation-notifications', edge, cycle: closes(graph.edges) });
    }
    if (!isUpward(edge) && inLoop.get(edge.from)?.includes(edge.to)) {
      breaches.push({ rule: 'cycles', edge, cycle: closes(loopEdges) });
    }
  }
  return { breaches, unplaced: graph.unplaced };
}

/** Reads the committed baseline, refusing a rule it does not know, so a typo cannot hide a list. */
export function readBaseline(repo: string): Baseline {
  const stored = JSON.parse(readFileSync(join(repo, BASELINE_FILE), 'utf8')) as Record<string, unknown>;
  const baseline = emptyBaseline();
  for (const [key, value] of Object.entries(stored)) {
    if (key === 'about') continue;
    const rule = RULE_NAMES.find((name) => name === key);
    if (!rule || !Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
      throw new Error(`${BASELINE_FILE}: "${key}" is not a rule (${RULE_NAMES.join(', ')}) with a list of "from -> to"`);
    }
    baseline[rule] = value;
  }
  return baseline;
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
 * The ratchet: passes while every breaking folder import is listed in the baseline and every listed
 * one still breaks its rule, so the list can only shrink. The message names each difference.
 */
export function checkAgainst(findings: Findings, baseline: Baseline): { ok: boolean; message: string } {
  const sections: string[] = [];
  if (findings.unplaced.length > 0) {
    sections.push(
      `Files outside the layers (server/src/{modules/<name>,lib,db,policy,plugins}, config.ts, the composition roots, core/); give their folder a place in server/scripts/imports/folder-graph.ts:\n${findings.unplaced.map((file) => `  ${file}`).join('\n')}`,
    );
  }
  const added = findings.breaches.filter((breach) => !baseline[breach.rule].includes(edgeName(breach.edge)));
  if (added.length > 0) {
    const rules = [...new Set(added.map((breach) => breach.rule))];
    sections.push(
      [
        `Imports that break a rule and are not in ${BASELINE_FILE}: change the import, never the baseline.`,
        ...added.map(describeBreach),
        ...rules.map((rule) => `  (${rule}: ${RULES[rule]})`),
      ].join('\n'),
    );
  }
  const fixed = RULE_NAMES.flatMap((rule) =>
    baseline[rule]
      .filter((name) => !findings.breaches.some((breach) => breach.rule === rule && edgeName(breach.edge) === name))
      .map((name) => `  ${rule}: ${name} no longer breaks the rule (the import is gone or no longer closes a loop): delete it from ${BASELINE_FILE}`),
  );
  if (fixed.length > 0) sections.push(['Listed in the baseline, but fixed:', ...fixed].join('\n'));
  return { ok: sections.length === 0, message: sections.join('\n\n') };
}

/** Today's breaches in the baseline's shape, for writing the first baseline by hand. */
export function baselineOf(findings: Findings): Baseline {
  const baseline = emptyBaseline();
  for (const breach of findings.breaches) baseline[breach.rule].push(edgeName(breach.edge));
  return baseline;
}

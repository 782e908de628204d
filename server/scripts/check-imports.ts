// `npm run check:imports`: the folder-level import rules of server/src (docs/architecture.md), with
// today's counts. `--list` prints today's breaches in the baseline's shape instead of checking.
import { resolve } from 'node:path';
import { folderGraph } from './imports/folder-graph';
import { type Breach, BASELINE_FILE, baselineOf, checkAgainst, importCycles, readBaseline, ruleBreaches } from './imports/import-rules';
import { readServerImports } from './imports/read-imports';

const repo = resolve(import.meta.dirname, '../..');
const graph = folderGraph(readServerImports(repo));
const findings = ruleBreaches(graph);

if (process.argv.includes('--list')) {
  console.log(JSON.stringify(baselineOf(findings), null, 2));
  process.exit(0);
}

const fileImports = (breaches: readonly Breach[]) => breaches.reduce((sum, breach) => sum + breach.edge.imports.length, 0);
const breachesOf = (rule: Breach['rule']) => findings.breaches.filter((breach) => breach.rule === rule);
const modules = graph.edges.filter((edge) => edge.from.startsWith('modules/') && edge.to.startsWith('modules/'));
const bothWays = modules.filter((edge) => edge.from < edge.to && modules.some((back) => back.from === edge.to && back.to === edge.from));
const layers = breachesOf('layers');
const intoModules = layers.filter((breach) => breach.edge.to.startsWith('modules/'));
const reacting = breachesOf('federation-notifications');

console.log('Folder imports of server/src today');
for (const group of importCycles(graph)) console.log(`  a loop of ${group.length} places: ${group.join(', ')}`);
console.log(`  module pairs importing each other both ways: ${bothWays.length}`);
console.log(`  imports up the layers: ${layers.length} folder edges (${fileImports(layers)} file imports), ${intoModules.length} of them from below into modules/`);
console.log(`  modules importing federation or notifications: ${reacting.length} folder edges (${fileImports(reacting)} file imports)`);

const result = checkAgainst(findings, readBaseline(repo));
if (result.ok) {
  console.log(`\nNo import breaks a rule beyond ${BASELINE_FILE}, and everything it lists still does.`);
} else {
  console.error(`\n${result.message}`);
  process.exitCode = 1;
}

// `npm run check:imports`: the folder-level import rules of server/src (docs/architecture.md), with
// today's counts. `--list` prints each breaking folder import, one a line, and nothing when none does.
import { resolve } from 'node:path';
import { folderGraph } from './imports/folder-graph';
import { breachLines, checkRules, ruleBreaches } from './imports/import-rules';
import { readServerImports } from './imports/read-imports';

const repo = resolve(import.meta.dirname, '../..');
const graph = folderGraph(readServerImports(repo));
const findings = ruleBreaches(graph);

if (process.argv.includes('--list')) {
  for (const line of breachLines(findings)) console.log(line);
  process.exit(0);
}

const fileImports = graph.edges.reduce((sum, edge) => sum + edge.imports.length, 0);
const modules = graph.edges.filter((edge) => edge.from.startsWith('modules/') && edge.to.startsWith('modules/'));

console.log('Folder imports of server/src today');
console.log(`  places: ${new Set(graph.edges.flatMap((edge) => [edge.from, edge.to])).size}, folder imports: ${graph.edges.length} (${fileImports} file imports), between modules: ${modules.length}`);

const result = checkRules(findings);
if (result.ok) {
  console.log('\nNo import breaks a rule: the places import one way, the modules in their order.');
} else {
  console.error(`\n${result.message}`);
  process.exitCode = 1;
}

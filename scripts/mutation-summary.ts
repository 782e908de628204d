/**
 * Mutation testing summary: reads every `reports/mutation/<area>/mutation.json` that Stryker wrote
 * and writes `reports/mutation/SUMMARY.md` (scores per file and per area, what survives, and the
 * equivalent mutants of `mutation/equivalent.md`) and `reports/mutation/index.html`, the one HTML
 * report of every area (Stryker's report viewer over the JSON reports merged into one).
 *
 *   node --import tsx scripts/mutation-summary.ts         only the summary, from the reports on disk
 *   node --import tsx scripts/mutation-summary.ts --run   every area in turn first (`npm run mutation`)
 *
 * With --run an area whose config does not exist yet is skipped, and an area that fails (a broken
 * threshold, a test run error) does not stop the next ones: the summary is still written, and the
 * exit code says something failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportsDir = path.join(root, 'reports', 'mutation');
const equivalentFile = path.join(root, 'mutation', 'equivalent.md');
const htmlFile = path.join(reportsDir, 'index.html');

/** The areas in the order `npm run mutation` runs them, with the score each file must reach. */
const AREAS: Record<string, { target: number; what: string }> = {
  core: { target: 90, what: 'the shared rules (`core/`)' },
  outbox: { target: 90, what: 'the outbox and the drafts (`src/lib/outbox/`, `src/lib/drafts/`)' },
  server: { target: 85, what: "the server's guarding rules" },
};
const DEFAULT_TARGET = 90;

type MutantStatus = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: MutantStatus;
  location: { start: { line: number; column: number } };
  coveredBy?: string[];
  killedBy?: string[];
}

interface Report {
  schemaVersion?: string;
  thresholds?: { high: number; low: number };
  projectRoot?: string;
  files: Record<string, { source: string; mutants: Mutant[] }>;
  testFiles?: Record<string, { source?: string; tests: { id: string }[] }>;
  framework?: { name?: string; version?: string };
}

interface Counts {
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  errors: number;
  ignored: number;
}

function count(mutants: readonly Mutant[]): Counts {
  const c: Counts = { mutants: mutants.length, killed: 0, timeout: 0, survived: 0, noCoverage: 0, errors: 0, ignored: 0 };
  for (const m of mutants) {
    if (m.status === 'Killed') c.killed++;
    else if (m.status === 'Timeout') c.timeout++;
    else if (m.status === 'Survived') c.survived++;
    else if (m.status === 'NoCoverage') c.noCoverage++;
    else if (m.status === 'CompileError' || m.status === 'RuntimeError') c.errors++;
    else if (m.status === 'Ignored') c.ignored++;
  }
  return c;
}

/**
 * Stryker's mutation score: mutants detected (killed or timed out) out of those that could be
 * (errors and ignored mutants left out). A file without such mutants has nothing to miss.
 */
function score(c: Counts): number {
  const valid = c.killed + c.timeout + c.survived + c.noCoverage;
  return valid === 0 ? 100 : ((c.killed + c.timeout) / valid) * 100;
}

function add(a: Counts, b: Counts): Counts {
  return {
    mutants: a.mutants + b.mutants,
    killed: a.killed + b.killed,
    timeout: a.timeout + b.timeout,
    survived: a.survived + b.survived,
    noCoverage: a.noCoverage + b.noCoverage,
    errors: a.errors + b.errors,
    ignored: a.ignored + b.ignored,
  };
}

const EMPTY: Counts = { mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, errors: 0, ignored: 0 };

const pct = (n: number): string => `${n.toFixed(2)}%`;
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Markdown inline code that may itself hold backticks: the fence is one backtick longer than any run inside. */
function code(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = s === '' || s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

function row(name: string, c: Counts, target: number): string {
  const s = score(c);
  const mark = s >= target ? 'yes' : '**no**';
  return `| ${name} | ${c.mutants} | ${c.killed} | ${c.timeout} | ${c.survived} | ${c.noCoverage} | ${c.errors} | ${c.ignored} | ${pct(s)} | ${mark} |`;
}

/** The line of source a mutant sits on, for the list of survivors. */
function sourceLine(source: string, line: number): string {
  return source.split('\n')[line - 1] ?? '';
}

function areaSection(area: string, report: Report, measured: Date): { text: string; total: Counts; target: number; everyFile: boolean } {
  const target = AREAS[area]?.target ?? DEFAULT_TARGET;
  const files = Object.keys(report.files).sort();
  const lines: string[] = [];
  lines.push(`## ${area}${AREAS[area] ? `: ${AREAS[area].what}` : ''}`);
  lines.push('');
  lines.push(`JSON report: [reports/mutation/${area}/mutation.json](${area}/mutation.json) (written ${measured.toISOString()}), target ${target}% per file.`);
  lines.push('');
  lines.push('| file | mutants | killed | timeout | survived | no coverage | errors | ignored | score | meets target |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|');
  let total = EMPTY;
  let everyFile = true;
  const survivors: string[] = [];
  for (const file of files) {
    const { mutants, source } = report.files[file]!;
    const c = count(mutants);
    total = add(total, c);
    if (score(c) < target) everyFile = false;
    lines.push(row(`\`${file}\``, c, target));
    const missed = mutants
      .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
      .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
    for (const m of missed) {
      const where = `${file}:${m.location.start.line}:${m.location.start.column}`;
      const original = oneLine(sourceLine(source, m.location.start.line));
      const replacement = m.replacement === undefined ? '' : ` -> ${code(oneLine(m.replacement))}`;
      survivors.push(`- ${code(where)} ${m.mutatorName} (${m.status})${replacement} in ${code(original)}`);
    }
  }
  lines.push(row('**all files**', total, target));
  lines.push('');
  if (survivors.length > 0) {
    lines.push(`Mutants not detected (${survivors.length}):`);
    lines.push('');
    lines.push(...survivors);
    lines.push('');
  }
  return { text: lines.join('\n'), total, target, everyFile };
}

function runAreas(): string[] {
  const failed: string[] = [];
  for (const area of Object.keys(AREAS)) {
    const config = path.join(root, 'mutation', `stryker.${area}.config.mjs`);
    if (!existsSync(config)) {
      console.warn(`mutation: no ${path.relative(root, config)}, skipping ${area}`);
      continue;
    }
    console.log(`mutation: ${area}`);
    const result = spawnSync('npm', ['run', `mutation:${area}`], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`mutation: ${area} failed (exit ${result.status ?? result.signal})`);
      failed.push(area);
    }
  }
  return failed;
}

/**
 * The areas' reports as one (the report schema holds any number of files). Mutant and test ids
 * are only unique within an area's report, so each gets its area as a prefix.
 */
function mergeReports(reports: ReadonlyArray<{ area: string; report: Report }>): Report {
  const merged: Report = { schemaVersion: '1.0', files: {}, testFiles: {} };
  const targets = reports.map(({ area }) => AREAS[area]?.target ?? DEFAULT_TARGET);
  merged.thresholds = { high: Math.max(DEFAULT_TARGET, ...targets), low: Math.min(DEFAULT_TARGET, ...targets) };
  for (const { area, report } of reports) {
    const id = (one: string) => `${area}-${one}`;
    merged.projectRoot ??= report.projectRoot;
    merged.framework ??= report.framework;
    for (const [file, { source, mutants }] of Object.entries(report.files)) {
      merged.files[file] = {
        source,
        mutants: mutants.map((m) => ({ ...m, id: id(m.id), coveredBy: m.coveredBy?.map(id), killedBy: m.killedBy?.map(id) })),
      };
    }
    for (const [file, tests] of Object.entries(report.testFiles ?? {})) {
      merged.testFiles![file] = { ...tests, tests: tests.tests.map((test) => ({ ...test, id: id(test.id) })) };
    }
  }
  return merged;
}

/** Stryker's own report page (the mutation-testing-elements viewer it ships) around the merged report. */
function reportHtml(report: Report): string {
  const require = createRequire(import.meta.url);
  const viewer = readFileSync(require.resolve('mutation-testing-elements/dist/mutation-test-elements.js'), 'utf8');
  // `<` escaped inside the JSON, so no text in a source file can close the script element.
  const json = JSON.stringify(report).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>Mutation testing: ${Object.keys(AREAS).join(', ')}</title>
<script>
${viewer}
</script>
</head>
<body>
<mutation-test-report-app titlePostfix="Kruh">
Your browser does not support custom elements: open this report in a current Firefox, Chrome, Safari or Edge.
</mutation-test-report-app>
<script>
const app = document.querySelector('mutation-test-report-app');
app.report = ${json};
const paint = () => { document.body.style.backgroundColor = app.themeBackgroundColor; };
app.addEventListener('theme-changed', paint);
paint();
</script>
</body>
</html>
`;
}

/** The equivalent mutants file, its headings one level down so they sit under the summary's. */
function equivalentSection(): string {
  if (!existsSync(equivalentFile)) return '## Equivalent mutants\n\nNone listed (`mutation/equivalent.md` does not exist).\n';
  const text = readFileSync(equivalentFile, 'utf8').trim();
  const shifted = text.replace(/^(#+) /gm, '#$1 ');
  return shifted.startsWith('## ') ? `${shifted}\n` : `## Equivalent mutants\n\n${shifted}\n`;
}

function main(): void {
  const run = process.argv.includes('--run');
  const failed = run ? runAreas() : [];

  const known = Object.keys(AREAS);
  const areas = existsSync(reportsDir)
    ? readdirSync(reportsDir)
        .filter((name) => existsSync(path.join(reportsDir, name, 'mutation.json')))
        .sort((a, b) => (known.includes(a) ? known.indexOf(a) : known.length) - (known.includes(b) ? known.indexOf(b) : known.length) || a.localeCompare(b))
    : [];

  const sections: string[] = [];
  const overview: string[] = [];
  const reports: { area: string; report: Report }[] = [];
  let stryker = '';
  for (const area of areas) {
    const file = path.join(reportsDir, area, 'mutation.json');
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    reports.push({ area, report });
    if (report.framework?.version) stryker = `${report.framework.name ?? 'StrykerJS'} ${report.framework.version}`;
    const { text, total, target, everyFile } = areaSection(area, report, statSync(file).mtime);
    sections.push(text);
    overview.push(`| ${area} | ${Object.keys(report.files).length} | ${total.mutants} | ${pct(score(total))} | ${target}% | ${everyFile ? 'yes' : '**no**'} |`);
  }
  const missing = known.filter((a) => !areas.includes(a));

  const out: string[] = [];
  out.push('# Mutation testing summary');
  out.push('');
  out.push('Generated by `npm run mutation` (Stryker over each area, then `node --import tsx scripts/mutation-summary.ts`).');
  out.push('One area alone: `npm run mutation:<area>` (its config is `mutation/stryker.<area>.config.mjs`), then');
  out.push('`npm run mutation:summary` to rewrite this file and the HTML report from the JSON reports on disk.');
  out.push('');
  out.push('The server and outbox areas run incrementally: `npm run mutation:server` (that is,');
  out.push('`npx stryker run mutation/stryker.server.config.mjs`) reads `reports/mutation/server/mutation.json` as');
  out.push('its baseline, runs again only the mutants whose code changed or whose covering tests changed or');
  out.push('are new, reuses every other result, and writes the whole report back to that file; the outbox');
  out.push('likewise with `reports/mutation/outbox/mutation.json`. Add `-- --force` to run every mutant again');
  out.push('(server 45-60 minutes, outbox about 25, at concurrency 1); core always runs in full (CI runs it).');
  out.push('');
  out.push('HTML report of every area: [reports/mutation/index.html](index.html) (the JSON reports merged; open it in a browser).');
  out.push('');
  out.push(`Date: ${new Date().toISOString()}${stryker ? `; ${stryker}` : ''}.`);
  out.push('');
  out.push('Score = mutants detected (killed or timed out) / (detected + survived + no coverage); mutants that');
  out.push('did not compile or were ignored are left out, as Stryker counts them.');
  out.push('');
  out.push('| area | files | mutants | score | target per file | every file meets it |');
  out.push('|---|---:|---:|---:|---:|:---:|');
  out.push(...overview);
  out.push('');
  if (missing.length > 0) out.push(`Not measured yet: ${missing.join(', ')}.`, '');
  if (failed.length > 0) out.push(`Failed in this run: ${failed.join(', ')} (see the console output).`, '');
  out.push(...sections);
  out.push(equivalentSection());

  writeFileSync(path.join(reportsDir, 'SUMMARY.md'), out.join('\n'));
  console.log(`mutation: wrote ${path.relative(root, path.join(reportsDir, 'SUMMARY.md'))}`);
  if (reports.length > 0) {
    writeFileSync(htmlFile, reportHtml(mergeReports(reports)));
    console.log(`mutation: wrote ${path.relative(root, htmlFile)}`);
  }
  if (failed.length > 0) process.exitCode = 1;
}

main();

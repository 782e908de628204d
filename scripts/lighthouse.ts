/**
 * Lighthouse performance (and with --accessibility, accessibility) of the app's screens as a phone
 * sees them (Lighthouse's mobile settings: a mid-range phone's CPU, a slow 4G network, simulated),
 * in Debian's Chromium.
 *
 *   npm run lighthouse [-- --runs 3] [-- --web-dir dist] [-- --label "after"]
 *   npm run lighthouse -- --pages feed,post,profile,group --accessibility --out tests/e2e/lighthouse.md
 *
 * Builds nothing itself (`npm run lighthouse` builds first): it seeds a small database in a
 * temporary folder, starts the real server on a free port serving `--web-dir`, runs Lighthouse
 * `--runs` times on a cold load of each page of `--pages` (storage cleared) and then on a repeat
 * visit (the service worker and the local database kept), and adds the medians and every run to
 * `--out` (default bench/results/lighthouse-<date>.md; the day's earlier runs stay above). A
 * benchmark, not a test: figures vary with the machine's load.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import { appPaths } from '../core/app-paths';
import { freePort } from '../server/tests/helpers/free-port';
import { BUDGETS, firstLoadScripts, kb, serviceWorker, total } from '../tests/build/budget';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'web-dir': { type: 'string', default: 'dist' },
    label: { type: 'string', default: '' },
    out: { type: 'string' },
    /** Also keep the last cold run's full Lighthouse report (JSON) here, to see what to fix. */
    report: { type: 'string' },
    /**
     * Run Chromium and the server under `nice -n <value>` (`--nice=-10`; negative needs root): on a machine shared
     * with other work, a higher priority keeps their load out of the CPU figures.
     */
    nice: { type: 'string' },
    /** The screens to measure, by name (feed, post, profile, group); the first is the one in the title. */
    pages: { type: 'string', default: 'feed' },
    /** Also score accessibility (one cold run per page). */
    accessibility: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const webDir = resolve(args['web-dir']);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

function run(command: string, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, argv, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`${command} ${argv.join(' ')} exited with ${code}`))));
  });
}

async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > until) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stops a child and waits until it has exited (killed outright after 5 s), so its files are let go. */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

interface RunResult {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  tti: number;
  unusedJs: number;
  scriptBytes: number;
  lcpElement: string;
}

type Audits = Record<string, { numericValue?: number; details?: Record<string, unknown> } | undefined>;

interface Report {
  categories: { performance?: { score: number | null }; accessibility?: { score: number | null } };
  audits: Audits;
}

function summarise(lhr: Report): RunResult {
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const unused = lhr.audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined;
  const weight = lhr.audits['resource-summary']?.details as { items?: Array<{ resourceType: string; transferSize: number }> } | undefined;
  const lcpItems = lhr.audits['largest-contentful-paint-element']?.details as
    | { items?: Array<{ items?: Array<{ node?: { selector?: string; nodeLabel?: string } }> }> }
    | undefined;
  const node = lcpItems?.items?.[0]?.items?.[0]?.node;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
    tti: value('interactive'),
    unusedJs: unused?.overallSavingsBytes ?? 0,
    scriptBytes: weight?.items?.find((i) => i.resourceType === 'script')?.transferSize ?? 0,
    lcpElement: node ? `${node.selector ?? ''} (${(node.nodeLabel ?? '').slice(0, 40)})` : '',
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

function row(name: string, r: RunResult): string {
  return `| ${name} | ${r.score} | ${s(r.fcp)} | ${s(r.lcp)} | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${s(r.si)} | ${s(r.tti)} | ${kib(r.unusedJs)} | ${kib(r.scriptBytes)} |`;
}

function medianOf(results: RunResult[]): RunResult {
  const pick = (key: keyof RunResult) => median(results.map((r) => r[key] as number));
  return {
    score: pick('score'),
    fcp: pick('fcp'),
    lcp: pick('lcp'),
    tbt: pick('tbt'),
    cls: pick('cls'),
    si: pick('si'),
    tti: pick('tti'),
    unusedJs: pick('unusedJs'),
    scriptBytes: pick('scriptBytes'),
    lcpElement: results[0]?.lcpElement ?? '',
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kruh-lighthouse-'));
  const profile = mkdtempSync(join(tmpdir(), 'kruh-lighthouse-chrome-'));
  let server: ChildProcess | undefined;
  let chrome: ChildProcess | undefined;
  const loadBefore = loadavg()[0] as number;
  try {
    // A feed with something to show: a few hundred users and their posts, the demo pictures.
    await run(process.execPath, [
      '--import', 'tsx', 'server/bench/seed.ts',
      '--users', '200', '--posts', '2000', '--likes', '3000', '--comments', '500', '--groups', '5', '--demo',
      '--data-dir', dataDir,
    ]);
    const port = await freePort();
    const niced = (command: string, argv: string[]): [string, string[]] =>
      args.nice ? ['nice', ['-n', args.nice, command, ...argv]] : [command, argv];
    server = spawn(...niced(process.execPath, ['--import', 'tsx', 'server/src/server.ts']), {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIR: webDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const origin = `http://127.0.0.1:${port}`;
    await waitFor(`${origin}/api/health`);

    const debugPort = await freePort();
    chrome = spawn(...niced(chromePath, [
      '--headless', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${debugPort}`,
      `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check', 'about:blank',
    ]), { stdio: 'ignore' });
    await waitFor(`http://127.0.0.1:${debugPort}/json/version`);

    // The screens, on the seeded data: the demo user's profile and group, the newest post.
    const newest = (await (await fetch(`${origin}/api/feed`)).json()) as { posts: Array<{ _id: string }> };
    const PAGES: Record<string, string> = {
      feed: appPaths.home(),
      post: appPaths.post(newest.posts[0]?._id ?? ''),
      profile: appPaths.user('alice'),
      group: appPaths.group('demo_garden'),
    };
    const pages = args.pages.split(',').map((name) => {
      const path = PAGES[name];
      if (!path) throw new Error(`unknown page ${name}: one of ${Object.keys(PAGES).join(', ')}`);
      return { name, path };
    });

    const measure = async (path: string, warm: boolean, category: 'performance' | 'accessibility' = 'performance') => {
      const result = await lighthouse(`${origin}${path}`, {
        port: debugPort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [category],
        disableStorageReset: warm,
      });
      if (!result) throw new Error('lighthouse gave no result');
      if (!warm && args.report && category === 'performance') writeFileSync(args.report, JSON.stringify(result.lhr, null, 1));
      return result.lhr as unknown as Report;
    };

    const measured: Array<{ name: string; path: string; cold: RunResult[]; warm: RunResult[]; accessibility: number | null; failing: string[] }> = [];
    for (const { name, path } of pages) {
      const cold: RunResult[] = [];
      for (let i = 0; i < runs; i += 1) {
        cold.push(summarise(await measure(path, false)));
        console.log(`${name} cold ${i + 1}/${runs}: ${cold.at(-1)?.score}`);
      }
      // A repeat visit: one load installs the service worker and fills the local database.
      await measure(path, true);
      const warm: RunResult[] = [];
      for (let i = 0; i < runs; i += 1) {
        warm.push(summarise(await measure(path, true)));
        console.log(`${name} warm ${i + 1}/${runs}: ${warm.at(-1)?.score}`);
      }
      let accessibility: number | null = null;
      const failing: string[] = [];
      if (args.accessibility) {
        const report = await measure(path, false, 'accessibility');
        accessibility = Math.round((report.categories.accessibility?.score ?? 0) * 100);
        for (const [id, audit] of Object.entries(report.audits)) {
          const scored = audit as { score?: number | null; scoreDisplayMode?: string; title?: string } | undefined;
          if (scored?.scoreDisplayMode === 'binary' && scored.score === 0) failing.push(`${id} (${scored.title ?? ''})`);
        }
        console.log(`${name} accessibility: ${accessibility}`);
      }
      measured.push({ name, path, cold, warm, accessibility, failing });
    }

    const scripts = firstLoadScripts(webDir);
    const date = new Date().toISOString().slice(0, 10);
    const header = '| run | score | FCP | LCP | TBT | CLS | Speed Index | TTI | unused JS | JS transferred |\n|---|---|---|---|---|---|---|---|---|---|';
    const command = `npm run lighthouse -- --runs ${runs} --pages ${args.pages}${args.accessibility ? ' --accessibility' : ''}${args.nice ? ` --nice=${args.nice}` : ''}`;
    const md = [
      `# Lighthouse, ${pages.map((p) => p.name).join(', ')}, mobile${args.label ? `: ${args.label}` : ''}`,
      '',
      `${new Date().toISOString()}, \`${command}\`, Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, ` +
        `${chromePath} (--headless --no-sandbox --disable-gpu), default mobile settings (simulated slow 4G, 4x CPU slowdown), ` +
        `${runs} runs each, medians first. Logged out, on a seeded database (200 users, 2,000 posts, ` +
        `the demo users' posts with pictures). Load average ${loadBefore.toFixed(1)} before and ${(loadavg()[0] as number).toFixed(1)} after, ` +
        `on ${availableParallelism()} cores${args.nice ? `, Chromium and the server under nice ${args.nice}` : ''}: ` +
        'the CPU-bound figures (TBT, LCP) grow with other work on the machine.',
      '',
      `First-load JavaScript (gzip): ${kb(total(scripts))} in ${scripts.length} files (budget ${kb(BUDGETS.firstLoadJs)}); ` +
        `service worker ${kb(serviceWorker(webDir).gzip)} (budget ${kb(BUDGETS.serviceWorker)}).`,
      '',
      ...(args.accessibility
        ? [
            '## Accessibility',
            '',
            '| page | score | failing audits |',
            '|---|---|---|',
            ...measured.map((m) => `| ${m.name} (\`${m.path.replace(/\/p\/\w+/, '/p/<id>')}\`) | ${m.accessibility} | ${m.failing.join(', ') || 'none'} |`),
            '',
          ]
        : []),
      ...measured.flatMap((m) => [
        `## Performance: ${m.name}`,
        '',
        header,
        row('cold load (storage cleared)', medianOf(m.cold)),
        row('repeat visit (service worker, local database)', medianOf(m.warm)),
        '',
        `Largest contentful paint element (cold): ${medianOf(m.cold).lcpElement || 'n/a'}; (repeat): ${medianOf(m.warm).lcpElement || 'n/a'}`,
        '',
        '### Every run',
        '',
        header,
        ...m.cold.map((r, i) => row(`cold ${i + 1}`, r)),
        ...m.warm.map((r, i) => row(`repeat ${i + 1}`, r)),
        '',
      ]),
    ].join('\n');
    const out = args.out ?? join('bench', 'results', `lighthouse-${date}.md`);
    mkdirSync(resolve(out, '..'), { recursive: true });
    // The day's earlier runs stay above this one (a before and an after side by side).
    if (existsSync(out)) appendFileSync(out, `\n---\n\n${md}`);
    else writeFileSync(out, md);
    console.log(md);
    console.log(`written to ${out}`);
  } finally {
    await Promise.all([stop(chrome), stop(server)]);
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB } from '../helpers/test-app';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../../..');

/**
 * The benchmark end to end at a tiny size (SQLite only; the PostgreSQL path differs only in the
 * URL): npm run seed, then npm run bench for one scenario for one second, into a temp folder.
 */
describe.skipIf(TEST_DB !== 'sqlite')('bench harness', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kruh-bench-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds, measures routes in turns with their query plans and writes the results', async () => {
    const data = join(dir, 'data');
    const out = join(dir, 'results');
    const tsx = ['--import', 'tsx'];
    await run(process.execPath, [...tsx, 'server/bench/seed.ts', '--users', '60', '--posts', '300', '--likes', '600', '--comments', '200', '--groups', '3', '--data-dir', data], { cwd: REPO });
    await run(
      process.execPath,
      [...tsx, 'server/bench/bench.ts', '--data-dir', data, '--duration', '2', '--warmup', '0', '--connections', '2', '--only', 'feed_newest,feed_popular_week', '--turns', '2', '--no-writes', '--server', 'source', '--out', out],
      { cwd: REPO },
    );
    const files = readdirSync(out).sort();
    expect(files).toEqual(expect.arrayContaining(['README.md']));
    const json = files.find((f) => f.endsWith('-sqlite-300.json'));
    expect(json).toBeDefined();
    const result = JSON.parse(readFileSync(join(out, json!), 'utf8')) as {
      results: { name: string; status: number; requests: number; non2xx: number }[];
      settings: { turns: number };
      plans: Record<string, { plan: string[] }[]>;
      seed: { command: string };
    };
    expect(result.results.map((r) => r.name)).toEqual(['bare', 'feed_newest', 'feed_popular_week']);
    // The two rows took two turns each and are reported once, as one measure.
    expect(result.settings.turns).toBe(2);
    expect(readFileSync(join(out, json!.replace(/\.json$/u, '.md')), 'utf8')).toContain('taken in 2 turns');
    for (const r of result.results) {
      expect(r.status).toBe(200);
      expect(r.requests).toBeGreaterThan(0);
      expect(r.non2xx).toBe(0);
    }
    expect(result.plans.feed_newest!.length).toBeGreaterThan(0);
    expect(result.plans.feed_newest![0]!.plan.join('\n')).toMatch(/SCAN|SEARCH/);
    expect(result.seed.command).toContain('--posts 300');
  }, 90_000);
});

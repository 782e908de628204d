import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { JOB_HANDLERS } from '../../src/jobs';
import { createUser } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';
import { appToken } from '../clientapi/oauth-helpers';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one series of the exposition text (`name{labels} value`), or undefined. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('/metrics', () => {
  describe('without METRICS_TOKEN', () => {
    const t = useTestApp();

    it('is not there', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('with METRICS_TOKEN', () => {
    const t = useTestApp({ METRICS_TOKEN: TOKEN });
    const scrape = () => t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });

    it('refuses a scrape without the token or with another one', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer wrong', TOKEN, `Basic ${TOKEN}`]) {
        const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.body).not.toContain('kruh_');
      }
    });

    it('times requests by route pattern and status, not by raw URL', async () => {
      const user = await createUser(t.app);
      await t.app.inject({ method: 'GET', url: '/api/health' });
      await t.app.inject({ method: 'GET', url: `/api/profile/user/${user.username}`, headers: user.auth });
      await t.app.inject({ method: 'GET', url: '/api/profile/user/nobodyhereatall', headers: user.auth });
      const res = await scrape();
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      const text = res.body;
      expect(valueOf(text, 'kruh_http_request_duration_seconds_count', { method: 'GET', route: '/api/health', status_code: '200' })).toBe(1);
      expect(valueOf(text, 'kruh_http_request_duration_seconds_count', { method: 'GET', route: '/api/profile/user/:username', status_code: '200' })).toBe(1);
      expect(valueOf(text, 'kruh_http_request_duration_seconds_count', { method: 'GET', route: '/api/profile/user/:username', status_code: '404' })).toBe(1);
      expect(text).not.toContain(user.username);
      expect(text).not.toContain('nobodyhereatall');
      // The default process metrics are there too.
      expect(valueOf(text, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    });

    it('reads the job queue from the database on each scrape: depth and how long the oldest due job waited', async () => {
      const kind = Object.keys(JOB_HANDLERS)[0]!;
      let text = (await scrape()).body;
      const before = valueOf(text, 'kruh_job_queue_depth', { kind }) ?? -1;
      expect(before).toBeGreaterThanOrEqual(0);
      const now = Date.now();
      await t.app.db
        .insertInto('jobs')
        .values([
          { kind, payload: '{}', run_at: now - 60_000, locked_until: null, last_error: null, created_at: now - 60_000 },
          { kind, payload: '{}', run_at: now + 3_600_000, locked_until: null, last_error: null, created_at: now },
        ])
        .execute();
      text = (await scrape()).body;
      expect(valueOf(text, 'kruh_job_queue_depth', { kind })).toBe(before + 2);
      expect(valueOf(text, 'kruh_job_queue_oldest_age_seconds', { kind })).toBeGreaterThanOrEqual(60);
      await t.app.db.deleteFrom('jobs').where('kind', '=', kind).execute();
      text = (await scrape()).body;
      expect(valueOf(text, 'kruh_job_queue_depth', { kind })).toBe(0);
      expect(valueOf(text, 'kruh_job_queue_oldest_age_seconds', { kind })).toBe(0);
    });

    it('counts the open notification streams', async () => {
      expect(valueOf((await scrape()).body, 'kruh_notification_streams_open')).toBe(0);
      const stream = () => new ServerResponse(new IncomingMessage(new Socket()));
      const untrack = [stream(), stream()].map((res, i) => t.app.notificationHub.track(res, { userId: `u${i}`, address: '10.0.0.1' }));
      expect(valueOf((await scrape()).body, 'kruh_notification_streams_open')).toBe(2);
      for (const done of untrack) done();
      expect(valueOf((await scrape()).body, 'kruh_notification_streams_open')).toBe(0);
    });

    it("counts fediverse apps' open streaming sockets", async () => {
      expect(valueOf((await scrape()).body, 'kruh_client_streams_open')).toBe(0);
      const token = await appToken(t.app, await createUser(t.app), 'read');
      const socket = await t.app.injectWS('/api/v1/streaming', { headers: { authorization: `Bearer ${token}` } });
      await vi.waitFor(async () => expect(valueOf((await scrape()).body, 'kruh_client_streams_open')).toBe(1), { timeout: 5_000, interval: 20 });
      socket.terminate();
      await vi.waitFor(async () => expect(valueOf((await scrape()).body, 'kruh_client_streams_open')).toBe(0), { timeout: 5_000, interval: 20 });
    });

    it('tells the connection pool on PostgreSQL only', async () => {
      const text = (await scrape()).body;
      if (TEST_DB === 'postgres') {
        expect(valueOf(text, 'kruh_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
        expect(valueOf(text, 'kruh_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
        expect(valueOf(text, 'kruh_db_pool_connections', { state: 'waiting' })).toBe(0);
      } else {
        expect(text).not.toContain('kruh_db_pool_connections');
      }
    });
  });

  describe('two apps in one process', () => {
    const a = useTestApp({ METRICS_TOKEN: TOKEN });
    const b = useTestApp({ METRICS_TOKEN: TOKEN });

    it('keep their own counts', async () => {
      await a.app.inject({ method: 'GET', url: '/api/health/live' });
      await a.app.inject({ method: 'GET', url: '/api/health/live' });
      await b.app.inject({ method: 'GET', url: '/api/health/live' });
      const labels = { method: 'GET', route: '/api/health/live', status_code: '200' };
      const read = async (app: typeof a.app) => valueOf((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body, 'kruh_http_request_duration_seconds_count', labels);
      expect(await read(a.app)).toBe(2);
      expect(await read(b.app)).toBe(1);
    });
  });
});

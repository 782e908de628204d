import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolCounts } from '../../db/database.js';
import { remoteCopyTotals } from '../../db/remote-media-copies.js';
import { unauthorized } from '../../lib/app-error.js';
import { bearer } from '../../plugins/auth.js';
import { hostStates } from '../../lib/jobs/host-breaker.js';
import { queueBacklog } from '../../lib/jobs/queue.js';

export const METRICS_PATH = '/metrics';

/** The route label of a request no route matched: its raw URL would make one series per URL tried. */
const UNMATCHED = 'unmatched';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries the token, compared in constant time so timing does not reveal it. */
function carriesToken(request: FastifyRequest, expected: Buffer): boolean {
  const token = bearer(request);
  return token !== undefined && timingSafeEqual(digest(token), expected);
}

/**
 * The instance's measures, read by Prometheus from /metrics: request durations by route pattern
 * and status, the job queue, the remote hosts it holds back and the copies of remote pictures kept
 * (read from the database at each scrape, so every process reports the shared figures), this
 * process's open notification streams (the web app's and fediverse apps') and the mails it sent or failed to send, its PostgreSQL pool
 * and the process itself. A registry of its own per app, so several apps in one process (the tests) do not mix.
 * Only with METRICS_TOKEN set, which a scrape must send as its bearer token: the figures tell
 * how busy the instance is and which routes exist, nothing for the public.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { pool?: PoolCounts | undefined }) => {
    const token = app.config.metricsToken;
    if (!token) return;
    const expected = digest(token);
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const durations = new Histogram({
      name: 'kruh_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by route pattern and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [registry],
    });
    app.addHook('onResponse', async (request, reply) => {
      durations.observe(
        { method: request.method, route: request.routeOptions.url ?? UNMATCHED, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });

    /** A gauge of this registry with one label. */
    const gauge = <L extends string>(name: string, help: string, label: L) =>
      new Gauge({ name, help, labelNames: [label] as const, registers: [registry] });
    const depth = gauge('kruh_job_queue_depth', 'Jobs waiting in the queue by kind, due now or scheduled for later (retries, recurring work)', 'kind');
    const oldest = gauge('kruh_job_queue_oldest_age_seconds', 'How long the longest-waiting due job of the kind has been due, in seconds (0 when none is due)', 'kind');
    const hosts = gauge('kruh_job_hosts', 'Remote hosts (delivery inboxes) whose last request failed: parked (their jobs wait until the park ends) or failing (not parked yet)', 'state');
    const remoteCopies = gauge('kruh_remote_media_copies', "Copies of remote posts' pictures kept in the media storage (dropped REMOTE_MEDIA_DAYS after their fetch): how many, and their bytes", 'measure');
    const readShared = async () => {
      const kept = await remoteCopyTotals(app.db);
      remoteCopies.set({ measure: 'copies' }, kept.copies);
      remoteCopies.set({ measure: 'bytes' }, kept.bytes);
      const states = await hostStates(app.db, Date.now());
      hosts.set({ state: 'parked' }, states.parked);
      hosts.set({ state: 'failing' }, states.failing);
      // Every known kind, so an empty queue reads 0 rather than a missing series.
      const backlog = await queueBacklog(app.db, Object.keys(app.jobHandlers));
      depth.reset();
      oldest.reset();
      for (const { kind, depth: waiting, oldestAgeSeconds } of backlog) {
        depth.set({ kind }, waiting);
        oldest.set({ kind }, oldestAgeSeconds);
      }
    };

    new Gauge({
      name: 'kruh_notification_streams_open',
      help: 'Live notification streams this process holds open',
      registers: [registry],
      collect() {
        this.set(app.notificationHub.openStreams);
      },
    });
    new Gauge({
      name: 'kruh_client_streams_open',
      help: "Fediverse apps' streaming sockets this process holds open",
      registers: [registry],
      collect() {
        this.set(app.clientStreams.size);
      },
    });

    new Counter({
      name: 'kruh_mail_total',
      help: 'Mails this process handed to the mail server (or the outbox folder), by result: sent, or failed (to be tried again)',
      labelNames: ['result'] as const,
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ result: 'sent' }, app.mailCounts.sent);
        this.inc({ result: 'failed' }, app.mailCounts.failed);
      },
    });

    const { pool } = opts;
    if (pool) {
      new Gauge({
        name: 'kruh_db_pool_connections',
        help: "This process's PostgreSQL connections: total open, idle, and requests waiting for one",
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }

    app.get(METRICS_PATH, async (request, reply) => {
      if (!carriesToken(request, expected)) throw unauthorized('invalid_token');
      await readShared();
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'metrics', dependencies: ['database', 'notification-hub', 'jobs', 'mailer'] },
);

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { pgListenerFor } from '../modules/jobs/pg-listener.js';
import { hasBearer } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A visitor's (signed-out) answer of this GET route is the same for every visitor until
     * something is written, so it may be kept and served again (see visitor-cache.ts).
     */
    visitorCache?: boolean;
  }
  interface FastifyRequest {
    /** The content generation when a cacheable visitor request arrived; undefined otherwise. */
    visitorCacheGeneration?: number;
  }
  interface FastifyInstance {
    /** Forgets every kept visitor answer: called after any write, here or in another process. */
    invalidateVisitorCache(): void;
  }
}

/** Distinct URLs kept; the oldest kept goes first when a new one would pass this. */
export const VISITOR_CACHE_ENTRIES = 500;
export const CONTENT_CHANNEL = 'kruh_content';
/** Says on a cacheable route whether the answer was kept ("hit") or read now ("miss"). */
export const CACHE_HEADER = 'x-kruh-cache';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Entry {
  generation: number;
  storedAt: number;
  contentType: string;
  payload: string;
}

/**
 * Signed-out readers of the public listings all get the same answer, and they are most of a public
 * instance's reads: each such answer is kept and served again until anything is written. Any request
 * that may write (every method but GET, HEAD and OPTIONS, whatever its outcome) forgets them all in
 * this process at once, and in every other process through a PostgreSQL NOTIFY sent after it. An
 * answer is kept under the generation its request started in, so a read that raced a write is never
 * served again. A kept answer also expires after config.visitorCacheMs, which bounds how long a
 * listing windowed by time (popular this week) or a missed NOTIFY can leave it behind; 0 turns the
 * cache off. Signed-in readers are never served from it: their pages depend on who they are.
 */
export const visitorCachePlugin = fp(
  async (app: FastifyInstance) => {
    const maxAge = app.config.visitorCacheMs;
    let generation = 0;
    const entries = new Map<string, Entry>();
    const invalidate = () => {
      generation += 1;
      entries.clear();
    };
    app.decorate('invalidateVisitorCache', invalidate);
    if (maxAge <= 0) return;

    const processToken = randomBytes(8).toString('hex');
    const listener = pgListenerFor(app);
    if (listener) {
      // The signal names the schema written to, so deployments sharing a database (or test files
      // sharing one) leave each other's pages alone. A reconnect (null) may have missed writes.
      app.addHook('onReady', async () => {
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(app.db);
        const schema = rows[0]?.schema;
        await listener.listen(CONTENT_CHANNEL, (payload) => {
          // This process forgot its own pages when it wrote; its own signal is not news.
          if (payload === null || (payload !== `${schema}:${processToken}` && payload.startsWith(`${schema}:`))) invalidate();
        });
      });
      app.addHook('preClose', async () => listener.close());
    }

    const cacheable = (request: FastifyRequest) =>
      request.method === 'GET' && request.routeOptions.config.visitorCache === true && !hasBearer(request);

    // Callback hooks, not async ones: a kept page is this plugin's whole point, and each promise
    // on that path costs a measurable share of it.
    app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if (!cacheable(request)) return done();
      const entry = entries.get(request.url);
      if (entry && entry.generation === generation && Date.now() - entry.storedAt < maxAge) {
        reply.header(CACHE_HEADER, 'hit').type(entry.contentType).send(entry.payload);
        return;
      }
      request.visitorCacheGeneration = generation;
      reply.header(CACHE_HEADER, 'miss');
      done();
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      if (!SAFE_METHODS.has(request.method)) {
        invalidate();
        if (listener) {
          sql`select pg_notify(${CONTENT_CHANNEL}, current_schema() || ':' || ${processToken})`.execute(app.db).catch((error: unknown) => {
            app.log.warn({ err: error }, 'could not tell other processes to forget kept visitor pages');
          });
        }
        return done(null, payload);
      }
      const started = request.visitorCacheGeneration;
      if (started !== undefined && started === generation && reply.statusCode === 200 && typeof payload === 'string') {
        if (entries.size >= VISITOR_CACHE_ENTRIES) entries.delete(entries.keys().next().value as string);
        entries.set(request.url, { generation: started, storedAt: Date.now(), contentType: String(reply.getHeader('content-type')), payload });
      }
      done(null, payload);
    });
  },
  { name: 'visitor-cache', dependencies: ['database'] },
);

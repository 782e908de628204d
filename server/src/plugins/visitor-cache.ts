import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { notify } from '../db/dialect.js';
import { pgListenerFor } from '../lib/jobs/pg-listener.js';
import { hasBearer } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A visitor's (signed-out) answer of this GET route is the same for every visitor until
     * something is written, so it may be kept and served again (see visitor-cache.ts).
     */
    visitorCache?: boolean;
    /**
     * What a write through this route may change on a kept visitor page. 'counts': only the like
     * and comment counts shown there, so the pages may lag behind it by config.visitorCacheCountsMs.
     * 'content' (also when left out, so a new route is safe without a thought): which posts a
     * visitor may see or what they say, so the pages are forgotten at once.
     */
    visitorCacheWrite?: WriteKind;
  }
  interface FastifyRequest {
    /** The content generation when a cacheable visitor request arrived; undefined otherwise. */
    visitorCacheGeneration?: number;
  }
  interface FastifyInstance {
    /**
     * Forgets every kept visitor answer at once: after a write that may change what a visitor
     * sees, here or in another process, and after one made past the API (a script, a fixture).
     */
    invalidateVisitorCache(): void;
    /**
     * Counts the times the kept visitor answers were forgotten: an answer derived from one of them
     * elsewhere (the page at `/`) is stale once this has moved.
     */
    visitorCacheGeneration(): number;
  }
}

/** Distinct URLs kept; the oldest kept goes first when a new one would pass this. */
export const VISITOR_CACHE_ENTRIES = 500;
export const CONTENT_CHANNEL = 'kruh_content';
/** Says on a cacheable route whether the answer was kept ("hit") or read now ("miss"). */
export const CACHE_HEADER = 'x-kruh-cache';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** See `visitorCacheWrite` above. */
export type WriteKind = 'counts' | 'content';

/**
 * What a signal on CONTENT_CHANNEL (`<schema>:<process token>`, then `:counts` for a counts-only
 * write) asks of the process with this schema and token: nothing (another schema's write, or its
 * own, applied when it wrote), or the rule of the write's kind. A reconnect (null) may have missed
 * any write, and a payload it cannot read may be anything: both forget at once.
 */
export function signalKind(payload: string | null, schema: string, processToken: string): WriteKind | 'ignore' {
  if (payload === null) return 'content';
  if (!payload.startsWith(`${schema}:`)) return 'ignore';
  const [token, kind, ...rest] = payload.slice(schema.length + 1).split(':');
  if (token === processToken) return 'ignore';
  return kind === 'counts' && rest.length === 0 ? 'counts' : 'content';
}

interface Entry {
  generation: number;
  storedAt: number;
  contentType: string;
  payload: string;
}

/**
 * Signed-out readers of the public listings all get the same answer, and they are most of a public
 * instance's reads: each such answer is kept and served again until a write changes it. Any request
 * that may write (every method but GET, HEAD and OPTIONS, whatever its outcome) acts on the kept
 * answers by the kind its route declares in `visitorCacheWrite`, in this process at once and in every
 * other through a PostgreSQL NOTIFY sent after it:
 * - 'content', the default (a post, an edit, a deletion, a group's privacy, a block, a suspension,
 *   moderation...), may change which posts a visitor may see or their text: the kept answers are
 *   forgotten at once, so content removed or made private is never served from here again. An answer
 *   is kept under the generation its request started in, so a read that raced such a write is never
 *   served again.
 * - 'counts' (a like, a new comment) only moves a count on a post card: the first one makes the
 *   kept answers due config.visitorCacheCountsMs later, and the first read at or past that forgets
 *   them. Under a steady stream of likes a page is then read from the database once per that bound
 *   instead of after every write, and a count shows at most that late. A read that raced such a
 *   write is kept, with the old count, until the same deadline.
 * A kept answer also expires after config.visitorCacheMs, which bounds how long a listing windowed by
 * time (popular this week) or a missed NOTIFY can leave it behind; 0 turns the cache off. Signed-in
 * readers are never served from it: their pages depend on who they are.
 */
export const visitorCachePlugin = fp(
  async (app: FastifyInstance) => {
    const { visitorCacheMs: maxAge, visitorCacheCountsMs: countsMs } = app.config;
    let generation = 0;
    /** When the kept answers fall due after a counts write; Infinity while none is pending. */
    let deadline = Infinity;
    const entries = new Map<string, Entry>();
    const invalidate = () => {
      generation += 1;
      entries.clear();
      deadline = Infinity;
    };
    app.decorate('invalidateVisitorCache', invalidate);
    app.decorate('visitorCacheGeneration', () => generation);
    if (maxAge <= 0) return;

    // The first counts write since the pages were last forgotten sets the deadline; later ones
    // leave it, so the pages never lag further behind a write than countsMs.
    const countsChanged = () => {
      deadline = Math.min(deadline, Date.now() + countsMs);
    };
    const apply: Record<WriteKind, () => void> = { counts: countsMs > 0 ? countsChanged : invalidate, content: invalidate };

    const processToken = randomBytes(8).toString('hex');
    const signalled: Record<WriteKind, string> = { content: processToken, counts: `${processToken}:counts` };
    const listener = pgListenerFor(app);
    if (listener) {
      // The signal names the schema written to, so deployments sharing a database (or test files
      // sharing one) leave each other's pages alone.
      app.addHook('onReady', async () => {
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(app.db);
        const schema = rows[0]?.schema ?? '';
        await listener.listen(CONTENT_CHANNEL, (payload) => {
          const kind = signalKind(payload, schema, processToken);
          if (kind !== 'ignore') apply[kind]();
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
      const now = Date.now();
      if (now >= deadline) invalidate();
      const entry = entries.get(request.url);
      if (entry && entry.generation === generation && now - entry.storedAt < maxAge) {
        reply.header(CACHE_HEADER, 'hit').type(entry.contentType).send(entry.payload);
        return;
      }
      request.visitorCacheGeneration = generation;
      reply.header(CACHE_HEADER, 'miss');
      done();
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      if (!SAFE_METHODS.has(request.method)) {
        const kind: WriteKind = request.routeOptions.config.visitorCacheWrite === 'counts' ? 'counts' : 'content';
        apply[kind]();
        if (listener) {
          notify(app.db, CONTENT_CHANNEL, sql<string>`current_schema() || ':' || ${signalled[kind]}`).catch((error: unknown) => {
            app.log.warn({ err: error }, 'could not tell other processes about a write to kept visitor pages');
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

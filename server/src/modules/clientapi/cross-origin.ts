import type { FastifyInstance } from 'fastify';

/** What a cross-origin caller's preflight is told it may send. */
export interface CrossOriginRules {
  methods: string;
  /** Response headers the calling page may read besides the simple ones (paging's Link). */
  expose?: string;
}

/**
 * Apps that run in a browser on their own origin (web clients of the fediverse) call these routes
 * from another origin. A token always travels in the Authorization header, never in a cookie, so
 * any origin may read the answers: there is no ambient credential a hostile page could borrow.
 * `paths` take a trailing `*` for a whole area; each gets the preflight answer.
 */
export function allowCrossOrigin(app: FastifyInstance, paths: readonly string[], { methods, expose }: CrossOriginRules): void {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Access-Control-Allow-Origin', '*');
    if (expose) reply.header('Access-Control-Expose-Headers', expose);
  });
  for (const path of paths) {
    // A preflight is the browser's question before a call, not a call: the API's document leaves it out.
    app.options(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('Access-Control-Allow-Methods', methods)
        .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key')
        .header('Access-Control-Max-Age', '86400')
        .code(204)
        .send(),
    );
  }
}

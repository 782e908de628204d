import type { FastifyInstance } from 'fastify';

/** The spellings of yes and no that some libraries send for a flag of the query, besides `true` and `false`. */
const SPELLED: Readonly<Record<string, string>> = { '1': 'true', '0': 'false' };

interface QuerySchema {
  properties?: Record<string, { type?: unknown }>;
}

/**
 * Flags of the query sent as `1` and `0` (as some libraries write every yes and no) read as `true` and
 * `false`, in the scope of `app`: only the fields the route's query declares as flags, so a `1` meant
 * as a number or an id stays as it is.
 */
export function acceptNumericFlags(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const declared = (request.routeOptions.schema?.querystring as QuerySchema | undefined)?.properties;
    const query = request.query as Record<string, unknown> | undefined;
    if (!declared || !query) return;
    for (const [name, value] of Object.entries(query)) {
      if (declared[name]?.type === 'boolean' && typeof value === 'string' && value in SPELLED) query[name] = SPELLED[value];
    }
  });
}

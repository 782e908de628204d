import type { FastifyInstance } from 'fastify';
import en from '../../../../locales/en/error.json' with { type: 'json' };

const ENGLISH: Readonly<Record<string, string>> = en;
const KEY = /^error\/(\w+)$/u;

/**
 * Refusals of the client API as its apps read them: `{error}` a sentence they show as it is (the
 * English text of the catalogue key), beside the usual `message` with the key itself. Registered in
 * the adapter's own scope, so the rest of the API keeps `{message}` alone.
 */
export function answerClientErrors(app: FastifyInstance): void {
  app.addHook('preSerialization', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || payload === null || typeof payload !== 'object' || !('message' in payload)) return payload;
    const { message } = payload as { message: unknown };
    if (typeof message !== 'string') return payload;
    const key = KEY.exec(message)?.[1];
    return { error: (key && ENGLISH[key]) ?? message, message };
  });
}

/**
 * Forms (`application/x-www-form-urlencoded`), which many apps send instead of JSON: a field
 * named twice, or with `[]` (`redirect_uris[]`), becomes a list under its bare name.
 */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const fields: Record<string, string | string[]> = {};
    for (const [rawName, value] of new URLSearchParams(body as string)) {
      const list = rawName.endsWith('[]');
      const name = list ? rawName.slice(0, -2) : rawName;
      const before = fields[name];
      if (before === undefined) fields[name] = list ? [value] : value;
      else fields[name] = [...(Array.isArray(before) ? before : [before]), value];
    }
    done(null, fields);
  });
}

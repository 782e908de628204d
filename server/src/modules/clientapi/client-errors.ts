import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Endpoint } from '#core/api/endpoint';
import { routeWithReplies } from '../../lib/contract.js';
import en from '../../../../locales/en/error.json' with { type: 'json' };

const ENGLISH: Readonly<Record<string, string>> = en;
const KEY = /^error\/(\w+)$/u;

/** A refusal's catalogue key (`message` without its `error/`), when it has one, and the English sentence for it. */
export interface Refusal {
  message: string;
  key: string | undefined;
  sentence: string;
}

/**
 * Answers every refusal in the scope of `app` in the shape `shape` gives it from its message, its
 * key and the key's English sentence (the message itself when it has none).
 */
export function reshapeRefusals(app: FastifyInstance, shape: (refusal: Refusal) => Record<string, string>): void {
  app.addHook('preSerialization', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || payload === null || typeof payload !== 'object' || !('message' in payload)) return payload;
    const { message } = payload as { message: unknown };
    if (typeof message !== 'string') return payload;
    const key = KEY.exec(message)?.[1];
    return shape({ message, key, sentence: (key && ENGLISH[key]) ?? message });
  });
}

/**
 * Refusals of the client API as its apps read them: `{error}` a sentence they show as it is (the
 * English text of the catalogue key), beside the usual `message` with the key itself. Registered in
 * the adapter's own scope, so the rest of the API keeps `{message}` alone.
 */
export function answerClientErrors(app: FastifyInstance): void {
  reshapeRefusals(app, ({ message, sentence }) => ({ error: sentence, message }));
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

/**
 * The route of an entry with refusals of the adapter's own shapes, its schema given to Fastify
 * untyped: the type provider's inference of these replies runs past the compiler's depth, so the
 * services' and mappers' types hold the shapes instead (the schema still validates and serialises).
 */
export function untypedRoute(e: Endpoint, refusals: Record<number, TSchema>) {
  const route = routeWithReplies(e, refusals);
  return { ...route, schema: route.schema as FastifySchema };
}

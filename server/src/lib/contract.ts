import type { TSchema } from '@sinclair/typebox';
import type { FastifyContextConfig } from 'fastify';
import type { Endpoint } from '#core/api/endpoint';
import { ErrorReplies, MessageReply } from '#core/api/common';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract entry the route serves (read by the errors plugin and the contract tests). */
    endpoint?: Endpoint;
  }
}

/** The Fastify schema of an endpoint, typed so the TypeBox provider infers params, body and replies. */
export type SchemaOf<E extends Endpoint> = {
  summary: string;
  response: E['replies'] & typeof ErrorReplies;
} & (E extends { params: infer P } ? { params: P } : unknown)
  & (E extends { query: infer Q } ? { querystring: Q } : unknown)
  & (E extends { body: infer B } ? { body: B } : unknown);

/**
 * Method, URL, schema and config of a route, all from its contract entry, so a route cannot
 * answer a shape, or live at a path, other than the one the web app and the OpenAPI document
 * read. Spread into `app.route({...routeOf(endpoint), handler})` with a handler written out where
 * a visitor may call (the handler asks `request.viewer()`) or the handler answers through `reply`
 * (a status, headers, a stream); a signed-in caller's call goes through the shorthands of
 * handlers.ts, which build on it.
 */
export function routeOf<const E extends Endpoint>(e: E, config: FastifyContextConfig = {}) {
  const schema: Record<string, unknown> = { summary: e.summary, response: { ...e.replies, ...ErrorReplies } };
  const refusals = e.errors.length > 0 ? `Refusals besides a malformed request or session: ${e.errors.map((key) => `error/${key}`).join(', ')}.` : undefined;
  const description = [e.description, refusals].filter(Boolean).join('\n\n');
  if (description) schema.description = description;
  if (e.params) schema.params = e.params;
  if (e.query) schema.querystring = e.query;
  if (e.body) schema.body = e.body;
  return {
    method: e.method,
    url: e.path,
    schema: schema as unknown as SchemaOf<E>,
    config: { ...config, endpoint: e, ...(e.invalidKey ? { invalidKey: e.invalidKey } : {}) } as FastifyContextConfig,
  };
}

/**
 * The route of `e` with faults that are not the call's refusals, each answering `{message}`
 * besides the entry's replies: an upload too large (413), Tenor failing (502), the database
 * not answering (503).
 */
export function routeWithFaults<const E extends Endpoint, const S extends 413 | 502 | 503>(e: E, statuses: readonly S[]) {
  const faults = Object.fromEntries(statuses.map((status) => [status, MessageReply])) as Record<S, typeof MessageReply>;
  return routeWithReplies(e, faults);
}

/** The route of `e` with more answers than its successes and refusals, each of its own shape (a 503 readiness report). */
export function routeWithReplies<const E extends Endpoint, const R extends Record<number, TSchema>>(e: E, replies: R) {
  const route = routeOf(e);
  return { ...route, schema: { ...route.schema, response: { ...route.schema.response, ...replies } } };
}

/**
 * The route of `e` whose 200 is bytes of `mediaType` sent as they are (a stream or a buffer), not
 * JSON serialised from a schema: the 200 is declared under that content type, so the API document
 * says what the client reads.
 */
export function routeWithContentType<const E extends Endpoint & { replies: { 200: TSchema } }>(e: E, mediaType: string) {
  const route = routeOf(e);
  const body = e.replies[200];
  const ok = { description: body.description ?? e.summary, content: { [mediaType]: { schema: body } } };
  return { ...route, schema: { ...route.schema, response: { ...route.schema.response, 200: ok } } };
}

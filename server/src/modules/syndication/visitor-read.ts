import type { FastifyInstance } from 'fastify';
import { type Endpoint, type ReplyOf, pathOf } from '#core/api/endpoint';

/**
 * What the API answers a visitor (no session) for `endpoint`, or null when it refuses. Everything
 * the server shows outside the app (feeds, link previews, the sitemap's pages) is read through here,
 * so it can never show more than the API's own visibility rules let a visitor read.
 */
export async function readAsVisitor<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  params: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string | number>> = {},
): Promise<ReplyOf<E> | null> {
  return (await visitorAnswer(app, endpoint, params, query)).reply;
}

/** The API's answer to a visitor: its status, and its body when that is 200. */
export async function visitorAnswer<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  params: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string | number>> = {},
): Promise<{ status: number; reply: ReplyOf<E> | null }> {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
  const url = `/api${pathOf(endpoint, params)}${search.size ? `?${search.toString()}` : ''}`;
  const answer = await app.inject({ method: 'GET', url });
  return { status: answer.statusCode, reply: answer.statusCode === 200 ? (answer.json() as ReplyOf<E>) : null };
}

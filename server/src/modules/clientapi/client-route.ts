import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClientError } from '#core/api/client';
import type { Endpoint } from '#core/api/endpoint';
import { type ServiceContext, contextOf } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { clientCaller } from './client-caller.js';
import { untypedRoute } from './client-errors.js';
import { type ClientPageQuery, linkPages } from './client-paging.js';
import { type WrittenStatus, statusArrayJson } from './written-statuses.js';

/** Every refusal of the adapter in its own shape. */
export const CLIENT_ERRORS = { 400: ClientError, 401: ClientError, 403: ClientError, 404: ClientError, 409: ClientError, 422: ClientError, 429: ClientError } as const;

/** The route of an entry with the adapter's refusals. */
export const entityRoute = (e: Endpoint) => untypedRoute(e, CLIENT_ERRORS);

/** Who reads: the app's person, or null for a visitor (a read anyone may make asks no scope). */
export async function readerOf(request: FastifyRequest): Promise<Viewer | null> {
  return (await clientCaller(request))?.viewer ?? null;
}

/** The id the path names (`/v1/accounts/:id`, `/v1/statuses/:id`...). */
export const idOf = (request: FastifyRequest): string => (request.params as { id: string }).id;

/** A page of items, whether it was full, and the cursors of its ends when they are not the items' own ids. */
export interface ItemPage<T> {
  items: T[];
  full: boolean;
  first?: string | undefined;
  last?: string | undefined;
}

/** Answers a page of items with the Link header of its neighbours, cursors given or the items' own ids. */
export function paged<T extends { id: string }>(request: FastifyRequest, reply: FastifyReply, page: ItemPage<T>): T[] {
  const publicUrl = request.server.config.publicUrl;
  linkPages(request, reply, publicUrl, { first: page.first ?? page.items[0]?.id, last: page.last ?? page.items.at(-1)?.id, full: page.full });
  return page.items;
}

/**
 * Answers a page of statuses already written out (written-statuses.ts) as the JSON array they make,
 * with the Link header paged gives it: Fastify sends a string of JSON as it is.
 */
export function pagedStatuses(request: FastifyRequest, reply: FastifyReply, page: ItemPage<WrittenStatus>): string {
  paged(request, reply, page);
  void reply.header('content-type', 'application/json; charset=utf-8');
  return statusArrayJson(page.items);
}

/** A field apps send once or many times (`id[]=a&id[]=b`, `id=a`): every value, in order. */
export const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** A list parameter of the query, sent as `name[]` or as `name`, once or many times: every value, the `name[]` ones first. */
export function arrayParam(query: unknown, name: string): string[] {
  const fields = query as Record<string, string | string[] | undefined>;
  return [...listOf(fields[`${name}[]`]), ...listOf(fields[name])];
}

/** A read of what the path's id names (an account, a status, its thread), as the reader, a visitor too, may see it. */
export function readByIdRoute(app: FastifyInstance, entry: Endpoint, read: (ctx: ServiceContext, reader: Viewer | null, id: string) => Promise<unknown>) {
  return { ...entityRoute(entry), handler: async (request: FastifyRequest) => read(contextOf(app), await readerOf(request), idOf(request)) };
}

/**
 * A page of what the path's id names lists (an account's statuses or follows, a status's likers), as the
 * reader, a visitor too, may see it, answered with the Link header of its neighbours.
 */
export function pagedByIdRoute<T extends { id: string }>(
  app: FastifyInstance,
  entry: Endpoint,
  read: (ctx: ServiceContext, reader: Viewer | null, input: { id: string; query: ClientPageQuery }) => Promise<ItemPage<T>>,
) {
  return {
    ...entityRoute(entry),
    handler: async (request: FastifyRequest, reply: FastifyReply) =>
      paged(request, reply, await read(contextOf(app), await readerOf(request), { id: idOf(request), query: request.query as ClientPageQuery })),
  };
}

/** A page of accounts as `paged` answers it. */
export const accountItems = <A>(page: { accounts: A[]; full: boolean; first?: string | undefined; last?: string | undefined }): ItemPage<A> => ({ ...page, items: page.accounts });

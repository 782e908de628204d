import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientError } from '#core/api/client';
import type { Endpoint } from '#core/api/endpoint';
import type { Viewer } from '../../lib/viewer.js';
import { clientCaller } from './client-caller.js';
import { untypedRoute } from './client-errors.js';
import { linkPages } from './client-paging.js';

/** Every refusal of the adapter in its own shape. */
export const CLIENT_ERRORS = { 400: ClientError, 401: ClientError, 403: ClientError, 404: ClientError, 409: ClientError, 422: ClientError, 429: ClientError } as const;

/** The route of an entry with the adapter's refusals. */
export const entityRoute = (e: Endpoint) => untypedRoute(e, CLIENT_ERRORS);

/** Who reads: the app's person, or null for a visitor (a read anyone may make asks no scope). */
export async function readerOf(request: FastifyRequest): Promise<Viewer | null> {
  return (await clientCaller(request))?.viewer ?? null;
}

/** Answers a page of items with the Link header of its neighbours, cursors given or the items' own ids. */
export function paged<T extends { id: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { items: T[]; full: boolean; first?: string | undefined; last?: string | undefined },
): T[] {
  const publicUrl = request.server.config.publicUrl;
  linkPages(request, reply, publicUrl, { first: page.first ?? page.items[0]?.id, last: page.last ?? page.items.at(-1)?.id, full: page.full });
  return page.items;
}

/** A field apps send once or many times (`id[]=a&id[]=b`, `id=a`): every value, in order. */
export const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

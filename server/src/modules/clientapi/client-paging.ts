import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Keyset } from '../../db/helpers.js';
import { absolute } from '../../lib/absolute-url.js';

/** How many items a page of the client API holds when the app names no limit, and at most. */
export const DEFAULT_PAGE = 20;
export const LARGEST_PAGE = 40;

/** The paging fields apps send with every list. */
export interface ClientPageQuery {
  max_id?: string | undefined;
  since_id?: string | undefined;
  min_id?: string | undefined;
  limit?: number | undefined;
}

/** A page's size: the app's limit, within the largest page. */
export const pageSize = (query: { limit?: number | undefined }) => Math.min(LARGEST_PAGE, Math.max(1, query.limit ?? DEFAULT_PAGE));

/**
 * Bounds of a page by keys: older than `max_id`; newer than `min_id` (the oldest of those first, for
 * an app catching up) or `since_id` (the newest of those); `min_id` wins over `since_id`.
 */
export interface PageBounds {
  below?: Keyset | undefined;
  above?: Keyset | undefined;
  nearAbove?: boolean | undefined;
  limit: number;
}

export async function boundsOf(query: ClientPageQuery, keyOf: (cursor: string) => Promise<Keyset | undefined>): Promise<PageBounds> {
  const limit = pageSize(query);
  const below = query.max_id ? await keyOf(query.max_id) : undefined;
  const lower = query.min_id ?? query.since_id;
  const above = lower ? await keyOf(lower) : undefined;
  return { below, above, nearAbove: query.min_id !== undefined && above !== undefined, limit };
}

/**
 * A list's cursor where its items are not statuses (followers, likes): the time the item joined
 * the list and its account, which pages the list without an offset.
 */
export const cursorOf = (key: Keyset) => `${key.at}_${key.id}`;

export async function keyOfCursor(cursor: string): Promise<Keyset | undefined> {
  const match = /^(\d{1,16})_(\w{1,30})$/u.exec(cursor);
  return match ? { at: Number(match[1]), id: match[2]! } : undefined;
}

/**
 * The `Link` header apps page by: `next` goes on past the last item (older), `prev` back before the
 * first (newer), each the request's own address with its paging replaced. A page that ran short has
 * no next; an empty page has neither.
 */
export function linkPages(request: FastifyRequest, reply: FastifyReply, publicUrl: string, page: { first?: string | undefined; last?: string | undefined; full: boolean }): void {
  if (page.first === undefined || page.last === undefined) return;
  // Built from the path and its query apart rather than by URL objects: every page of every list
  // answers this header, and each query change re-serialised a whole URL.
  const queryAt = request.url.indexOf('?');
  const path = absolute(publicUrl, queryAt < 0 ? request.url : request.url.slice(0, queryAt));
  const query = new URLSearchParams(queryAt < 0 ? '' : request.url.slice(queryAt + 1));
  for (const key of ['max_id', 'since_id', 'min_id']) query.delete(key);
  const at = (name: 'max_id' | 'min_id', value: string) => {
    const link = new URLSearchParams(query);
    link.set(name, value);
    return `${path}?${link.toString()}`;
  };
  const links = [...(page.full ? [`<${at('max_id', page.last)}>; rel="next"`] : []), `<${at('min_id', page.first)}>; rel="prev"`];
  void reply.header('Link', links.join(', '));
}

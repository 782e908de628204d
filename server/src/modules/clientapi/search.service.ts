import type { Account, Tag } from '#core/api/client-entities';
import type { SearchResults } from '#core/api/client-search';
import { extractHashtags, normalizeHashtag } from '#core/text';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { feedPage, hashtagScope, keyedFeedPage, searchScope } from '../feeds/feeds.service.js';
import { matchingGroupIds, matchingUserIds } from '../search/search.service.js';
import { accountsInOrder, originOf } from './accounts.service.js';
import { groupAccountId } from './client-ids.js';
import { pageSize } from './client-paging.js';
import { tagsOf } from './status.mapper.js';
import { postStatuses } from './statuses.service.js';

/** What a search asks, read from either call's query. */
export interface ClientSearch {
  q: string;
  resolve?: boolean | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/**
 * Accounts matching the words: the people, then on the first page the groups in the room left
 * (groups have no order among people to page by together with them).
 */
export async function searchAccounts(ctx: ServiceContext, viewer: Viewer | null, search: ClientSearch): Promise<Account[]> {
  const query = search.q.trim();
  if (!query) return [];
  const limit = pageSize(search);
  const offset = search.offset ?? 0;
  const people = await matchingUserIds(ctx, viewer, { query, offset, limit, resolve: search.resolve === true });
  const room = limit - people.length;
  const groups = offset === 0 && room > 0 && !query.includes('@') ? await matchingGroupIds(ctx, { query, offset: 0, limit: room }) : [];
  return accountsInOrder(ctx, viewer, [...people, ...groups.map(groupAccountId)]);
}

/** Posts matching the words, newest first, the page the offset falls in. */
async function searchStatuses(ctx: ServiceContext, viewer: Viewer | null, search: ClientSearch) {
  const scope = searchScope(search.q);
  if (!scope) return [];
  const limit = pageSize(search);
  const page = Math.floor((search.offset ?? 0) / limit) + 1;
  const found = await feedPage(ctx, viewer, { scope, query: { page, limit, sort: 'newest', time: 'all' }, defaults: { sort: 'newest', time: 'all' } });
  return postStatuses(ctx, viewer, found.posts);
}

/** The hashtag typed, when a post the viewer may read carries it (so a private group's tag stays unknown). */
async function searchHashtags(ctx: ServiceContext, viewer: Viewer | null, search: ClientSearch): Promise<Tag[]> {
  const tag = normalizeHashtag(search.q.trim());
  if ((search.offset ?? 0) > 0 || extractHashtags(`#${tag}`)[0] !== tag) return [];
  const carried = await keyedFeedPage(ctx, viewer, { scope: hashtagScope(tag), keys: {}, limit: 1 });
  return carried.length > 0 ? tagsOf(originOf(ctx), `#${tag}`) : [];
}

/** GET /api/v2/search: the kinds asked for (all three when none is), each its own page. */
export async function search(ctx: ServiceContext, viewer: Viewer | null, input: ClientSearch & { type?: 'accounts' | 'statuses' | 'hashtags' | undefined }): Promise<SearchResults> {
  const wants = (type: 'accounts' | 'statuses' | 'hashtags') => input.type === undefined || input.type === type;
  const [accounts, statuses, hashtags] = await Promise.all([
    wants('accounts') ? searchAccounts(ctx, viewer, input) : [],
    wants('statuses') ? searchStatuses(ctx, viewer, input) : [],
    wants('hashtags') ? searchHashtags(ctx, viewer, input) : [],
  ]);
  return { accounts, statuses, hashtags };
}

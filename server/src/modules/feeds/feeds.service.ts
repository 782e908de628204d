import type { Sort, TimeWindow } from '#core/listing';
import { PAGE_SIZES } from '#core/limits';
import { normalizeHashtag } from '#core/text';
import { findUserIdByName } from '../../db/users.js';
import { forbidden, notFound } from '../../lib/app-error.js';
import { listingWindow, pageWindow, toPage } from '../../lib/paging.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { canSeeGroupContent, membershipOf } from '../../policy/group-access.js';
import { loadGroup } from '../groups/groups.service.js';
import { type PostRawRow, type PostView, pagePostsStatement, postViewsOf, toPostRow } from '../posts/posts.service.js';
import { type ListingKeys, type PagePostsStatement, type PostScope, listPagePosts, postKeys } from './feeds.repository.js';

export type { ListingKeys, PostScope } from './feeds.repository.js';
export { postKeys };

export interface FeedQuery {
  page?: number | undefined;
  limit?: number | undefined;
  sort?: Sort | undefined;
  time?: TimeWindow | undefined;
  before?: number | undefined;
}

export interface FeedPage {
  posts: PostView[];
  hasMore: boolean;
}

/** Which posts a feed lists, the page asked for, and the listing's sort and time window when the query names none. */
export interface FeedInput {
  scope: PostScope;
  query: FeedQuery;
  defaults: { sort: Sort; time: TimeWindow };
}

/**
 * One page of posts of a scope, as the viewer may see them (private images with signed URLs): the
 * page's posts by the listing's plan (feeds.repository.ts), then their tags and mentions as cards.
 */
export async function feedPage(ctx: ServiceContext, viewer: Viewer | null, { scope, query, defaults }: FeedInput): Promise<FeedPage> {
  const window = pageWindow(query, PAGE_SIZES.posts);
  const viewerId = viewer?.id ?? null;
  const rows = await listPagePosts(ctx.db, { viewerId, scope, ...listingWindow(query, defaults), offset: window.offset, fetch: window.fetch }, 'posts.listed', pagePostsStatement);
  const page = toPage(rows.map(toPostRow), window);
  return { posts: await postViewsOf(ctx.db, page.items, page.items.map((row) => row.id), viewerId, ctx.app), hasMore: page.hasMore };
}

/** A page of a scope bounded by posts rather than by a page number, newest first whichever way it was read. */
export interface KeyedFeedInput {
  scope: PostScope;
  keys: ListingKeys;
  limit: number;
  withMedia?: boolean | undefined;
}

/**
 * One page of posts of a scope between posts, as the viewer may see them (for clients that page by
 * ids): its ids and posts in one statement, as feedPage reads them.
 */
export async function keyedFeedPage(ctx: ServiceContext, viewer: Viewer | null, input: KeyedFeedInput): Promise<PostView[]> {
  return (await keyedFeedRows(ctx, viewer, input, { name: 'posts.listed', statement: pagePostsStatement })).posts;
}

/** A statement reading a page's posts with more of each (pagePostsStatement's columns and its own), under its own name. */
export interface PagePosts<R> {
  name: string;
  statement: PagePostsStatement<R>;
}

/** keyedFeedPage, read by `posts`, with the rows it read as well (newest first). */
export async function keyedFeedRows<R extends PostRawRow>(ctx: ServiceContext, viewer: Viewer | null, { scope, keys, limit, withMedia }: KeyedFeedInput, posts: PagePosts<R>): Promise<{ posts: PostView[]; rows: R[] }> {
  const viewerId = viewer?.id ?? null;
  const listed = await listPagePosts(ctx.db, { viewerId, scope, sort: 'newest', since: 0, before: undefined, offset: 0, fetch: limit, keys, withMedia }, posts.name, posts.statement);
  // Near a lower bound the page was read oldest first; it is shown newest first like any other.
  const rows = keys.nearAbove ? listed.reverse() : listed;
  const base = rows.map(toPostRow);
  return { posts: await postViewsOf(ctx.db, base, base.map((row) => row.id), viewerId, ctx.app), rows };
}

/** Posts made in the same millisecond, as many as one look at a moment's posts reads. */
const SAME_MOMENT = 20;

/**
 * The post as the scope's listing would show it to the viewer, or undefined when the listing leaves
 * it out (a private group's post for an outsider, a blocked or muted author, another tag). The
 * listing itself is asked, bounded to the post's own moment, so a live stream and a page of the
 * same scope never disagree on what the viewer may read.
 */
export async function listedInScope(ctx: ServiceContext, viewer: Viewer | null, scope: PostScope, postId: string): Promise<PostView | undefined> {
  const key = (await postKeys(ctx.db, [postId])).get(postId);
  if (!key) return undefined;
  // From the post's millisecond up to (not into) the next one: every post of that moment.
  const keys = { below: { at: key.at + 1, id: '' }, above: { at: key.at, id: '' } };
  const posts = await keyedFeedPage(ctx, viewer, { scope, keys, limit: SAME_MOMENT });
  return posts.find((post) => post._id === postId);
}

/** Posts of a user, named by their username: anyone may read them (each post filtered by what the viewer may see). */
export async function profileScope(ctx: ServiceContext, _viewer: Viewer | null, username: string): Promise<PostScope> {
  const authorId = await findUserIdByName(ctx.db, username);
  if (!authorId) throw notFound('user_not_found');
  return { kind: 'author', authorId };
}

/** Posts of a group, named like on GET /group/{name}: a private group's list is for its members only. */
export async function groupScope(ctx: ServiceContext, viewer: Viewer | null, name: string): Promise<PostScope> {
  const group = await loadGroup(ctx.db, name);
  // A public group's posts are anyone's: only a private group's reader is asked for (one round trip less a page).
  if (group.is_private && !canSeeGroupContent(group, await membershipOf(ctx.db, group.id, viewer?.id ?? null))) throw forbidden('not_member');
  return { kind: 'group', groupId: group.id };
}

/** The home timeline of fediverse apps: the user's own posts, and those of the people they follow and of their groups. */
export const homeScope = (userId: string): PostScope => ({ kind: 'following', userId, groups: true, own: true });

export function hashtagScope(tag: string): PostScope {
  return { kind: 'hashtag', tag: normalizeHashtag(tag.trim()) };
}

/** A search for posts; blank queries match nothing. */
export function searchScope(query: string | undefined): PostScope | null {
  const q = (query ?? '').trim();
  return q === '' ? null : { kind: 'search', query: q };
}

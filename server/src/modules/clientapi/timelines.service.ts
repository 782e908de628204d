import type { Status } from '#core/api/client-entities';
import { normalizeHashtag } from '#core/text';
import type { Keyset } from '../../db/helpers.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { canSeeGroupContent, membershipOf } from '../../policy/group-access.js';
import { type PagePosts, type PostScope, feedPage, hashtagScope, homeScope, keyedFeedPage, keyedFeedRows, postKeys } from '../feeds/feeds.service.js';
import { loadGroupById } from '../groups/groups.service.js';
import { keyedCommentsByAuthor } from '../comments/comments.service.js';
import { type PostRawRow, getPostsForViewer, pagePostsStatement } from '../posts/posts.service.js';
import { getAccount } from './accounts.service.js';
import { accountRefOf, statusRefOf } from './client-ids.js';
import { type ClientPageQuery, boundsOf, cursorOf, keyOfCursor, pageSize } from './client-paging.js';
import * as repo from './clientapi.repository.js';
import { asStatuses, postStatuses, writtenPageStatuses } from './statuses.service.js';
import { type WrittenStatus, writtenStatus } from './written-statuses.js';

/** A page of statuses, written out, and whether it was full (so a next page may hold more). */
export interface StatusPage {
  statuses: WrittenStatus[];
  full: boolean;
}

const EMPTY: StatusPage = { statuses: [], full: false };

/**
 * Where a status stands in a listing of posts: the post's own time, or for an id naming no post
 * (one from another list, or gone) the moment its id was made, which orders it near enough.
 */
async function statusKey(ctx: ServiceContext, id: string): Promise<Keyset | undefined> {
  const ref = statusRefOf(id);
  if (!ref) return undefined;
  const key = ref.kind === 'post' ? (await postKeys(ctx.db, [ref.id])).get(ref.id) : await repo.commentKey(ctx.db, ref.id);
  return key ?? { at: parseInt(ref.id.slice(0, 8), 16) * 1000, id: ref.id };
}

/** A page's posts read with their authors' accounts, so the page of statuses asks nothing more of the authors. */
const WITH_AUTHORS: PagePosts<PostRawRow & repo.AuthorColumns> = {
  name: 'clientapi.postsWithAuthors',
  statement: (db, page, viewerId) => repo.withAuthorAccounts(pagePostsStatement(db, page, viewerId)) as unknown as ReturnType<PagePosts<PostRawRow & repo.AuthorColumns>['statement']>,
};

/** One page of a scope's posts between the statuses the query names. */
async function scopePage(ctx: ServiceContext, viewer: Viewer | null, scope: PostScope, query: ClientPageQuery, withMedia?: boolean): Promise<StatusPage> {
  const bounds = await boundsOf(query, (id) => statusKey(ctx, id));
  const { posts, rows } = await keyedFeedRows(ctx, viewer, { scope, keys: bounds, limit: bounds.limit, withMedia }, WITH_AUTHORS);
  return { statuses: await writtenPageStatuses(ctx, viewer, { posts, authors: repo.authorsOf(rows) }), full: posts.length >= bounds.limit };
}

export interface AccountStatusesQuery extends ClientPageQuery {
  pinned?: boolean | undefined;
  only_media?: boolean | undefined;
  exclude_replies?: boolean | undefined;
  tagged?: string | undefined;
}

/** A listed status and where it stands (its writing's time and own id), to merge posts and comments by. */
interface Listed {
  at: number;
  id: string;
  status: Status;
}

const newestFirst = (a: Listed, b: Listed) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * A person's posts and comments (each comment a reply status), newest first: a page of each read
 * between the same bounds, merged, and cut to the page. `exclude_replies` leaves the comments out;
 * `tagged` lists the posts carrying that hashtag (comments are not listed by hashtag).
 */
async function personStatuses(ctx: ServiceContext, viewer: Viewer | null, authorId: string, query: AccountStatusesQuery): Promise<StatusPage> {
  const tag = query.tagged?.trim() ? normalizeHashtag(query.tagged.trim()) : undefined;
  const bounds = await boundsOf(query, (id) => statusKey(ctx, id));
  const withMedia = query.only_media;
  const [posts, comments] = await Promise.all([
    keyedFeedPage(ctx, viewer, { scope: { kind: 'author', authorId, ...(tag === undefined ? {} : { tag }) }, keys: bounds, limit: bounds.limit, withMedia }),
    query.exclude_replies || tag !== undefined ? [] : keyedCommentsByAuthor(ctx, viewer, { authorId, ...bounds, withImages: withMedia }),
  ]);
  const mapped = await asStatuses(ctx, viewer, { posts, comments });
  const listed: Listed[] = [
    ...posts.map((post, i) => ({ at: post.createdAt, id: post._id, status: mapped.posts[i]! })),
    ...comments.map((comment, i) => ({ at: comment.createdAt, id: comment._id, status: mapped.comments[i]! })),
  ].sort(newestFirst);
  // Near a lower bound the page is the oldest past it; else the newest.
  const page = bounds.nearAbove ? listed.slice(-bounds.limit) : listed.slice(0, bounds.limit);
  return { statuses: page.map((item) => writtenStatus(item.status)), full: listed.length >= bounds.limit };
}

/**
 * GET /api/v1/accounts/:id/statuses: a person's posts and comments, or the posts in a group the
 * viewer may read (none from a private group for an outsider). People pin nothing; a group's pinned
 * list is its pinned post.
 */
export async function accountStatuses(ctx: ServiceContext, viewer: Viewer | null, input: { id: string; query: AccountStatusesQuery }): Promise<StatusPage> {
  await getAccount(ctx, viewer, input.id);
  const ref = accountRefOf(input.id)!;
  const { query } = input;
  if (ref.kind === 'person') return query.pinned ? EMPTY : personStatuses(ctx, viewer, ref.id, query);
  const group = await loadGroupById(ctx.db, ref.id);
  if (!canSeeGroupContent(group, await membershipOf(ctx.db, group.id, viewer?.id ?? null))) return EMPTY;
  if (!query.pinned) return scopePage(ctx, viewer, { kind: 'group', groupId: group.id }, query, query.only_media);
  // The pinned post is one: it is on the first page only.
  if (!group.pinned_post_id || query.max_id || query.min_id || query.since_id) return EMPTY;
  const posts = await getPostsForViewer(ctx.db, [group.pinned_post_id], viewer?.id ?? null, ctx.app);
  return { statuses: (await postStatuses(ctx, viewer, posts, new Set([group.pinned_post_id]))).map(writtenStatus), full: false };
}

/** Where the public timeline's posts come from: `local` this instance only, `remote` other servers only, both or neither everything. */
export interface PublicQuery extends ClientPageQuery {
  only_media?: boolean | undefined;
  local?: boolean | undefined;
  remote?: boolean | undefined;
}

/**
 * GET /api/v1/timelines/public: every post the viewer may read (the explore feed), with `local`
 * only those written here, with `remote` only those of other servers.
 */
export function publicTimeline(ctx: ServiceContext, viewer: Viewer | null, query: PublicQuery): Promise<StatusPage> {
  const local = query.local && !query.remote ? true : query.remote && !query.local ? false : undefined;
  return scopePage(ctx, viewer, { kind: 'all', ...(local === undefined ? {} : { local }) }, query, query.only_media);
}

/** GET /api/v1/timelines/tag/:hashtag. */
export function tagTimeline(ctx: ServiceContext, viewer: Viewer | null, input: { tag: string; query: ClientPageQuery & { only_media?: boolean | undefined } }): Promise<StatusPage> {
  return scopePage(ctx, viewer, hashtagScope(input.tag), input.query, input.query.only_media);
}

/** GET /api/v1/timelines/home. */
export function homeTimeline(ctx: ServiceContext, viewer: Viewer, query: ClientPageQuery): Promise<StatusPage> {
  return scopePage(ctx, viewer, homeScope(viewer.id), query);
}

/** GET /api/v1/favourites: the posts the caller liked that they may still read, latest like first. */
export async function favourites(ctx: ServiceContext, viewer: Viewer | null, query: ClientPageQuery): Promise<StatusPage & { first?: string; last?: string }> {
  if (!viewer) return EMPTY;
  const bounds = await boundsOf(query, keyOfCursor);
  const liked = await repo.likedPostPage(ctx.db, viewer.id, bounds);
  const posts = await getPostsForViewer(ctx.db, liked.map((item) => item.id), viewer.id, ctx.app);
  const first = liked[0];
  const last = liked.at(-1);
  return {
    statuses: (await postStatuses(ctx, viewer, posts)).map(writtenStatus),
    full: liked.length >= bounds.limit,
    ...(first && last ? { first: cursorOf(first), last: cursorOf(last) } : {}),
  };
}

/** GET /api/v1/trends/statuses: the most liked posts a visitor may read, of the last week. */
export async function trendingStatuses(ctx: ServiceContext, query: ClientPageQuery): Promise<Status[]> {
  const page = await feedPage(ctx, null, { scope: { kind: 'all' }, query: { limit: pageSize(query) }, defaults: { sort: 'popular', time: 'week' } });
  return postStatuses(ctx, null, page.posts);
}

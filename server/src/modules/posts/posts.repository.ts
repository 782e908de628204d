import { type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type KeysetPage, afterKeyset, changedRows, hasRow, likedBy, likesGivenBy, rowExists, toBool } from '../../db/helpers.js';
import type { Database, Executor, GroupRole } from '../../db/schema.js';
import { dialectOf } from '../../db/dialect.js';
import { escapeLike, indexedMatchesUpTo, searchMatches, searchTextContains } from '../../lib/search.js';
import { bannedIn, roleIn } from '../../policy/group-access.js';
import { postIsPrivate, postVisibleTo } from '../../policy/post-visibility.js';
import { notBlockedBetween, notMutedPost } from '../../policy/blocks.js';

/**
 * Every SQL of the posts module. Reads for a page of posts take the whole page's ids at once, so
 * a page costs one query per related table whatever its size. Roles, bans and group lookups go
 * through the groups module (as SQL fragments where a page's statement reads them); who may see a
 * post, and whether it is private, through group-access.
 */

export interface PostBaseRow {
  id: string;
  author_id: string | null;
  author_username: string | null;
  author_pfp_version: number | null;
  text: string;
  reply_to: string | null;
  likes: number;
  comments: number;
  images: number;
  media_version: number;
  /** The images' descriptions as stored (see media/image-alts). */
  image_alts: string;
  content_warning: string | null;
  created_at: number;
  edited_at: number | null;
  /** A remote post's ActivityPub id and its original's page; null for a local post. */
  ap_id: string | null;
  ap_url: string | null;
  /** A remote post's pictures on its server, JSON `[{url, alt}]`; null for a local post. */
  remote_media: string | null;
  /** In a private group: its images get signed URLs. */
  is_private: boolean;
  liked: boolean;
  /** Whether the post it replies to exists and the viewer may read it (false for a post replying to none). */
  original_readable: boolean;
}

/**
 * The posts of a table or alias the viewer may read: their groups let them, and no block stands
 * between them and the author. The one rule of reading a post: its page, its groups, its history,
 * a listing and the data export all ask it.
 */
function readableBy(viewerId: string | null, table: 'posts' | 'original') {
  return (eb: ExpressionBuilder<Database, 'posts'>) =>
    eb.and([postVisibleTo(viewerId, `${table}.id`)(eb), notBlockedBetween(viewerId, `${table}.author_id`)(eb)]);
}

/** Whether the viewer may read the post (see readableBy): what answers 404 for one post's page and its parts. */
export function isPostReadable(db: Executor, postId: string, viewerId: string | null): Promise<boolean> {
  return hasRow(db.selectFrom('posts').select('posts.id').where('posts.id', '=', postId).where(readableBy(viewerId, 'posts')));
}

/**
 * The posts among `ids` the viewer may read, in no particular order, with what a post card needs
 * of the viewer and of the original it replies to: both in this statement, a lookup a row, rather
 * than two more round trips.
 */
export async function findVisiblePosts(db: Executor, ids: string[], viewerId: string | null): Promise<PostBaseRow[]> {
  if (ids.length === 0) return [];
  const rows = await visiblePostsQuery(db, ids, viewerId).execute();
  return rows.map((row) => ({ ...row, is_private: toBool(row.is_private), liked: toBool(row.liked), original_readable: toBool(row.original_readable) }));
}

/** The statement of findVisiblePosts; exported so tests can read its plan. */
export function visiblePostsQuery(db: Executor, ids: string[], viewerId: string | null) {
  return db
    .selectFrom('posts')
    .leftJoin('users', 'users.id', 'posts.author_id')
    .select([
      'posts.id',
      'posts.author_id',
      'users.username as author_username',
      'users.pfp_version as author_pfp_version',
      'posts.text',
      'posts.reply_to',
      'posts.likes',
      'posts.comments',
      'posts.images',
      'posts.media_version',
      'posts.image_alts',
      'posts.content_warning',
      'posts.created_at',
      'posts.edited_at',
      'posts.ap_id',
      'posts.ap_url',
      'posts.remote_media',
    ])
    .select(postIsPrivate('posts.id').as('is_private'))
    .select(likedBy(viewerId, 'post_likes', 'posts.id').as('liked'))
    .select((eb) =>
      eb.exists(eb.selectFrom('posts as original').select(sql<number>`1`.as('one')).whereRef('original.id', '=', 'posts.reply_to').where(readableBy(viewerId, 'original'))).as('original_readable'),
    )
    .where('posts.id', 'in', ids)
    .where(readableBy(viewerId, 'posts'));
}

export interface PostGroupRow {
  post_id: string;
  position: number;
  group_id: string | null;
  stored_name: string;
  current_name: string | null;
  /** Null when the group is gone (the tag stays as its stored name). */
  everyone_can_post: boolean | null;
  pinned_post_id: string | null;
  owner_id: string | null;
}

/** A post's mention as stored, beside the mentioned user's name now (null when gone). */
const POST_MENTION_COLUMNS = [
  'post_mentions.post_id',
  'post_mentions.position',
  'post_mentions.user_id',
  'post_mentions.username as stored_name',
  'users.username as current_name',
] as const;

/** A post's group tag with its group as it is now (PostGroupRow): read the same way for any set of posts. */
const POST_GROUP_COLUMNS = [
  'post_groups.post_id',
  'post_groups.position',
  'post_groups.group_id',
  'post_groups.name as stored_name',
  'groups.name as current_name',
  'groups.everyone_can_post',
  'groups.pinned_post_id',
  'groups.owner_id',
] as const;

/** The group's setting as a boolean; null stays null (the group is gone). */
function withGroupFlags<R extends { everyone_can_post: number | null }>(row: R): Omit<R, 'everyone_can_post'> & { everyone_can_post: boolean | null } {
  return { ...row, everyone_can_post: row.everyone_can_post === null ? null : toBool(row.everyone_can_post) };
}

function postGroupsOf(db: Executor, postIds: string[]) {
  return db
    .selectFrom('post_groups')
    .leftJoin('groups', 'groups.id', 'post_groups.group_id')
    .select(POST_GROUP_COLUMNS)
    .where('post_groups.post_id', 'in', postIds)
    .orderBy('post_groups.post_id')
    .orderBy('post_groups.position');
}

export async function findPostGroups(db: Executor, postIds: string[]): Promise<PostGroupRow[]> {
  if (postIds.length === 0) return [];
  return (await postGroupsOf(db, postIds).execute()).map(withGroupFlags);
}

/** A post's group tag beside the standings a post card shows: the reader's there, and its author's ban. */
export interface PostGroupStandingRow extends PostGroupRow {
  /** Null when the reader is not a member (always for a visitor, or a tag naming no group). */
  viewer_role: GroupRole | null;
  viewer_banned: boolean;
  author_banned: boolean;
}

/**
 * findPostGroups with the standings in the same statement: each tag's role and ban lookups are
 * primary-key reads, and PostgreSQL is spared two round trips a page.
 */
export async function findPostGroupsSeenBy(db: Executor, postIds: string[], viewerId: string | null): Promise<PostGroupStandingRow[]> {
  if (postIds.length === 0) return [];
  const rows = await postGroupsSeenByQuery(db, postIds, viewerId).execute();
  return rows.map((row) => ({ ...withGroupFlags(row), viewer_banned: toBool(row.viewer_banned), author_banned: toBool(row.author_banned) }));
}

/** The statement of findPostGroupsSeenBy; exported so tests can read its plan. */
export function postGroupsSeenByQuery(db: Executor, postIds: string[], viewerId: string | null) {
  // Joined to the left (every tag has its post) so SQLite keeps reading the tags in key order.
  return postGroupsOf(db, postIds)
    .leftJoin('posts', 'posts.id', 'post_groups.post_id')
    .select([
      roleIn('post_groups.group_id', viewerId).as('viewer_role'),
      bannedIn('post_groups.group_id', viewerId).as('viewer_banned'),
      bannedIn('post_groups.group_id', { column: 'posts.author_id' }).as('author_banned'),
    ]);
}

export interface PostMentionRow {
  post_id: string;
  position: number;
  user_id: string | null;
  stored_name: string;
  current_name: string | null;
}

export async function findPostMentions(db: Executor, postIds: string[]): Promise<PostMentionRow[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('post_mentions')
    .leftJoin('users', 'users.id', 'post_mentions.user_id')
    .select(POST_MENTION_COLUMNS)
    .where('post_mentions.post_id', 'in', postIds)
    .orderBy('post_mentions.post_id')
    .orderBy('post_mentions.position')
    .execute();
}

/** The accounts that passed these posts on (a community's announces), each post's first first. */
export async function findPostSharers(db: Executor, postIds: string[]): Promise<{ post_id: string; sharer_id: string; username: string }[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('post_shares')
    .innerJoin('users', 'users.id', 'post_shares.sharer_id')
    .select(['post_shares.post_id', 'post_shares.sharer_id', 'users.username'])
    .where('post_shares.post_id', 'in', postIds)
    .orderBy('post_shares.post_id')
    .orderBy('post_shares.created_at')
    .orderBy('post_shares.sharer_id')
    .execute();
}

export async function findPostAuthor(db: Executor, id: string): Promise<{ id: string; author_id: string | null } | undefined> {
  return db.selectFrom('posts').select(['id', 'author_id']).where('id', '=', id).executeTakeFirst();
}

export async function findPostGroupNames(db: Executor, postId: string): Promise<string[]> {
  const rows = await findPostGroups(db, [postId]);
  return rows.map((r) => r.current_name ?? r.stored_name);
}

// ---- Listing -------------------------------------------------------------------------------

/** Which posts a listing covers. */
export type PostScope =
  | { kind: 'all' }
  /**
   * `shares`: whether to list the posts the followed accounts passed on too (a followed community's
   * announces). Left out, the listing asks the database; only someone following such an account
   * needs the longer statement.
   */
  | { kind: 'following'; userId: string; shares?: boolean }
  | { kind: 'memberGroups'; userId: string }
  | { kind: 'group'; groupId: string }
  | { kind: 'hashtag'; tag: string }
  | { kind: 'author'; authorId: string }
  | { kind: 'search'; query: string };

export interface ListPostIdsParams {
  viewerId: string | null;
  scope: PostScope;
  sort: 'newest' | 'popular';
  /** Earliest created_at included (0: no lower bound). */
  since: number;
  /** Latest created_at included: the listing's snapshot moment. */
  before: number | undefined;
  offset: number;
  fetch: number;
}

/**
 * Up to this many candidate posts, a listing sorts them (a small, bounded sort); beyond it, the
 * candidates are dense enough that walking the newest-first index and stopping at the page reads
 * fewer rows than gathering them all.
 */
export const SORT_AT_MOST = 2000;

/**
 * How a listing reaches its page: `walk` reads an index already in the listing's order and stops
 * at the page; `sort` gathers the scope's posts through its own index and orders them.
 */
export type ListingPlan = 'walk' | 'sort';

/**
 * Ids of one page of a listing. The order is total (ties broken by id), so offset pages of the same
 * snapshot never repeat or skip a post. Newest-first lists of the whole site, a group, a hashtag
 * and an author walk an index in that order. The following feed and a search cannot know their
 * density in advance: on SQLite a capped count decides between walking and sorting a few; on
 * PostgreSQL the planner makes that choice from its statistics.
 */
export async function listPostIds(db: Executor, params: ListPostIdsParams): Promise<string[]> {
  const { scope } = params;
  const listing = scope.kind === 'following' && scope.shares === undefined
    ? { ...params, scope: { ...scope, shares: await followsASharer(db, scope.userId) } }
    : params;
  const plan = await choosePlan(db, listing);
  const rows = await postIdsQuery(db, listing, plan).execute();
  return rows.map((r) => r.id);
}

/** Whether the user follows an account that passed a post on (a community of another server). */
export async function followsASharer(db: Executor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('post_shares')
    .select(sql<number>`1`.as('one'))
    .where('post_shares.sharer_id', 'in', (eb) => eb.selectFrom('follows').select('follows.following_id').where('follows.follower_id', '=', userId))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** How listPostIds reaches the page (see ListingPlan); exported so tests can read the plan it leads to. */
export async function choosePlan(db: Executor, params: ListPostIdsParams): Promise<ListingPlan> {
  const { scope } = params;
  if (params.sort !== 'newest') return 'sort';
  // PostgreSQL weighs this itself from its statistics: it turns the follows subquery into a join it
  // walks in date order when followed authors are many, and hashes and sorts when they are few, and
  // asks the same ILIKE of a search either way. Counting first would only add a statement. (Reading
  // each followed author's newest posts by posts_author instead, a LATERAL join, read ten times the
  // rows at a million posts for the user following 1,000: 1.5 s against 31 ms.)
  if (dialectOf(db) === 'postgres' && (scope.kind === 'following' || scope.kind === 'search')) return scope.kind === 'search' ? 'walk' : 'sort';
  if (scope.kind === 'search') {
    // A query too short for the SQLite index is checked row by row in either case.
    const matches = await indexedMatchesUpTo(db, 'posts', scope.query, SORT_AT_MOST + 1);
    return matches === undefined || matches > SORT_AT_MOST ? 'walk' : 'sort';
  }
  if (scope.kind !== 'following') return 'sort';
  // Visibility is left out of the count: it only ever hides a few posts of private groups.
  const candidates = inWindow(
    db.selectFrom('posts').select(sql<number>`1`.as('one')).where('posts.author_id', 'in', (eb) =>
      eb.selectFrom('follows').select('follows.following_id').where('follows.follower_id', '=', scope.userId)),
    params,
  );
  const row = await db
    .selectFrom(candidates.limit(SORT_AT_MOST + 1).as('candidates'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n) > SORT_AT_MOST ? 'walk' : 'sort';
}

type WindowColumn = 'posts.created_at' | 'scope.created_at';

function inWindow<Q extends { where: (...args: any[]) => Q }>(query: Q, params: ListPostIdsParams, column: WindowColumn = 'posts.created_at'): Q {
  let q = query;
  if (params.since > 0) q = q.where(column, '>=', params.since);
  if (params.before !== undefined) q = q.where(column, '<=', params.before);
  return q;
}

/** A page's query: every shape reads `posts`, so callers may refine it by its columns. */
export type PostIdsQuery = SelectQueryBuilder<Database, 'posts', { id: string }>;

/** The query of one page; exported so tests can read its plan. */
export function postIdsQuery(db: Executor, params: ListPostIdsParams, plan: ListingPlan): PostIdsQuery {
  const { scope } = params;
  const newest = params.sort === 'newest';

  // A group's and a hashtag's rows carry their post's created_at: walk them in that order.
  if (newest && (scope.kind === 'group' || scope.kind === 'hashtag')) {
    const base = scope.kind === 'group'
      ? db
        .selectFrom('post_groups as scope')
        .where('scope.group_id', '=', scope.groupId)
        // A post names a group once; a second tag of the same group must not list it twice.
        .where((eb) => eb.not(eb.exists(
          eb.selectFrom('post_groups as earlier')
            .select(sql<number>`1`.as('one'))
            .whereRef('earlier.post_id', '=', 'scope.post_id')
            .whereRef('earlier.group_id', '=', 'scope.group_id')
            .whereRef('earlier.position', '<', 'scope.position'),
        )))
      : db.selectFrom('post_hashtags as scope').where('scope.tag', '=', scope.tag);
    const q = inWindow(hiddenLeftOut(base.innerJoin('posts', 'posts.id', 'scope.post_id').select('posts.id').where(postVisibleTo(params.viewerId)), params), params, 'scope.created_at');
    const walk = q.orderBy('scope.created_at', 'desc').orderBy('scope.post_id', 'desc').limit(params.fetch).offset(params.offset);
    return walk as unknown as PostIdsQuery;
  }

  let query = hiddenLeftOut(db.selectFrom('posts').select('posts.id').where(postVisibleTo(params.viewerId)), params);
  switch (scope.kind) {
    case 'all':
      break;
    case 'following':
      if (scope.shares) return followingWithShares(db, params, scope.userId, plan);
      query = query.where(byFollowedAuthor(scope.userId, plan));
      break;
    case 'memberGroups':
      query = query.where('posts.id', 'in', (eb) =>
        eb
          .selectFrom('post_groups')
          .innerJoin('group_members', 'group_members.group_id', 'post_groups.group_id')
          .select('post_groups.post_id')
          .where('group_members.user_id', '=', scope.userId),
      );
      break;
    case 'group':
      query = query.where('posts.id', 'in', (eb) =>
        eb.selectFrom('post_groups').select('post_groups.post_id').where('post_groups.group_id', '=', scope.groupId),
      );
      break;
    case 'hashtag':
      query = query.where('posts.id', 'in', (eb) =>
        eb.selectFrom('post_hashtags').select('post_hashtags.post_id').where('post_hashtags.tag', '=', scope.tag),
      );
      break;
    case 'author':
      query = query.where('posts.author_id', '=', scope.authorId);
      break;
    case 'search':
      // Walking: each post read is checked by its own text; sorting: the search index finds the few.
      query = query.where(plan === 'walk' ? searchTextContains(db, 'posts', scope.query) : searchMatches(db, 'posts', scope.query));
      break;
  }
  return inListingOrder(inWindow(query, params), params.sort, 'posts').limit(params.fetch).offset(params.offset);
}

/**
 * The following feed's condition on a post's author. Walking: one lookup in the viewer's follows per
 * post read. Sorting: the followed authors' own posts, by their index.
 */
function byFollowedAuthor(userId: string, plan: ListingPlan) {
  return (eb: ExpressionBuilder<Database, 'posts'>) => {
    const followed = eb.selectFrom('follows').select('follows.following_id').where('follows.follower_id', '=', userId);
    return plan === 'walk'
      ? eb.exists(followed.clearSelect().select(sql<number>`1`.as('one')).whereRef('follows.following_id', '=', 'posts.author_id'))
      : eb('posts.author_id', 'in', followed);
  };
}

/** Posts an account the viewer follows passed on (a followed community's announces), by their index. */
function sharedByFollowed(userId: string) {
  return (eb: ExpressionBuilder<Database, 'posts'>) =>
    eb('posts.id', 'in', eb.selectFrom('post_shares').select('post_shares.post_id').where('post_shares.sharer_id', 'in', (inner) =>
      inner.selectFrom('follows').select('follows.following_id').where('follows.follower_id', '=', userId)));
}

/**
 * The following feed of someone who follows a community: the page of the followed authors' posts
 * and the page of the shared ones, each read by its own plan, merged (a post in both once). One OR of
 * the two conditions would cost PostgreSQL its semi-join on the followed authors: it would walk every
 * post newest first to find a few authors' posts.
 */
function followingWithShares(db: Executor, params: ListPostIdsParams, userId: string, plan: ListingPlan): PostIdsQuery {
  const page = (condition: ReturnType<typeof sharedByFollowed>) => {
    const candidates = inWindow(hiddenLeftOut(db.selectFrom('posts').select(['posts.id', 'posts.created_at', 'posts.likes']).where(postVisibleTo(params.viewerId)), params).where(condition), params);
    return db.selectFrom(inListingOrder(candidates, params.sort, 'posts').limit(params.offset + params.fetch).as('page')).selectAll();
  };
  const merged = db.selectFrom(page(byFollowedAuthor(userId, plan)).union(page(sharedByFollowed(userId))).as('merged')).select('merged.id');
  return inListingOrder(merged, params.sort, 'merged').limit(params.fetch).offset(params.offset) as unknown as PostIdsQuery;
}

/** A listing's order, total (ties broken by id) so offset pages of one snapshot never repeat a post. */
function inListingOrder<Q extends { orderBy: (...args: any[]) => Q }>(query: Q, sort: ListPostIdsParams['sort'], table: 'posts' | 'merged'): Q {
  const q = sort === 'popular' ? query.orderBy(`${table}.likes`, 'desc') : query;
  return q.orderBy(`${table}.created_at`, 'desc').orderBy(`${table}.id`, 'desc');
}

/** Scopes that are feeds: a mute hides its posts there, not on a profile or in a search. */
const FEED_SCOPES: ReadonlySet<PostScope['kind']> = new Set(['all', 'following', 'memberGroups', 'group', 'hashtag']);

/**
 * Leaves out what blocks and mutes hide from the viewer: posts of a user a block stands between,
 * and in feeds posts of a muted user or with a muted hashtag (a hashtag's own page still lists it).
 */
function hiddenLeftOut<Q extends { where: (...args: any[]) => Q }>(query: Q, params: ListPostIdsParams): Q {
  const { viewerId, scope } = params;
  const q = query.where(notBlockedBetween(viewerId, 'posts.author_id'));
  return FEED_SCOPES.has(scope.kind) ? q.where(notMutedPost(viewerId, scope.kind === 'hashtag' ? scope.tag : undefined)) : q;
}

// ---- Writes --------------------------------------------------------------------------------

export interface NewPost {
  id: string;
  authorId: string;
  text: string;
  replyTo: string | null;
  searchText: string;
  createdAt: number;
  contentWarning: string | null;
  mentions: { userId: string | null; username: string }[];
  groups: { groupId: string | null; name: string }[];
  hashtags: string[];
  /** A remote post's Note IRI, its page and its pictures' JSON (`{url, alt}[]`), which stay on its server. */
  remote?: { apId: string; apUrl: string | null; media: string | null };
}

export async function insertPost(db: Executor, post: NewPost): Promise<void> {
  await db
    .insertInto('posts')
    .values({
      id: post.id,
      author_id: post.authorId,
      text: post.text,
      reply_to: post.replyTo,
      search_text: post.searchText,
      created_at: post.createdAt,
      content_warning: post.contentWarning,
      ...(post.remote ? { ap_id: post.remote.apId, ap_url: post.remote.apUrl, remote_media: post.remote.media } : {}),
    })
    .execute();
  await insertMentions(db, post.id, post.mentions);
  if (post.groups.length > 0) {
    await db
      .insertInto('post_groups')
      .values(
        post.groups.map((g, position) => ({
          post_id: post.id,
          position,
          group_id: g.groupId,
          name: g.name,
          created_at: post.createdAt,
        })),
      )
      .execute();
  }
  await insertHashtags(db, post.id, post.hashtags, post.createdAt);
}

/** A post's mentions, in the order its text names them. */
async function insertMentions(db: Executor, postId: string, mentions: NewPost['mentions']): Promise<void> {
  if (mentions.length === 0) return;
  await db
    .insertInto('post_mentions')
    .values(mentions.map((m, position) => ({ post_id: postId, position, user_id: m.userId, username: m.username })))
    .execute();
}

/** A post's hashtags, dated with the post so a hashtag's page lists it in order. */
async function insertHashtags(db: Executor, postId: string, tags: readonly string[], createdAt: number): Promise<void> {
  if (tags.length === 0) return;
  await db
    .insertInto('post_hashtags')
    .values(tags.map((tag) => ({ post_id: postId, tag, created_at: createdAt })))
    .execute();
}

// ---- Edits ---------------------------------------------------------------------------------

/** What an edit reads of the post it changes: the version it replaces and who may change it. */
export interface EditablePostRow {
  id: string;
  author_id: string | null;
  text: string;
  content_warning: string | null;
  created_at: number;
  edited_at: number | null;
  /** Set for a remote account's post: its Note's id. */
  ap_id: string | null;
}

export async function findEditablePost(db: Executor, id: string): Promise<EditablePostRow | undefined> {
  const row = await db
    .selectFrom('posts')
    .select(['id', 'author_id', 'text', 'content_warning', 'created_at', 'edited_at', 'ap_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { ...row, created_at: Number(row.created_at), edited_at: row.edited_at === null ? null : Number(row.edited_at) };
}

export interface PostEdit {
  postId: string;
  /** The post's creation time: its hashtag rows carry it, so hashtag feeds keep their order. */
  createdAt: number;
  text: string;
  searchText: string;
  contentWarning: string | null;
  hashtags: string[];
  /** The new mentions, or undefined to keep the post's. */
  mentions: { userId: string | null; username: string }[] | undefined;
  /** The version being replaced, kept in the history; undefined when the text stays the same. */
  previous: { id: string; text: string; contentWarning: string | null; writtenAt: number; replacedAt: number } | undefined;
}

/**
 * Writes a new version of a post: the replaced one into post_edits, the text (whose search index
 * follows the column) and its hashtags, and the mentions when they change.
 */
export async function updatePostText(db: Executor, edit: PostEdit): Promise<void> {
  const { previous } = edit;
  if (previous) {
    await db
      .insertInto('post_edits')
      .values({
        id: previous.id,
        post_id: edit.postId,
        text: previous.text,
        content_warning: previous.contentWarning,
        written_at: previous.writtenAt,
        replaced_at: previous.replacedAt,
      })
      .execute();
  }
  await db
    .updateTable('posts')
    .set({
      text: edit.text,
      search_text: edit.searchText,
      content_warning: edit.contentWarning,
      ...(previous ? { edited_at: previous.replacedAt } : {}),
    })
    .where('id', '=', edit.postId)
    .execute();
  await db.deleteFrom('post_hashtags').where('post_id', '=', edit.postId).execute();
  await insertHashtags(db, edit.postId, edit.hashtags, edit.createdAt);
  if (edit.mentions) {
    await db.deleteFrom('post_mentions').where('post_id', '=', edit.postId).execute();
    await insertMentions(db, edit.postId, edit.mentions);
  }
}

export interface PostVersionRow {
  text: string;
  content_warning: string | null;
  written_at: number;
  replaced_at: number;
}

/** A post's replaced versions, newest first. */
export async function findPostVersions(db: Executor, postId: string): Promise<PostVersionRow[]> {
  const rows = await db
    .selectFrom('post_edits')
    .select(['text', 'content_warning', 'written_at', 'replaced_at'])
    .where('post_id', '=', postId)
    .orderBy('replaced_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, written_at: Number(row.written_at), replaced_at: Number(row.replaced_at) }));
}

/** What a like of a post needs to know of it and of the user, when the user may see the post. */
export interface LikeTarget {
  /** Banned in a group the post is tagged with. */
  banned: boolean;
  /** A block stands between the user and the post's author. */
  blocked: boolean;
  liked: boolean;
}

/**
 * The post as a like sees it, in one statement: undefined when the user may not see it (or it is
 * gone), else their ban there, a block with its author and their like. A like is the commonest
 * write, and each check as a statement of its own cost it more than the like itself.
 */
export async function findLikeTarget(db: Executor, postId: string, userId: string): Promise<LikeTarget | undefined> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => [
      eb.exists(
        eb.selectFrom('post_groups')
          .innerJoin('group_bans', 'group_bans.group_id', 'post_groups.group_id')
          .select('group_bans.user_id')
          .whereRef('post_groups.post_id', '=', 'posts.id')
          .where('group_bans.user_id', '=', userId),
      ).as('banned'),
      eb.and([notBlockedBetween(userId, 'posts.author_id')(eb)]).as('unblocked'),
      likedBy(userId, 'post_likes', 'posts.id').as('liked'),
    ])
    .where('posts.id', '=', postId)
    .where(postVisibleTo(userId))
    .executeTakeFirst();
  return row && { banned: toBool(row.banned), blocked: !toBool(row.unblocked), liked: toBool(row.liked) };
}

/**
 * Adds or removes the user's like; the counter moves only when a row really changed. Answers the
 * post's likes after it.
 */
export async function setLike(db: Executor, postId: string, userId: string, liked: boolean, now: number): Promise<number> {
  const result = liked
    ? await db
        .insertInto('post_likes')
        .values({ post_id: postId, user_id: userId, created_at: now })
        .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
        .executeTakeFirst()
    : await db.deleteFrom('post_likes').where('post_id', '=', postId).where('user_id', '=', userId).executeTakeFirst();
  if (!changedRows(result)) return likeCount(db, postId);
  const row = await db
    .updateTable('posts')
    .set((eb) => ({ likes: eb('likes', '+', liked ? 1 : -1) }))
    .where('id', '=', postId)
    .returning('likes')
    .executeTakeFirstOrThrow();
  return row.likes;
}

/** A remote post's stored pictures (`remote_media`), when the account wrote it; undefined when it did not. */
export async function findRemoteMediaOf(db: Executor, postId: string, authorId: string): Promise<string | null | undefined> {
  const row = await db.selectFrom('posts').select('remote_media').where('id', '=', postId).where('author_id', '=', authorId).executeTakeFirst();
  return row?.remote_media;
}

/**
 * The stored pictures (`remote_media`) of the author's posts that may list one of these addresses:
 * those whose JSON holds it as JSON writes it. The caller reads them, since the text may match
 * elsewhere (an alt that is the address; SQLite's LIKE ignores case). Only the author's posts are
 * read (by their index, never every post): a picture's address is its author's post's, and a copy
 * another author's post shows is fetched again by its next read.
 */
export async function findRemoteMediaNaming(db: Executor, authorId: string, urls: string[]): Promise<string[]> {
  if (urls.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .select('remote_media')
    .where('author_id', '=', authorId)
    .where('remote_media', 'is not', null)
    .where((eb) => eb.or(urls.map((url) => sql<SqlBool>`${eb.ref('remote_media')} LIKE ${`%${escapeLike(JSON.stringify(url))}%`} ESCAPE '\\'`)))
    .execute();
  return rows.flatMap((row) => (row.remote_media === null ? [] : [row.remote_media]));
}

/** A remote post's pictures (JSON of `{url, alt}`), changed by its author only. */
export async function setRemoteMedia(db: Executor, postId: string, authorId: string, media: string | null): Promise<void> {
  await db.updateTable('posts').set({ remote_media: media }).where('id', '=', postId).where('author_id', '=', authorId).execute();
}

export async function likeCount(db: Executor, postId: string): Promise<number> {
  const row = await db.selectFrom('posts').select('likes').where('id', '=', postId).executeTakeFirstOrThrow();
  return row.likes;
}

/** The stored pictures (`remote_media`) of those of the posts another server wrote. */
export async function findRemoteMedia(db: Executor, postIds: string[]): Promise<string[]> {
  const rows = await db.selectFrom('posts').select('remote_media').where('id', 'in', postIds).where('remote_media', 'is not', null).execute();
  return rows.flatMap((row) => (row.remote_media === null ? [] : [row.remote_media]));
}

/** Deletes the posts; their likes, comments, tags and notifications go with them by foreign key. */
export async function deletePostRows(db: Executor, postIds: string[]): Promise<void> {
  await db.deleteFrom('posts').where('id', 'in', postIds).execute();
}

/** Untags the post from the group (every slot naming it); false when it was not tagged there. */
export async function untagPostFromGroup(db: Executor, groupId: string, postId: string): Promise<boolean> {
  const result = await db.deleteFrom('post_groups').where('group_id', '=', groupId).where('post_id', '=', postId).executeTakeFirst();
  return changedRows(result);
}

/** Untags every post from the group. */
export async function untagGroup(db: Executor, groupId: string): Promise<void> {
  await db.deleteFrom('post_groups').where('group_id', '=', groupId).execute();
}

export function isTaggedWith(db: Executor, groupId: string, postId: string): Promise<boolean> {
  return rowExists(db, 'post_groups', { group_id: groupId, post_id: postId });
}

/** Ids of the posts tagged with the group. */
export async function findGroupPostIds(db: Executor, groupId: string): Promise<string[]> {
  const rows = await db.selectFrom('post_groups').select('post_id').distinct().where('group_id', '=', groupId).execute();
  return rows.map((r) => r.post_id);
}

// ---- A user's own data (the account export) ------------------------------------------------
// Read a page at a time in (created_at, id) order (see KeysetPage), so an export holds one page.

/**
 * What a liked post's content may be shown to its liker: a post they may read now, or their own (a
 * post of theirs in a private group they left is still theirs). Anything else (a private group
 * they are not in, a block either way, a suspended author) shows as its id alone.
 */
function readableByLiker(userId: string) {
  return (eb: ExpressionBuilder<Database, 'posts'>) => eb.or([eb('posts.author_id', '=', userId), readableBy(userId, 'posts')(eb)]);
}

/** The user's posts in export order, from after the page's key (index posts_author). */
function authoredPage(db: Executor, authorId: string, page: KeysetPage) {
  return db
    .selectFrom('posts')
    .where('posts.author_id', '=', authorId)
    .where(afterKeyset(page.after, 'posts.created_at', 'posts.id'))
    .orderBy('posts.created_at')
    .orderBy('posts.id')
    .limit(page.limit);
}

export interface AuthoredPostRow {
  id: string;
  text: string;
  edited_at: number | null;
  reply_to: string | null;
  likes: number;
  comments: number;
  images: number;
  image_alts: string;
  content_warning: string | null;
  created_at: number;
  is_private: boolean;
}

/** A page of the posts the user wrote, oldest first, in whatever group: they are the author's own data. */
export async function findPostsByAuthor(db: Executor, authorId: string, page: KeysetPage): Promise<AuthoredPostRow[]> {
  const rows = await authoredPage(db, authorId, page)
    .select(['posts.id', 'posts.text', 'posts.edited_at', 'posts.reply_to', 'posts.likes', 'posts.comments', 'posts.images', 'posts.image_alts', 'posts.content_warning', 'posts.created_at'])
    .select(postIsPrivate('posts.id').as('is_private'))
    .execute();
  return rows.map((row) => ({
    ...row,
    created_at: Number(row.created_at),
    edited_at: row.edited_at === null ? null : Number(row.edited_at),
    is_private: toBool(row.is_private),
  }));
}

/** A page of the user's posts that hold images, oldest first: which files the export puts in the zip. */
export async function findImagesOfAuthor(db: Executor, authorId: string, page: KeysetPage): Promise<{ id: string; images: number; created_at: number }[]> {
  const rows = await authoredPage(db, authorId, page).select(['posts.id', 'posts.images', 'posts.created_at']).where('posts.images', '>', 0).execute();
  return rows.map((row) => ({ id: row.id, images: Number(row.images), created_at: Number(row.created_at) }));
}

/** The replaced versions of these posts, newest first per post. */
export async function findPostVersionsOf(db: Executor, postIds: string[]): Promise<Array<PostVersionRow & { post_id: string }>> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom('post_edits')
    .select(['post_id', 'text', 'content_warning', 'written_at', 'replaced_at'])
    .where('post_id', 'in', postIds)
    .orderBy('post_id')
    .orderBy('replaced_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, written_at: Number(row.written_at), replaced_at: Number(row.replaced_at) }));
}

/** A page of the posts the user liked, with when, oldest like first: ids only, whoever may see them. */
export const findPostLikesOf = (db: Executor, userId: string, page: KeysetPage) => likesGivenBy(db, 'post_likes', userId, page);

export interface LikedPostRow {
  id: string;
  author_id: string | null;
  author_username: string | null;
  text: string;
  created_at: number;
}

/** Those of `postIds` (posts the user liked) whose content they may read: ones they may read now, and their own. */
export async function findReadableLikedPosts(db: Executor, userId: string, postIds: string[]): Promise<LikedPostRow[]> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .leftJoin('users', 'users.id', 'posts.author_id')
    .select(['posts.id', 'posts.author_id', 'users.username as author_username', 'posts.text', 'posts.created_at'])
    .where('posts.id', 'in', postIds)
    .where(readableByLiker(userId))
    .execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
}

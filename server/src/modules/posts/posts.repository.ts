import { type InferResult, type SelectQueryBuilder, sql } from 'kysely';
import { runBound } from '../../db/bound-statements.js';
import { changedRows, hasRow, likedBy, rowExists, toBool } from '../../db/helpers.js';
import { reusableQuery } from '../../db/reusable-query.js';
import type { Database, Executor, GroupRole } from '../../db/schema.js';
import { bannedIn, roleIn } from '../../policy/group-access.js';
import { cardFlags, postReadableBy, postVisibleTo } from '../../policy/post-visibility.js';
import { notBlockedBetween } from '../../policy/blocks.js';
import { countNewPost, keepingPostCount, uncountPosts } from '../counters/account-counts.js';

/**
 * The SQL of post rows: a page of posts with their tags, mentions and sharers, writing, editing and
 * liking a post, and its group tags. Reads for a page of posts take the whole page's ids at once,
 * so a page costs one query per related table whatever its size. Which posts a listing shows is
 * the feeds module's (feeds.repository.ts); a remote post's pictures have their own
 * (remote-pictures.repository.ts); what the account export reads of a user's posts is the account
 * module's (export.repository.ts). Who may see a post, and whether it is private, is asked of
 * server/src/policy.
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
  /** Whether the post names any group, and anyone: only then are its tags or its mentions read. */
  has_groups: boolean;
  has_mentions: boolean;
}

/** Whether the viewer may read the post (see postReadableBy): what answers 404 for one post's page and its parts. */
export function isPostReadable(db: Executor, postId: string, viewerId: string | null): Promise<boolean> {
  return hasRow(db.selectFrom('posts').select('posts.id').where('posts.id', '=', postId).where(postReadableBy(viewerId, 'posts')));
}

/**
 * The posts among `ids` the viewer may read, in no particular order, with what a post card needs
 * of the viewer and of the original it replies to: both in this statement, a lookup a row, rather
 * than two more round trips.
 */
export async function findVisiblePosts(db: Executor, ids: string[], viewerId: string | null): Promise<PostBaseRow[]> {
  if (ids.length === 0) return [];
  const rows = await runBound(db, 'posts.visible', { ids, viewerId }, (a) => visiblePostsQuery(db, a.ids, a.viewerId));
  return rows.map(toPostBaseRow);
}

/** A row of visiblePostsQuery as the rest of the app reads it, its flags booleans. */
export type VisiblePostRawRow = InferResult<ReturnType<typeof visiblePostsQuery>>[number];
export const toPostBaseRow = (row: VisiblePostRawRow): PostBaseRow =>
  ({
    ...row,
    is_private: toBool(row.is_private),
    liked: toBool(row.liked),
    original_readable: toBool(row.original_readable),
    has_groups: toBool(row.has_groups),
    has_mentions: toBool(row.has_mentions),
  });

/** A statement choosing posts by their id (a listing's page), to read those posts in the same statement. */
export type PostIdsStatement = SelectQueryBuilder<Database, 'posts', { id: string }>;

/**
 * The statement of findVisiblePosts, of the posts named in `ids` the viewer may read; exported so
 * tests can read its plan.
 */
export function visiblePostsQuery(db: Executor, ids: string[] | PostIdsStatement, viewerId: string | null) {
  return postColumnsQuery(db, ids, viewerId).where(postReadableBy(viewerId, 'posts'));
}

/**
 * The posts a listing's page chose, read with it in one round trip. The listing asked already what
 * the viewer may read (the same policy: the post's groups and the blocks between its author and the
 * viewer, see feeds.repository), so it is not asked a second time of the page's rows. Ids the
 * listing read in a statement of its own are asked again: a post may have changed in between.
 */
export function listedPostsQuery(db: Executor, page: PostIdsStatement | string[], viewerId: string | null) {
  return Array.isArray(page) ? visiblePostsQuery(db, page, viewerId) : postColumnsQuery(db, page, viewerId);
}

/** What a post card needs of the posts chosen, and of the viewer and the original each replies to. */
function postColumnsQuery(db: Executor, ids: string[] | PostIdsStatement, viewerId: string | null) {
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
    .select(cardFlags(viewerId, 'post_likes', 'posts.id', 'posts.id'))
    .select((eb) =>
      eb.exists(eb.selectFrom('posts as original').select(sql<number>`1`.as('one')).whereRef('original.id', '=', 'posts.reply_to').where(postReadableBy(viewerId, 'original'))).as('original_readable'),
    )
    // Most posts name no group and nobody: a lookup by key each here spares the page the statements
    // reading their tags and mentions when none of its posts has any.
    .select((eb) => eb.exists(eb.selectFrom('post_groups as any_pg').select(sql<number>`1`.as('one')).whereRef('any_pg.post_id', '=', 'posts.id')).as('has_groups'))
    .select((eb) => eb.exists(eb.selectFrom('post_mentions as any_pm').select(sql<number>`1`.as('one')).whereRef('any_pm.post_id', '=', 'posts.id')).as('has_mentions'))
    .where('posts.id', 'in', ids);
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

/** Tag rows (a post's group tags or its mentions) of these posts, each post's in the order its text names them. */
function inTagOrder<Q extends { where: (...args: any[]) => Q; orderBy: (...args: any[]) => Q }>(query: Q, table: 'post_groups' | 'post_mentions', postIds: string[]): Q {
  return query.where(`${table}.post_id`, 'in', postIds).orderBy(`${table}.post_id`).orderBy(`${table}.position`);
}

function postGroupsOf(db: Executor, postIds: string[]) {
  return inTagOrder(db.selectFrom('post_groups').leftJoin('groups', 'groups.id', 'post_groups.group_id').select(POST_GROUP_COLUMNS), 'post_groups', postIds);
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
  const rows = await runBound(db, 'posts.groupsSeenBy', { postIds, viewerId }, (a) => postGroupsSeenByQuery(db, a.postIds, a.viewerId));
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
  return runBound(db, 'posts.mentions', { postIds }, (a) =>
    inTagOrder(db.selectFrom('post_mentions').leftJoin('users', 'users.id', 'post_mentions.user_id').select(POST_MENTION_COLUMNS), 'post_mentions', a.postIds));
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
  await countNewPost(db, post.id);
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
  return findPostVersionsOf(db, [postId]);
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
const likeTargetQuery = reusableQuery((db, postId: string, userId: string) =>
  db
    .selectFrom('posts')
    .select((eb) => [
      // The bans asked by user and group: written as a join of the post's tags with the bans,
      // SQLite compiled the whole statement again on every run (about 100 µs).
      eb.exists(
        eb.selectFrom('group_bans')
          .select('group_bans.user_id')
          .where('group_bans.user_id', '=', userId)
          .where('group_bans.group_id', 'in', eb.selectFrom('post_groups').select('post_groups.group_id').whereRef('post_groups.post_id', '=', 'posts.id')),
      ).as('banned'),
      eb.and([notBlockedBetween(userId, 'posts.author_id')(eb)]).as('unblocked'),
      likedBy(userId, 'post_likes', 'posts.id').as('liked'),
    ])
    .where('posts.id', '=', postId)
    .where(postVisibleTo(userId)));

export async function findLikeTarget(db: Executor, postId: string, userId: string): Promise<LikeTarget | undefined> {
  const row = await likeTargetQuery.first(db, postId, userId);
  return row && { banned: toBool(row.banned), blocked: !toBool(row.unblocked), liked: toBool(row.liked) };
}

const addLikeQuery = reusableQuery((db, postId: string, userId: string, now: number) =>
  db.insertInto('post_likes').values({ post_id: postId, user_id: userId, created_at: now }).onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing()));
const removeLikeQuery = reusableQuery((db, postId: string, userId: string) =>
  db.deleteFrom('post_likes').where('post_id', '=', postId).where('user_id', '=', userId));
const moveLikesQuery = reusableQuery((db, postId: string, by: number) =>
  db.updateTable('posts').set((eb) => ({ likes: eb('likes', '+', by) })).where('id', '=', postId).returning('likes'));

/**
 * Adds or removes the user's like; the counter moves only when a row really changed. Answers the
 * post's likes after it.
 */
export async function setLike(db: Executor, postId: string, userId: string, liked: boolean, now: number): Promise<number> {
  const changed = liked ? await addLikeQuery.changes(db, postId, userId, now) : await removeLikeQuery.changes(db, postId, userId);
  if (changed === 0) return likeCount(db, postId);
  const row = await moveLikesQuery.first(db, postId, liked ? 1 : -1);
  if (!row) throw new Error(`post ${postId} is gone`);
  return row.likes;
}

export async function likeCount(db: Executor, postId: string): Promise<number> {
  const row = await db.selectFrom('posts').select('likes').where('id', '=', postId).executeTakeFirstOrThrow();
  return row.likes;
}

/** Deletes the posts; their likes, comments, tags and notifications go with them by foreign key. */
export async function deletePostRows(db: Executor, postIds: string[]): Promise<void> {
  await uncountPosts(db, postIds);
  await db.deleteFrom('posts').where('id', 'in', postIds).execute();
}

/** Untags the post from the group (every slot naming it); false when it was not tagged there. */
export async function untagPostFromGroup(db: Executor, groupId: string, postId: string): Promise<boolean> {
  // Untagged from a private group, the post may count for its author until its deletion follows.
  const result = await keepingPostCount(db, postId, () => db.deleteFrom('post_groups').where('group_id', '=', groupId).where('post_id', '=', postId).executeTakeFirst());
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


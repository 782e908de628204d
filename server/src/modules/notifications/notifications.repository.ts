import { type ExpressionBuilder, type Insertable, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { NotificationSettings, NotificationType } from '#core/limits';
import { runBound } from '../../db/bound-statements.js';
import { type Keyset, afterKeyset, beforeKeyset, changedRows, rowExists, toBool, toFlag } from '../../db/helpers.js';
import type { Database, Executor, NotificationsTable } from '../../db/schema.js';
import { postVisibleTo } from '../../policy/post-visibility.js';
import { notBlockedBetween, notMutedBy } from '../../policy/blocks.js';
import { userNotSuspended } from '../../policy/suspension.js';
import { parseNotificationSettings } from '../../policy/notification-prefs.js';

/** The notifications module's queries: the fan-out's recipient lookups and the list endpoints. */

/** An item to deliver; it is stored unseen. */
export type NewNotification = Omit<Insertable<NotificationsTable>, 'seen'>;

/** Rows per INSERT: 1,000 rows of 10 columns stay under SQLite's and PostgreSQL's parameter limits. */
const INSERT_CHUNK = 1000;

export async function insertNotifications(db: Executor, rows: NewNotification[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK).map((row) => ({ ...row, seen: toFlag(false) }));
    await db.insertInto('notifications').values(chunk).execute();
  }
}

export interface Recipient {
  user_id: string;
  settings: NotificationSettings;
}

/** A user row's id and stored switches, read into their rules. */
function toRecipient<T extends { user_id: string; notification_settings: string }>(row: T) {
  const { notification_settings: stored, ...rest } = row;
  return { ...rest, settings: parseNotificationSettings(stored) };
}

// ---- what the events refer to

export async function findPost(db: Executor, postId: string) {
  return db.selectFrom('posts').select(['id', 'author_id', 'reply_to']).where('id', '=', postId).executeTakeFirst();
}

export async function findComment(db: Executor, commentId: string) {
  return db
    .selectFrom('comments')
    .select(['id', 'post_id', 'parent_comment_id', 'author_id'])
    .where('id', '=', commentId)
    .executeTakeFirst();
}

export async function commentAuthor(db: Executor, commentId: string): Promise<string | null> {
  const row = await db.selectFrom('comments').select('author_id').where('id', '=', commentId).executeTakeFirst();
  return row?.author_id ?? null;
}

export async function postAuthor(db: Executor, postId: string): Promise<string | null> {
  const row = await db.selectFrom('posts').select('author_id').where('id', '=', postId).executeTakeFirst();
  return row?.author_id ?? null;
}

export async function usersWithSettings(db: Executor, userIds: string[]): Promise<Recipient[]> {
  if (!userIds.length) return [];
  const rows = await db.selectFrom('users').select(['id as user_id', 'notification_settings']).where('id', 'in', userIds).execute();
  return rows.map(toRecipient);
}

export async function tokenVersion(db: Executor, userId: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('token_version').where('id', '=', userId).executeTakeFirst();
  return row?.token_version;
}

export { userExists } from '../../db/users.js';

export function groupExists(db: Executor, groupId: string): Promise<boolean> {
  return rowExists(db, 'groups', { id: groupId });
}

export function followExists(db: Executor, followerId: string, followingId: string): Promise<boolean> {
  return rowExists(db, 'follows', { follower_id: followerId, following_id: followingId });
}

export function joinRequestExists(db: Executor, groupId: string, userId: string): Promise<boolean> {
  return rowExists(db, 'group_requests', { group_id: groupId, user_id: userId });
}

/** Mentioned users of a post or comment with how often each is mentioned. */
export async function mentionCounts(db: Executor, target: { postId: string } | { commentId: string }) {
  const rows =
    'postId' in target
      ? await db
          .selectFrom('post_mentions')
          .select(['user_id', (eb) => eb.fn.countAll<number>().as('count')])
          .where('post_id', '=', target.postId)
          .where('user_id', 'is not', null)
          .groupBy('user_id')
          .execute()
      : await db
          .selectFrom('comment_mentions')
          .select(['user_id', (eb) => eb.fn.countAll<number>().as('count')])
          .where('comment_id', '=', target.commentId)
          .where('user_id', 'is not', null)
          .groupBy('user_id')
          .execute();
  return rows.map((row) => ({ userId: row.user_id as string, count: Number(row.count) }));
}

/** Those among `userIds` who already have an item of one of `types` about the post or the comment. */
export async function usersToldAbout(
  db: Executor,
  target: { postId: string } | { commentId: string },
  userIds: string[],
  types: NotificationType[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const about = db.selectFrom('notifications').select('user_id').where('user_id', 'in', userIds).where('type', 'in', types);
  const rows = await ('postId' in target ? about.where('post_id', '=', target.postId) : about.where('comment_id', '=', target.commentId)).execute();
  return new Set(rows.map((row) => row.user_id));
}

/** The owner and admins of a group with their level in it. */
export async function groupStaff(db: Executor, groupId: string) {
  const rows = await db
    .selectFrom('group_members')
    .innerJoin('users', 'users.id', 'group_members.user_id')
    .select(['group_members.user_id', 'group_members.level', 'users.notification_settings'])
    .where('group_members.group_id', '=', groupId)
    .where('group_members.role', 'in', ['admin', 'owner'])
    .execute();
  return rows.map(toRecipient);
}

// ---- batched recipients of a post, in user-id order after a cursor

export interface BatchQuery {
  authorId: string;
  /** Who may see the post, as a condition on a user id column (group-access postAudience). */
  audience: (userColumn: string) => RawBuilder<SqlBool>;
  after: string;
  limit: number;
}

/*
 * Both batch queries pick the next `limit` ids on their own first (an ordered walk of one index,
 * so each step costs the same however far the cursor is), and only then join the users and test
 * eligibility. They return every scanned row with an `eligible` flag, so the cursor moves past
 * filtered rows too.
 */

/** A batch of ids (with what else it selects) joined to the users it names, with their settings. */
function recipientsOf<T extends keyof Database, B extends { user_id: string }>(db: Executor, batch: SelectQueryBuilder<Database, T, B>) {
  return db
    .selectFrom(batch.as('batch'))
    .innerJoin('users', 'users.id', 'batch.user_id')
    .select(['batch.user_id', 'users.notification_settings']);
}

/** Followers of the author who asked to be notified of their posts. */
export async function notifyFollowersBatch(db: Executor, q: BatchQuery) {
  const batch = db
    .selectFrom('follows')
    .select('follower_id as user_id')
    .where('following_id', '=', q.authorId)
    .where('notify', '=', 1)
    .where('follower_id', '>', q.after)
    .orderBy('following_id')
    .orderBy('notify')
    .orderBy('follower_id')
    .limit(q.limit);
  const rows = await recipientsOf(db, batch)
    .select(q.audience('batch.user_id').as('eligible'))
    .orderBy('batch.user_id')
    .execute();
  return rows.map((row) => ({ ...toRecipient(row), eligible: toBool(row.eligible) }));
}

/**
 * Members of one of the post's groups: eligible when their level there is "all", they can see the
 * post, and no earlier group of the post reached them already. `follows_author` says whether they
 * follow the author with notify on (they may have had NEW_POST instead).
 */
export async function groupMembersBatch(db: Executor, q: BatchQuery & { groupId: string; earlierGroupIds: string[] }) {
  const batch = db
    .selectFrom('group_members')
    .select(['user_id', 'level'])
    .where('group_id', '=', q.groupId)
    .where('user_id', '>', q.after)
    .orderBy('group_id')
    .orderBy('user_id')
    .limit(q.limit);
  const rows = await recipientsOf(db, batch)
    .select((eb) =>
      eb
        .and([
          eb('batch.level', '=', 0),
          eb('batch.user_id', '!=', q.authorId),
          q.audience('batch.user_id'),
          q.earlierGroupIds.length
            ? eb.not(
                eb.exists(
                  eb
                    .selectFrom('group_members as earlier')
                    .select(sql<number>`1`.as('one'))
                    .whereRef('earlier.user_id', '=', 'batch.user_id')
                    .where('earlier.group_id', 'in', q.earlierGroupIds)
                    .where('earlier.level', '=', 0),
                ),
              )
            : sql<SqlBool>`1 = 1`,
        ])
        .as('eligible'),
    )
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('follows')
            .select(sql<number>`1`.as('one'))
            .whereRef('follows.follower_id', '=', 'batch.user_id')
            .where('follows.following_id', '=', q.authorId)
            .where('follows.notify', '=', 1),
        )
        .as('follows_author'),
    )
    .orderBy('batch.user_id')
    .execute();
  return rows.map((row) => ({ ...toRecipient(row), eligible: toBool(row.eligible), follows_author: toBool(row.follows_author) }));
}

// ---- upkeep

/** Removes the user's NEW_FOLLOWER items about the actor made at or before `until`. */
export async function deleteFollowerNotifications(db: Executor, userId: string, actorId: string, until: number): Promise<void> {
  await db
    .deleteFrom('notifications')
    .where('user_id', '=', userId)
    .where('actor_id', '=', actorId)
    .where('type', '=', 'NEW_FOLLOWER')
    .where('created_at', '<=', until)
    .execute();
}

/**
 * Moves the recipient's items like `row` (same type, actor and group) made after `since` to the
 * row's time, unseen again; false when there is none to refresh.
 */
export async function refreshRecentNotification(db: Executor, row: NewNotification, since: number): Promise<boolean> {
  const actorId = row.actor_id ?? null;
  const groupId = row.group_id ?? null;
  const result = await db
    .updateTable('notifications')
    .set({ seen: toFlag(false), created_at: row.created_at })
    .where('user_id', '=', row.user_id)
    .where('type', '=', row.type)
    .where((eb) => (actorId === null ? eb('actor_id', 'is', null) : eb('actor_id', '=', actorId)))
    .where((eb) => (groupId === null ? eb('group_id', 'is', null) : eb('group_id', '=', groupId)))
    .where('created_at', '>', since)
    .executeTakeFirst();
  return changedRows(result);
}

/** Removes the join-request items of a decided request; returns whose lists changed. */
export async function deleteJoinRequestNotifications(db: Executor, groupId: string, requesterId: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('notifications')
    .where('group_id', '=', groupId)
    .where('type', '=', 'GROUP_JOIN_REQUEST')
    .where('actor_id', '=', requesterId)
    .returning('user_id')
    .execute();
  return [...new Set(rows.map((row) => row.user_id))];
}

// ---- the list endpoints

/** The user's items as the list shows them (with their actor, group, post and comment), unordered. */
function listedQuery(db: Executor, userId: string) {
  return db
    .selectFrom('notifications')
    .leftJoin('users as actor', 'actor.id', 'notifications.actor_id')
    .leftJoin('groups', 'groups.id', 'notifications.group_id')
    .leftJoin('posts', 'posts.id', 'notifications.post_id')
    .leftJoin('comments', 'comments.id', 'notifications.comment_id')
    .select([
      'notifications.id',
      'notifications.type',
      'notifications.actor_id',
      'notifications.post_id',
      'notifications.comment_id',
      'notifications.group_id',
      'notifications.mention_count',
      'notifications.seen',
      'notifications.created_at',
      'actor.username as actor_username',
      'actor.pfp_version as actor_pfp_version',
      'groups.name as group_name',
      'groups.gp_version as group_gp_version',
      'posts.text as post_text',
      'comments.text as comment_text',
      'comments.deleted as comment_deleted',
      'comments.parent_comment_id as comment_parent_id',
    ])
    .where('notifications.user_id', '=', userId)
    .where(postVisibleTo(userId))
    .where(fromNobodySilenced(userId));
}

/**
 * Items whose actor a block stands between the user and, whom the user muted, or whose account is
 * suspended (what it did is hidden as what it wrote is) are not shown.
 */
function fromNobodySilenced(userId: string) {
  return (eb: ExpressionBuilder<Database, 'notifications'>) =>
    eb.and([
      notBlockedBetween(userId, 'notifications.actor_id')(eb),
      notMutedBy(userId, 'notifications.actor_id')(eb),
      userNotSuspended('notifications.actor_id'),
    ]);
}

type ListedRow = Awaited<ReturnType<ReturnType<typeof listedQuery>['execute']>>[number];

const toListed = (row: ListedRow) => ({
  ...row,
  seen: toBool(row.seen),
  comment_deleted: row.comment_deleted === null ? null : toBool(row.comment_deleted),
});

/** `before` (epoch ms) pins the list to when its first page was read, so arrivals do not shift pages. */
export async function listPage(db: Executor, userId: string, offset: number, fetch: number, before?: number) {
  // Bound, not built, on every read of the list (bound-statements.ts).
  const rows = await runBound(db, 'notifications.page', { userId, offset, fetch, before }, (a) => {
    let query = listedQuery(db, a.userId);
    if (a.before !== undefined) query = query.where('notifications.created_at', '<=', a.before);
    return query.orderBy('notifications.created_at', 'desc').orderBy('notifications.id', 'desc').offset(a.offset).limit(a.fetch);
  });
  return rows.map(toListed);
}
export type ListedNotification = ReturnType<typeof toListed>;

/**
 * Bounds of a page read by keys, newest first: older than `below`, newer than `above`; `nearAbove`
 * reads the oldest of those newer first (an app catching up), answered newest first still.
 */
export interface KeyedBounds {
  below?: Keyset | undefined;
  above?: Keyset | undefined;
  nearAbove?: boolean | undefined;
  limit: number;
}

/** Which items a keyed page lists: kinds wholly, or a kind on one side of being about a comment. */
export interface KindFilter {
  kinds: readonly NotificationType[];
  split: readonly { kind: NotificationType; aboutComment: boolean }[];
}

/** A page of the user's items by (time, id), of the kinds asked for. */
export async function keyedPage(db: Executor, userId: string, filter: KindFilter, bounds: KeyedBounds): Promise<ListedNotification[]> {
  if (filter.kinds.length === 0 && filter.split.length === 0) return [];
  const direction = bounds.nearAbove ? 'asc' : 'desc';
  const rows = await listedQuery(db, userId)
    .where((eb) =>
      eb.or([
        ...(filter.kinds.length > 0 ? [eb('notifications.type', 'in', [...filter.kinds])] : []),
        ...filter.split.map((side) =>
          eb.and([eb('notifications.type', '=', side.kind), eb('notifications.comment_id', side.aboutComment ? 'is not' : 'is', null)]),
        ),
      ]),
    )
    .where(beforeKeyset(bounds.below, 'notifications.created_at', 'notifications.id'))
    .where(afterKeyset(bounds.above, 'notifications.created_at', 'notifications.id'))
    .orderBy('notifications.created_at', direction)
    .orderBy('notifications.id', direction)
    .limit(bounds.limit)
    .execute();
  const listed = rows.map(toListed);
  return bounds.nearAbove ? listed.reverse() : listed;
}

/** Where one of the user's items stands in their list, if it is theirs. */
export async function keyOf(db: Executor, userId: string, id: string): Promise<Keyset | undefined> {
  const row = await db.selectFrom('notifications').select(['id', 'created_at']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row ? { at: Number(row.created_at), id: row.id } : undefined;
}

/** One of the user's items as the list shows it; undefined when gone or about a post they can no longer see. */
export async function findListed(db: Executor, userId: string, id: string): Promise<ListedNotification | undefined> {
  const row = await listedQuery(db, userId).where('notifications.id', '=', id).executeTakeFirst();
  return row && toListed(row);
}

export async function groupNamesOfPosts(db: Executor, postIds: string[]) {
  if (!postIds.length) return [];
  return db
    .selectFrom('post_groups')
    .select(['post_id', 'name'])
    .where('post_id', 'in', postIds)
    .where('group_id', 'is not', null)
    .orderBy('post_id')
    .orderBy('position')
    .execute();
}

export async function unreadCount(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .leftJoin('posts', 'posts.id', 'notifications.post_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('notifications.user_id', '=', userId)
    .where('notifications.seen', '=', 0)
    .where(postVisibleTo(userId))
    .where(fromNobodySilenced(userId))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function markAllSeen(db: Executor, userId: string): Promise<number> {
  const result = await db.updateTable('notifications').set({ seen: toFlag(true) }).where('user_id', '=', userId).where('seen', '=', toFlag(false)).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteOwn(db: Executor, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('notifications').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteAllOwn(db: Executor, userId: string): Promise<number> {
  const result = await db.deleteFrom('notifications').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteOfGroup(db: Executor, groupId: string): Promise<void> {
  await db.deleteFrom('notifications').where('group_id', '=', groupId).execute();
}

import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { inNoPrivateGroup } from '../../policy/post-visibility.js';

/**
 * Each account's followers, follows and posts, as anyone may count them: every follow, and the
 * posts in no private group (what a visitor, and so another server, could count), so the number
 * is the same for every reader and tells nothing of a private group. The follows and posts
 * modules keep them in the transaction of each write that changes them, so a page of accounts
 * reads them rather than counting.
 */

type Counter = 'followers' | 'following' | 'statuses';

/**
 * Adds to counters of accounts; a missing row starts at the change (its account had none yet).
 * Rows are written in id order, so two follows crossing each other lock them in the same order.
 */
async function addTo(db: Executor, changes: ReadonlyArray<{ userId: string; counter: Counter; by: number }>): Promise<void> {
  for (const { userId, counter, by } of [...changes].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0))) {
    if (by === 0) continue;
    await db
      .insertInto('account_counts')
      .values({ user_id: userId, [counter]: by })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ [counter]: sql<number>`${sql.ref(`account_counts.${counter}`)} + ${by}` }))
      .execute();
  }
}

/** A follow was made (1) or removed (-1). */
export function countFollow(db: Executor, followerId: string, followingId: string, by: 1 | -1): Promise<void> {
  return addTo(db, [
    { userId: followerId, counter: 'following', by },
    { userId: followingId, counter: 'followers', by },
  ]);
}

/** The users and the accounts on the other end of their follows, either way: whose counts their removal changes. */
export async function followNeighbours(db: Executor, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const ids = [...userIds];
  const rows = await db
    .selectFrom('follows')
    .select(['follower_id', 'following_id'])
    .where((eb) => eb.or([eb('follower_id', 'in', ids), eb('following_id', 'in', ids)]))
    .execute();
  return [...new Set([...ids, ...rows.flatMap((row) => [row.follower_id, row.following_id])])];
}

/** Counts the users' follows again from the rows, after a removal of many at once. */
export async function recountFollows(db: Executor, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('account_counts')
    .columns(['user_id', 'followers', 'following'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((s) => [
          'users.id',
          s.selectFrom('follows').select((c) => c.fn.countAll<number>().as('n')).whereRef('follows.following_id', '=', 'users.id').as('followers'),
          s.selectFrom('follows').select((c) => c.fn.countAll<number>().as('n')).whereRef('follows.follower_id', '=', 'users.id').as('following'),
        ])
        .where('users.id', 'in', [...userIds]),
    )
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ followers: eb.ref('excluded.followers'), following: eb.ref('excluded.following') })))
    .execute();
}

/** The post's author when the post counts for them (it is in no private group), else null. */
async function countingAuthor(db: Executor, postId: string): Promise<string | null> {
  const row = await db.selectFrom('posts').select('author_id').where('posts.id', '=', postId).where(inNoPrivateGroup('posts.id')).executeTakeFirst();
  return row?.author_id ?? null;
}

/** The post (just written, its group tags with it) counts for its author when it is in no private group. */
export async function countNewPost(db: Executor, postId: string): Promise<void> {
  const author = await countingAuthor(db, postId);
  if (author) await addTo(db, [{ userId: author, counter: 'statuses', by: 1 }]);
}

/** Runs a change of the post's group tags, its author's count following whether it counts after it. */
export async function keepingPostCount<T>(db: Executor, postId: string, change: () => Promise<T>): Promise<T> {
  const before = await countingAuthor(db, postId);
  const result = await change();
  const after = await countingAuthor(db, postId);
  if (before !== after) {
    await addTo(db, [
      ...(before ? [{ userId: before, counter: 'statuses' as const, by: -1 }] : []),
      ...(after ? [{ userId: after, counter: 'statuses' as const, by: 1 }] : []),
    ]);
  }
  return result;
}

/** The posts are about to be deleted: their authors lose those of them that counted. */
export async function uncountPosts(db: Executor, postIds: readonly string[]): Promise<void> {
  if (postIds.length === 0) return;
  const rows = await db
    .selectFrom('posts')
    .select((eb) => ['author_id', eb.fn.countAll<number>().as('n')])
    .where('posts.id', 'in', [...postIds])
    .where('author_id', 'is not', null)
    .where(inNoPrivateGroup('posts.id'))
    .groupBy('author_id')
    .execute();
  await addTo(db, rows.map((row) => ({ userId: row.author_id as string, counter: 'statuses' as const, by: -Number(row.n) })));
}

/** The group became private or public: the authors of its posts are counted again. */
export async function recountAuthorsInGroup(db: Executor, groupId: string): Promise<void> {
  const authorsInGroup = (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> =>
    eb('users.id', 'in', eb.selectFrom('post_groups').innerJoin('posts', 'posts.id', 'post_groups.post_id').select('posts.author_id').where('post_groups.group_id', '=', groupId));
  await db
    .insertInto('account_counts')
    .columns(['user_id', 'statuses'])
    .expression((eb) =>
      eb
        .selectFrom('users').select((s) => [
          'users.id',
          s.selectFrom('posts').select((c) => c.fn.countAll<number>().as('n')).whereRef('posts.author_id', '=', 'users.id').where(inNoPrivateGroup('posts.id')).as('statuses'),
        ]).where(authorsInGroup))
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ statuses: eb.ref('excluded.statuses') })))
    .execute();
}

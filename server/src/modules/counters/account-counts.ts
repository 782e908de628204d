import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { inNoPrivateGroup } from '../../policy/post-visibility.js';

/**
 * Each account's followers, follows and posts, as anyone may count them: every follow, and the
 * posts in no private group (what a visitor, and so another server, could count), so the number
 * is the same for every reader and tells nothing of a private group; and when the newest of those
 * posts was written. The follows and posts modules keep them in the transaction of each write that
 * changes them, so a page of accounts reads them rather than counting.
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

/** The follows of the `users` row's account counted from the rows, as `followers` and `following`. */
const followCounts = (s: ExpressionBuilder<Database, 'users'>) => [
  s.selectFrom('follows').select((c) => c.fn.countAll<number>().as('n')).whereRef('follows.following_id', '=', 'users.id').as('followers'),
  s.selectFrom('follows').select((c) => c.fn.countAll<number>().as('n')).whereRef('follows.follower_id', '=', 'users.id').as('following'),
];

/** The posts of the `users` row's account anyone may count, counted from the rows, as `statuses`. */
const statusCount = (s: ExpressionBuilder<Database, 'users'>) =>
  s.selectFrom('posts').select((c) => c.fn.countAll<number>().as('n')).whereRef('posts.author_id', '=', 'users.id').where(inNoPrivateGroup('posts.id')).as('statuses');

/** Counts the users' follows again from the rows, after a removal of many at once. */
export async function recountFollows(db: Executor, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('account_counts')
    .columns(['user_id', 'followers', 'following'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((s) => ['users.id', ...followCounts(s)])
        .where('users.id', 'in', [...userIds]),
    )
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ followers: eb.ref('excluded.followers'), following: eb.ref('excluded.following') })))
    .execute();
}

/** The time of the newest post of the `account_counts` row's account that anyone may count, `except` some about to go. */
const newestCounted = (eb: ExpressionBuilder<Database, 'account_counts'>, except: readonly string[]) => {
  let posts = eb.selectFrom('posts').select('posts.created_at').whereRef('posts.author_id', '=', 'account_counts.user_id').where(inNoPrivateGroup('posts.id'));
  if (except.length > 0) posts = posts.where('posts.id', 'not in', [...except]);
  return posts.orderBy('posts.created_at', 'desc').limit(1);
};

/** Finds again when the accounts last posted where anyone can see, leaving out posts `except` (about to be deleted). */
async function refreshLastStatus(db: Executor, userIds: readonly string[], except: readonly string[] = []): Promise<void> {
  if (userIds.length === 0) return;
  await db.updateTable('account_counts').set((eb) => ({ last_status_at: newestCounted(eb, except) })).where('user_id', 'in', [...userIds]).execute();
}

/** The post's author when the post counts for them (it is in no private group), else null. */
async function countingAuthor(db: Executor, postId: string): Promise<string | null> {
  const row = await db.selectFrom('posts').select('author_id').where('posts.id', '=', postId).where(inNoPrivateGroup('posts.id')).executeTakeFirst();
  return row?.author_id ?? null;
}

/** The post (just written, its group tags with it) counts for its author when it is in no private group. */
export async function countNewPost(db: Executor, postId: string): Promise<void> {
  const author = await countingAuthor(db, postId);
  if (!author) return;
  await addTo(db, [{ userId: author, counter: 'statuses', by: 1 }]);
  // Asked rather than set to this post's time: a post fetched from another server may be older.
  await refreshLastStatus(db, [author]);
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
    await refreshLastStatus(db, [before, after].filter((id) => id !== null));
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
  await refreshLastStatus(db, rows.map((row) => row.author_id as string), postIds);
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
        .selectFrom('users').select((s) => ['users.id', statusCount(s)]).where(authorsInGroup))
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ statuses: eb.ref('excluded.statuses') })))
    .execute();
  await db
    .updateTable('account_counts')
    .set((eb) => ({ last_status_at: newestCounted(eb, []) }))
    .where('user_id', 'in', (eb) => eb.selectFrom('post_groups').innerJoin('posts', 'posts.id', 'post_groups.post_id').select('posts.author_id').where('post_groups.group_id', '=', groupId))
    .execute();
}

/** Every account's counts made again from the rows: for data written straight to the tables (a benchmark's seed). */
export async function countEveryAccount(db: Executor): Promise<void> {
  await db
    .insertInto('account_counts')
    .columns(['user_id', 'followers', 'following', 'statuses'])
    .expression((eb) =>
      // A condition, always true, tells SQLite the ON CONFLICT below is the upsert's, not a join's.
      eb.selectFrom('users').select((s) => ['users.id', ...followCounts(s), statusCount(s)]).where('users.id', 'is not', null),
    )
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({ followers: eb.ref('excluded.followers'), following: eb.ref('excluded.following'), statuses: eb.ref('excluded.statuses') })),
    )
    .execute();
  await db.updateTable('account_counts').set((eb) => ({ last_status_at: newestCounted(eb, []) })).execute();
}

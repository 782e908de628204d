import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { hasRow } from '../db/helpers.js';
import type { Database, Executor } from '../db/schema.js';

/**
 * Who a viewer does not see because of a block or a mute: the one place every read path asks,
 * so a block hides the same things everywhere. Blocks stand in both directions and apply to every
 * read; mutes are the muter's own and apply only to their feeds and notifications.
 */

/** A column of an outer query holding a user's id (an author, a listed user, an actor). */
export type UserColumn =
  | 'posts.author_id'
  | 'original.author_id'
  | 'comments.author_id'
  | 'users.id'
  | 'notifications.actor_id';

/** A column of an outer query holding a post's id. */
export type PostColumn = 'posts.id' | 'comments.post_id';

const always = sql<SqlBool>`1 = 1`;

// The filters plug into any query holding the named column, hence the open table set.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Eb = ExpressionBuilder<Database, any>;

/**
 * True when no block stands between the viewer and the user in `column` (either way round). Each
 * direction is one primary-key or index lookup. A visitor (null) has no blocks; a row without a
 * user (a deleted author) is never hidden by this.
 */
export function notBlockedBetween(viewerId: string | null, column: UserColumn) {
  return (eb: Eb) => {
    if (viewerId === null) return always;
    const user = eb.ref(column) as any;
    return eb.and([
      eb.not(eb.exists(
        eb.selectFrom('user_blocks as blk_out').select(sql<number>`1`.as('one'))
          .where('blk_out.blocker_id', '=', viewerId).whereRef('blk_out.blocked_id', '=', user),
      )),
      eb.not(eb.exists(
        eb.selectFrom('user_blocks as blk_in').select(sql<number>`1`.as('one'))
          .where('blk_in.blocked_id', '=', viewerId).whereRef('blk_in.blocker_id', '=', user),
      )),
    ]);
  };
}

/**
 * The same for a comment: neither its author nor the author of the post it is under stands behind
 * a block with the viewer (a comment under a hidden post is as hidden as the post).
 */
export function commentNotBlocked(viewerId: string | null) {
  return (eb: Eb) => {
    if (viewerId === null) return always;
    return eb.and([
      notBlockedBetween(viewerId, 'comments.author_id')(eb),
      eb.not(eb.exists(
        eb.selectFrom('posts as blk_post').select(sql<number>`1`.as('one'))
          .whereRef('blk_post.id', '=', 'comments.post_id' as any)
          .where((inner) => inner.or([
            inner.exists(inner.selectFrom('user_blocks as blk_pout').select(sql<number>`1`.as('one'))
              .where('blk_pout.blocker_id', '=', viewerId).whereRef('blk_pout.blocked_id', '=', 'blk_post.author_id')),
            inner.exists(inner.selectFrom('user_blocks as blk_pin').select(sql<number>`1`.as('one'))
              .where('blk_pin.blocked_id', '=', viewerId).whereRef('blk_pin.blocker_id', '=', 'blk_post.author_id')),
          ])),
      )),
    ]);
  };
}

/** True unless the viewer muted the user in `column`. */
export function notMutedBy(viewerId: string | null, column: UserColumn) {
  return (eb: Eb) => {
    if (viewerId === null) return always;
    return eb.not(eb.exists(
      eb.selectFrom('user_mutes as mut_u').select(sql<number>`1`.as('one'))
        .where('mut_u.muter_id', '=', viewerId).whereRef('mut_u.muted_id', '=', eb.ref(column) as any),
    ));
  };
}

/**
 * True unless the post carries a hashtag the viewer muted, other than `except` (the hashtag whose
 * own page is being read still lists its posts).
 */
export function noMutedTag(viewerId: string | null, postColumn: PostColumn, except?: string) {
  return (eb: Eb) => {
    if (viewerId === null) return always;
    let muted = eb.selectFrom('post_hashtags as mut_ph')
      .innerJoin('tag_mutes as mut_t', (join) => join.onRef('mut_t.tag', '=', 'mut_ph.tag').on('mut_t.user_id', '=', viewerId))
      .select(sql<number>`1`.as('one'))
      .whereRef('mut_ph.post_id', '=', eb.ref(postColumn) as any);
    if (except !== undefined) muted = muted.where('mut_ph.tag', '!=', except);
    return eb.not(eb.exists(muted));
  };
}

/** What a feed hides from the viewer: posts by users they muted and posts with hashtags they muted. */
export function notMutedPost(viewerId: string | null, except?: string) {
  return (eb: Eb) => eb.and([notMutedBy(viewerId, 'posts.author_id')(eb), noMutedTag(viewerId, 'posts.id', except)(eb)]);
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Whether a block stands between the two users, either way round. */
export function isBlockedBetween(db: Executor, a: string, b: string | null): Promise<boolean> {
  if (b === null || a === b) return Promise.resolve(false);
  return hasRow(
    db.selectFrom('user_blocks').select('blocker_id').where((eb) => eb.or([
      eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
      eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
    ])),
  );
}

/**
 * The pairs among `pairs` (a recipient and an actor) that a notification must not join: a block
 * between them either way, or the recipient's mute of the actor. One query for a whole fan-out
 * batch; answers `${userId}:${actorId}` keys.
 */
export async function silencedPairs(db: Executor, pairs: { userId: string; actorId: string }[]): Promise<Set<string>> {
  const silenced = new Set<string>();
  const relevant = pairs.filter((p) => p.userId !== p.actorId);
  if (relevant.length === 0) return silenced;
  const users = [...new Set(relevant.map((p) => p.userId))];
  const actors = [...new Set(relevant.map((p) => p.actorId))];
  const [blocks, mutes] = await Promise.all([
    db.selectFrom('user_blocks').select(['blocker_id', 'blocked_id'])
      .where((eb) => eb.or([
        eb.and([eb('blocker_id', 'in', users), eb('blocked_id', 'in', actors)]),
        eb.and([eb('blocked_id', 'in', users), eb('blocker_id', 'in', actors)]),
      ]))
      .execute(),
    db.selectFrom('user_mutes').select(['muter_id', 'muted_id']).where('muter_id', 'in', users).where('muted_id', 'in', actors).execute(),
  ]);
  for (const row of blocks) {
    silenced.add(`${row.blocker_id}:${row.blocked_id}`);
    silenced.add(`${row.blocked_id}:${row.blocker_id}`);
  }
  for (const row of mutes) silenced.add(`${row.muter_id}:${row.muted_id}`);
  return silenced;
}

/** Whether a block stands between the viewer and the post's author (a post named by id elsewhere, as a pinned one). */
export function isPostBlockedFor(db: Executor, postId: string, viewerId: string | null): Promise<boolean> {
  if (viewerId === null) return Promise.resolve(false);
  return hasRow(
    db.selectFrom('posts').select('posts.id').where('posts.id', '=', postId).where((eb) => eb.not(notBlockedBetween(viewerId, 'posts.author_id')(eb))),
  );
}

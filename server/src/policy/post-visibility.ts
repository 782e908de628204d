import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, expressionBuilder, sql } from 'kysely';
import { likedBy, toFlag } from '../db/helpers.js';
import type { Database, Executor } from '../db/schema.js';
import { notBlockedBetween } from './blocks.js';
import { postAuthorNotSuspended } from './suspension.js';

/**
 * Who may read a post: the one definition of "a private group's posts are for its members", so
 * every listing, page, count, image and federation path that shows a post decides it the same way.
 * A post tagged with a private group is readable only by a member of every private group it is in;
 * a visitor, and so another server, reads none of them.
 */

/** The column of an outer query that holds the post's id. */
type PostIdColumn = 'posts.id' | 'comments.post_id' | 'original.id' | 'post_groups.post_id';

// The rules plug into any query whose tables include the named column, hence the open table set.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Eb = ExpressionBuilder<Database, any>;
const eb: Eb = expressionBuilder<Database, any>();
const one = sql<number>`1`.as('one');

/** The private groups the post (an id, or a column of the outer query) is in: the rule's one statement. */
function privateGroupsOf(postId: Expression<string>) {
  return eb
    .selectFrom('post_groups as priv_pg')
    .innerJoin('groups as priv_g', 'priv_g.id', 'priv_pg.group_id')
    .where('priv_pg.post_id', '=', postId)
    .where('priv_g.is_private', '=', toFlag(true));
}

const postIdIn = (postIdColumn: PostIdColumn): Expression<string> => eb.ref(postIdColumn) as any;

/** The post is in no private group the viewer is not a member of (for a visitor: in no private group). */
function postGroupsVisibleTo(viewerId: string | null, postIdColumn: PostIdColumn): Expression<SqlBool> {
  let hidden = privateGroupsOf(postIdIn(postIdColumn)).select(one);
  if (viewerId !== null) {
    hidden = hidden.where((inner) =>
      inner.not(inner.exists(inner.selectFrom('group_members as vis_m').select(one).whereRef('vis_m.group_id', '=', 'priv_g.id').where('vis_m.user_id', '=', viewerId))),
    );
  }
  return eb.not(eb.exists(hidden));
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * Filter for queries over `posts` (or a column naming a post): the viewer may read the post. Visitors
 * (null) see no private post. A suspended author's post is seen by nobody.
 */
export function postVisibleTo(viewerId: string | null, postIdColumn: PostIdColumn = 'posts.id') {
  return (builder: Eb) => builder.and([postGroupsVisibleTo(viewerId, postIdColumn), postAuthorNotSuspended(postIdColumn)]);
}

/**
 * The posts of a table or alias the viewer may read: their groups let them, and no block stands
 * between them and the author. The one rule of reading a post: its page, its groups, its history,
 * the original a reply shows and the data export all ask it.
 */
export function postReadableBy(viewerId: string | null, table: 'posts' | 'original') {
  return (builder: ExpressionBuilder<Database, 'posts'>) =>
    builder.and([postVisibleTo(viewerId, `${table}.id`)(builder), notBlockedBetween(viewerId, `${table}.author_id`)(builder)]);
}

/**
 * The post is in no private group the viewer is outside of, its author's standing not asked: for
 * reading the posts of an author already known to be in good standing (their account's own counts),
 * where asking again for each post would read the author once per post.
 */
export const postGroupsReadableBy = (viewerId: string | null, postIdColumn: PostIdColumn = 'posts.id'): Expression<SqlBool> => postGroupsVisibleTo(viewerId, postIdColumn);

/**
 * The post is in no private group: what a visitor, and so every other server, may be shown or sent.
 * Suspension is left to the caller, who may be speaking of a post already gone out.
 */
export const inNoPrivateGroup = (postIdColumn: PostIdColumn): Expression<SqlBool> => postGroupsVisibleTo(null, postIdColumn);

/**
 * 1 when the post (by an id column of the outer query) is in any private group, else 0: its
 * images are then served only through signed URLs. Selected as a column; read it with toBool.
 */
export function postIsPrivate(postIdColumn: PostIdColumn) {
  return eb
    .case()
    .when(eb.exists(privateGroupsOf(postIdIn(postIdColumn)).select(one)))
    .then(sql<number>`1`)
    .else(sql<number>`0`)
    .end();
}

/**
 * What the card of a post or a comment reads beside its row: whether its post is in a private group
 * (`is_private`: its images are signed) and whether the viewer liked it (`liked`). Read both with toBool.
 */
export function cardFlags(viewerId: string | null, likes: 'post_likes' | 'comment_likes', postIdColumn: PostIdColumn, idColumn: string) {
  return [postIsPrivate(postIdColumn).as('is_private'), likedBy(viewerId, likes, idColumn).as('liked')] as const;
}

/** Whether the post, by id, is in any private group. */
export async function isPrivatePost(db: Executor, postId: string): Promise<boolean> {
  const row = await db.selectFrom('groups').select('groups.id').where('groups.id', 'in', privateGroupsOf(eb.val(postId)).select('priv_g.id')).executeTakeFirst();
  return row !== undefined;
}

/**
 * postVisibleTo turned around, for one post and many candidate users (a fan-out batch): the
 * post's private groups are read once, and the answer is a condition on a column holding a
 * user's id, true when that user is a member of each of them (always, for a post in none).
 */
export async function postAudience(db: Executor, postId: string): Promise<(userColumn: string) => RawBuilder<SqlBool>> {
  const rows = await db.selectFrom('groups').select('groups.id').where('groups.id', 'in', privateGroupsOf(eb.val(postId)).select('priv_g.id')).execute();
  const groupIds = rows.map((row) => row.id);
  return (userColumn) => {
    if (groupIds.length === 0) return sql<SqlBool>`1 = 1`;
    const each = groupIds.map(
      (groupId) => sql`exists (select 1 from group_members aud_m where aud_m.group_id = ${groupId} and aud_m.user_id = ${sql.ref(userColumn)})`,
    );
    return sql<SqlBool>`(${sql.join(each, sql` and `)})`;
  };
}

export async function isPostVisible(db: Executor, postId: string, viewerId: string | null): Promise<boolean> {
  const row = await db.selectFrom('posts').select('posts.id').where('posts.id', '=', postId).where(postVisibleTo(viewerId)).executeTakeFirst();
  return !!row;
}

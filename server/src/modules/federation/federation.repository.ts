import { sql } from 'kysely';
import { columnOf, insertOnce } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { PARKED } from '../../lib/jobs/queue.js';
import { groupVisibleTo } from '../../policy/group-access.js';
import { inNoPrivateGroup } from '../../policy/post-visibility.js';
import { accountNotSuspended, postAuthorNotSuspended, userNotSuspended } from '../../policy/suspension.js';
import { INSTANCE_ACTOR_ID } from '../remote/actor-path.js';
import { hostOf, normalizeHandle } from '../../lib/hosts.js';

/**
 * What the fediverse may see of the instance: the same public profiles and groups the sitemap
 * lists (accounts that verified their address and are not suspended; groups that are not private),
 * so a private group or a suspended account is never even named to another server.
 */

/**
 * `since`: when the account or group was made. `discoverable`: other servers may list it in their
 * directories; `indexable`: they may put a user's posts in their search (both the user's own
 * choices; a public group is always listed, and its posts are its members').
 */
export type LocalActor = { id: string; name: string; about: string; pictureVersion: number; since: number; discoverable: boolean } & (
  | { kind: 'user'; indexable: boolean }
  | { kind: 'group' }
);

const publicUsers = (db: Executor) =>
  db
    .selectFrom('users')
    .select(['users.id', 'users.username', 'users.bio', 'users.pfp_version', 'users.created_at', 'users.discoverable', 'users.indexable'])
    .where('users.verified', '=', 1)
    .where(accountNotSuspended());

const publicGroups = (db: Executor) =>
  db
    .selectFrom('groups')
    .select(['groups.id', 'groups.name', 'groups.description', 'groups.gp_version', 'groups.created_at'])
    .where(groupVisibleTo(null));

type UserRow = { id: string; username: string; bio: string; pfp_version: number; created_at: number; discoverable: number; indexable: number };
type GroupRow = { id: string; name: string; description: string; gp_version: number; created_at: number };

const userActor = (row: UserRow): LocalActor => ({
  kind: 'user',
  id: row.id,
  name: row.username,
  about: row.bio,
  pictureVersion: Number(row.pfp_version),
  since: Number(row.created_at),
  discoverable: Number(row.discoverable) !== 0,
  indexable: Number(row.indexable) !== 0,
});
const groupActor = (row: GroupRow): LocalActor => ({
  kind: 'group',
  id: row.id,
  name: row.name,
  about: row.description,
  pictureVersion: Number(row.gp_version),
  since: Number(row.created_at),
  discoverable: true,
});

/** The public user or group with this id (an actor's address carries its id, which never changes). */
export async function actorById(db: Executor, id: string): Promise<LocalActor | null> {
  const user = await publicUsers(db).where('users.id', '=', id).executeTakeFirst();
  if (user) return userActor(user);
  const group = await publicGroups(db).where('groups.id', '=', id).executeTakeFirst();
  return group ? groupActor(group) : null;
}

/** The public user of this name (names match in any case). */
export async function userNamed(db: Executor, name: string): Promise<LocalActor | null> {
  const user = await publicUsers(db).where('users.username_lower', '=', name.toLowerCase()).executeTakeFirst();
  return user ? userActor(user) : null;
}

/** The public group of this name (names match in any case). */
export async function groupNamed(db: Executor, name: string): Promise<LocalActor | null> {
  const group = await publicGroups(db).where('groups.name_lower', '=', name.toLowerCase()).executeTakeFirst();
  return group ? groupActor(group) : null;
}

/** A handle's actor: the public user of that name, else the public group of that name. */
export async function actorByName(db: Executor, name: string): Promise<LocalActor | null> {
  return (await userNamed(db, name)) ?? (await groupNamed(db, name));
}

const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: string | number | bigint }> }) => Number((await query.executeTakeFirstOrThrow()).n);

/** The posts a visitor may read: in no private group, by an author who is not suspended. */
const visiblePosts = (db: Executor) => db.selectFrom('posts').where(userNotSuspended('posts.author_id')).where(inNoPrivateGroup('posts.id'));

/** How many of a user's posts a visitor may read (their outbox's size). */
export async function visiblePostCount(db: Executor, authorId: string): Promise<number> {
  return count(
    visiblePosts(db)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('posts.author_id', '=', authorId),
  );
}

/** The author a column of the outer query names is local: a remote account is a user a remote actor stands for. */
const byLocalAuthor = (authorIdColumn: string) =>
  sql<boolean>`not exists (select 1 from remote_actors fed_ra where fed_ra.user_id = ${sql.ref(authorIdColumn)})`;

/**
 * NodeInfo's usage: public accounts, and the posts and comments of local authors a visitor may
 * read (none in a private group, none by a suspended author). What remote accounts wrote is their
 * servers' to count.
 */
export async function usageCounts(db: Executor): Promise<{ users: number; posts: number; comments: number }> {
  const users = count(
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('users.verified', '=', 1)
      .where(accountNotSuspended()),
  );
  const posts = count(visiblePosts(db).select((eb) => eb.fn.countAll<number>().as('n')).where(byLocalAuthor('posts.author_id')));
  const comments = count(
    db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('comments.deleted', '=', 0)
      .where(byLocalAuthor('comments.author_id'))
      .where(userNotSuspended('comments.author_id'))
      .where(postAuthorNotSuspended('comments.post_id'))
      .where(inNoPrivateGroup('comments.post_id')),
  );
  return { users: await users, posts: await posts, comments: await comments };
}

/**
 * Forgets the keys of actors that are gone (a deleted account or group) once nothing waiting in the
 * queue, to be tried again, still names them: the actor's Delete is signed with its own key after
 * the account has gone, and a retry may come an hour later. A job that gave up (parked) holds none.
 * The payload is JSON text; an id found anywhere in it counts, which can only keep a key longer.
 */
export async function purgeKeysOfGoneActors(db: Executor, jobKinds: readonly string[]): Promise<void> {
  await db
    .deleteFrom('federation_keys')
    // The instance's own actor is neither, and never gone.
    .where('actor_id', '!=', INSTANCE_ACTOR_ID)
    .where('actor_id', 'not in', db.selectFrom('users').select('id'))
    .where('actor_id', 'not in', db.selectFrom('groups').select('id'))
    .where(({ not, exists, selectFrom, ref }) =>
      not(
        exists(
          selectFrom('jobs')
            .select('jobs.id')
            .where('jobs.kind', 'in', jobKinds)
            .where('jobs.run_at', '<', PARKED)
            .where('jobs.payload', 'like', sql<string>`'%' || ${ref('federation_keys.actor_id')} || '%'`),
        ),
      ),
    )
    .execute();
}

export interface RemoteActor {
  id: string;
  inbox: string;
  shared_inbox: string | null;
  handle: string | null;
}

/** Stores a remote actor as last read, replacing what was known of it; its host is what a domain block matches. */
export async function saveRemoteActor(db: Executor, actor: RemoteActor, now: number): Promise<void> {
  const domain = hostOf(actor.id);
  const handle = actor.handle && normalizeHandle(actor.handle);
  await db
    .insertInto('remote_actors')
    .values({ ...actor, handle, domain, fetched_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ inbox: actor.inbox, shared_inbox: actor.shared_inbox, handle, domain, fetched_at: now }))
    .execute();
}

/** A remote actor follows a local user or group; a repeated Follow keeps the first. */
export async function addRemoteFollow(db: Executor, remoteActorId: string, localId: string, now: number): Promise<void> {
  await insertOnce(db, 'remote_follows', { remote_actor_id: remoteActorId, local_id: localId, created_at: now }, ['remote_actor_id', 'local_id']);
}

export async function removeRemoteFollow(db: Executor, remoteActorId: string, localId: string): Promise<void> {
  await db.deleteFrom('remote_follows').where('remote_actor_id', '=', remoteActorId).where('local_id', '=', localId).execute();
}

/** Keeps the id of the Follow that made (or repeated) a remote follow, by which an Undo may name it. */
export async function setRemoteFollowId(db: Executor, remoteActorId: string, localId: string, followId: string): Promise<void> {
  await db.updateTable('remote_follows').set({ follow_id: followId }).where('remote_actor_id', '=', remoteActorId).where('local_id', '=', localId).execute();
}

/** The local user or group the remote actor follows by its Follow of this id, when that follow is kept. */
export async function localIdOfRemoteFollow(db: Executor, remoteActorId: string, followId: string): Promise<string | null> {
  return (await columnOf(db, 'remote_follows', 'local_id', { remote_actor_id: remoteActorId, follow_id: followId })) ?? null;
}

/** Ends the follows of a local user or group by the remote actor an account stands for (a block between them). */
export async function removeRemoteFollowsByAccount(db: Executor, accountId: string, localId: string): Promise<void> {
  await db
    .deleteFrom('remote_follows')
    .where('local_id', '=', localId)
    .where('remote_actor_id', 'in', db.selectFrom('remote_actors').select('id').where('user_id', '=', accountId))
    .execute();
}

/** The remote actors following a local user or group, the earliest first. */
export async function remoteFollowersOf(db: Executor, localId: string): Promise<RemoteActor[]> {
  return db
    .selectFrom('remote_follows')
    .innerJoin('remote_actors', 'remote_actors.id', 'remote_follows.remote_actor_id')
    .select(['remote_actors.id', 'remote_actors.inbox', 'remote_actors.shared_inbox', 'remote_actors.handle'])
    .where('remote_follows.local_id', '=', localId)
    .orderBy('remote_follows.created_at')
    .orderBy('remote_actors.id')
    .execute();
}

/**
 * Where an activity for a local actor's remote followers goes: one inbox per server that offers a
 * shared one, else each follower's own.
 */
export async function followerInboxes(db: Executor, localId: string): Promise<string[]> {
  return [...new Set((await remoteFollowersOf(db, localId)).map((follower) => follower.shared_inbox ?? follower.inbox))];
}

/** Forgets every remote follower of a local user or group that stops being an actor. */
export async function removeRemoteFollowers(db: Executor, localId: string): Promise<void> {
  await db.deleteFrom('remote_follows').where('local_id', '=', localId).execute();
}

/** The groups of a post in its order, when every group it is in is public; none for a post in any private group. */
function publicGroupsOfPost(db: Executor, postId: string) {
  return db
    .selectFrom('post_groups')
    .innerJoin('groups', 'groups.id', 'post_groups.group_id')
    .select('groups.id')
    .where('post_groups.post_id', '=', postId)
    .where(inNoPrivateGroup('post_groups.post_id'))
    .orderBy('post_groups.position');
}

/**
 * The public groups a post is in that have remote followers: those that pass on what is written
 * under it. None for a post in any private group.
 */
export async function followedGroupsOf(db: Executor, postId: string): Promise<string[]> {
  const rows = await publicGroupsOfPost(db, postId)
    .where((eb) => eb.exists(eb.selectFrom('remote_follows').select('remote_follows.local_id').whereRef('remote_follows.local_id', '=', 'groups.id')))
    .execute();
  return rows.map((row) => row.id);
}

/** The first group of a post, when every group it is in is public; null for none. */
export async function firstPublicGroupOf(db: Executor, postId: string): Promise<string | null> {
  const row = await publicGroupsOfPost(db, postId).limit(1).executeTakeFirst();
  return row?.id ?? null;
}

/** Which of these local ids are groups the remote actor follows. */
export async function groupsFollowedBy(db: Executor, remoteActorId: string, localIds: string[]): Promise<string[]> {
  if (localIds.length === 0) return [];
  const rows = await db
    .selectFrom('remote_follows')
    .innerJoin('groups', 'groups.id', 'remote_follows.local_id')
    .select('groups.id')
    .where('remote_follows.remote_actor_id', '=', remoteActorId)
    .where('remote_follows.local_id', 'in', localIds)
    .execute();
  return rows.map((row) => row.id);
}

/** A post stored from another server, by its Note's IRI. */
export async function postByApId(db: Executor, apId: string) {
  return db.selectFrom('posts').select(['id', 'author_id']).where('ap_id', '=', apId).executeTakeFirst();
}

/** Keeps that an account passed on a post (once, however often it is announced again). */
export async function recordShare(db: Executor, sharerId: string, postId: string, at: number): Promise<void> {
  await insertOnce(db, 'post_shares', { sharer_id: sharerId, post_id: postId, created_at: at }, ['sharer_id', 'post_id']);
  await insertOnce(db, 'post_sharers', { user_id: sharerId }, ['user_id']);
}

/** When a post's pictures last changed (epoch ms, 0 for none ever uploaded). */
export async function postMediaVersion(db: Executor, postId: string): Promise<number> {
  const row = await db.selectFrom('posts').select('media_version').where('id', '=', postId).executeTakeFirst();
  return Number(row?.media_version ?? 0);
}

/** A comment written here (one with no address elsewhere), by its id. */
export async function localCommentById(db: Executor, id: string) {
  return db.selectFrom('comments').select(['id', 'post_id', 'deleted']).where('id', '=', id).where('ap_id', 'is', null).executeTakeFirst();
}

/** A comment stored from another server, by its object's IRI. */
export async function commentByApId(db: Executor, apId: string) {
  return db.selectFrom('comments').select(['id', 'post_id', 'author_id', 'deleted']).where('ap_id', '=', apId).executeTakeFirst();
}

/** Whether some local user follows this account (a remote account someone here chose to read). */
export async function isFollowedHere(db: Executor, userId: string): Promise<boolean> {
  const row = await db.selectFrom('follows').select('follower_id').where('following_id', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The ids of the posts an account wrote. */
export async function postIdsBy(db: Executor, userId: string): Promise<string[]> {
  return (await db.selectFrom('posts').select('id').where('author_id', '=', userId).execute()).map((row) => row.id);
}

/** The posts and comments a remote account wrote that are kept here, with their own addresses. */
export async function remoteWritingsBy(db: Executor, userId: string): Promise<Array<{ of: 'post' | 'comment'; id: string; apId: string }>> {
  const posts = await db.selectFrom('posts').select(['id', 'ap_id']).where('author_id', '=', userId).where('ap_id', 'is not', null).execute();
  const comments = await db.selectFrom('comments').select(['id', 'ap_id']).where('author_id', '=', userId).where('ap_id', 'is not', null).where('deleted', '=', 0).execute();
  return [
    ...posts.map((row) => ({ of: 'post' as const, id: row.id, apId: row.ap_id! })),
    ...comments.map((row) => ({ of: 'comment' as const, id: row.id, apId: row.ap_id! })),
  ];
}

/** What a like is of: a post, or a comment. */
export type LikeTarget = { postId: string; commentId?: undefined } | { commentId: string; postId?: undefined };

/** The liked post's or comment's own address and author, when another server wrote it. */
export async function remoteLiked(db: Executor, target: LikeTarget): Promise<{ apId: string; authorId: string | null } | null> {
  const row =
    target.commentId === undefined
      ? await db.selectFrom('posts').select(['ap_id', 'author_id']).where('id', '=', target.postId).executeTakeFirst()
      : await db.selectFrom('comments').select(['ap_id', 'author_id']).where('id', '=', target.commentId).executeTakeFirst();
  return row?.ap_id ? { apId: row.ap_id, authorId: row.author_id } : null;
}

/** When the user's like of the post or comment was given, if it is there. */
export async function likeGivenAt(db: Executor, target: LikeTarget, userId: string): Promise<number | undefined> {
  const row =
    target.commentId === undefined
      ? await db.selectFrom('post_likes').select('created_at').where('post_id', '=', target.postId).where('user_id', '=', userId).executeTakeFirst()
      : await db.selectFrom('comment_likes').select('created_at').where('comment_id', '=', target.commentId).where('user_id', '=', userId).executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}

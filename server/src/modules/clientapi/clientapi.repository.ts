import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { runBound } from '../../db/bound-statements.js';
import { type Keyset, afterKeyset, beforeKeyset, rowOf, toBool } from '../../db/helpers.js';
import type { ClientAppsTable, Database, Executor } from '../../db/schema.js';
import { notBlockedBetween } from '../../policy/blocks.js';
import { groupVisibleTo } from '../../policy/group-access.js';
import { postIsPrivate, postVisibleTo } from '../../policy/post-visibility.js';
import { accountNotSuspended } from '../../policy/suspension.js';

/** The client API's own rows: the apps registered with it. */

/** People with an account here (their address confirmed, not suspended), as NodeInfo counts them. */
export async function localUserCount(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('users.verified', '=', 1)
    .where(accountNotSuspended())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertApp(db: Executor, app: ClientAppsTable): Promise<void> {
  await db.insertInto('client_apps').values(app).execute();
}

export function findAppById(db: Executor, id: string): Promise<ClientAppsTable | undefined> {
  return rowOf(db, 'client_apps', { id });
}

export function findAppByClientId(db: Executor, clientId: string): Promise<ClientAppsTable | undefined> {
  return rowOf(db, 'client_apps', { client_id: clientId });
}

/** How many posts the account has written. */
export async function postCountOf(db: Executor, userId: string): Promise<number> {
  const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).where('author_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- Accounts as fediverse apps read them -------------------------------------------------------

/** A person with what an app shows of them; the counts are what anyone may count (kept in `account_counts`). */
export interface PersonRow {
  id: string;
  username: string;
  bio: string;
  pfp_version: number;
  created_at: number;
  discoverable: boolean;
  indexable: boolean;
  /** A remote account's page on its own server; null for a local one. */
  remote_url: string | null;
  followers: number;
  following: number;
  statuses: number;
  last_status_at: number | null;
}

/** A person's row as the database gives it (flags and numbers as its driver reads them). */
interface PersonRawRow {
  id: string;
  username: string;
  bio: string;
  pfp_version: number | string;
  created_at: number | string;
  discoverable: unknown;
  indexable: unknown;
  remote_url: string | null | undefined;
  followers: number | string | null | undefined;
  following: number | string | null | undefined;
  statuses: number | string | null | undefined;
  last_status_at: number | string | null | undefined;
}

const toPersonRow = (row: PersonRawRow): PersonRow => ({
  id: row.id,
  username: row.username,
  bio: row.bio,
  pfp_version: Number(row.pfp_version),
  created_at: Number(row.created_at),
  discoverable: toBool(row.discoverable as number | boolean),
  indexable: toBool(row.indexable as number | boolean),
  remote_url: row.remote_url ?? null,
  followers: Number(row.followers ?? 0),
  following: Number(row.following ?? 0),
  statuses: Number(row.statuses ?? 0),
  last_status_at: row.last_status_at == null ? null : Number(row.last_status_at),
});

/**
 * People by id, suspended accounts and waiting sign-ups left out. Their counts and the time of
 * their last post are the stored ones, the same for every reader (a private group's posts never
 * counted). One statement for all of them, bound rather than built on every read (a page of
 * statuses asks it for its authors). The author's own standing is asked once, of the person, not
 * of each post.
 */
export async function personRows(db: Executor, ids: readonly string[]): Promise<PersonRow[]> {
  if (ids.length === 0) return [];
  const rows = await runBound(db, 'clientapi.personRows', { ids: [...ids] }, (a) =>
    db
      .selectFrom('users')
      .leftJoin('remote_actors', 'remote_actors.user_id', 'users.id')
      .leftJoin('account_counts', 'account_counts.user_id', 'users.id')
      .select(['users.id', 'users.username', 'users.bio', 'users.pfp_version', 'users.created_at', 'users.discoverable', 'users.indexable', 'remote_actors.url as remote_url'])
      .select(['account_counts.followers', 'account_counts.following', 'account_counts.statuses', 'account_counts.last_status_at'])
      .where('users.id', 'in', a.ids as string[])
      .where(accountNotSuspended()));
  return rows.map(toPersonRow);
}

/**
 * A page of posts (their authors' `users` rows joined) with what their authors' accounts show, so a
 * page of statuses needs no statement of its own for its authors. A listed post's author is in good
 * standing: the listing leaves the posts of suspended accounts out.
 */
export function withAuthorAccounts<R>(page: SelectQueryBuilder<Database, 'posts' | 'users', R>) {
  // Joined rather than asked per column: both tables hold at most one row per account, and SQLite
  // spent more on four small subqueries per post than on two joins.
  return page
    .leftJoin('account_counts as author_counts', 'author_counts.user_id', 'users.id')
    .leftJoin('remote_actors as author_remote', 'author_remote.user_id', 'users.id')
    .select([
      'users.bio as author_bio',
      'users.created_at as author_created_at',
      'users.discoverable as author_discoverable',
      'users.indexable as author_indexable',
      'author_remote.url as author_remote_url',
      'author_counts.followers as author_followers',
      'author_counts.following as author_following',
      'author_counts.statuses as author_statuses',
      'author_counts.last_status_at as author_last_status_at',
    ]);
}

/** The columns withAuthorAccounts adds to a page's rows, as the database gives them. */
export interface AuthorColumns {
  author_bio: string;
  author_created_at: number | string;
  author_discoverable: unknown;
  author_indexable: unknown;
  author_remote_url: string | null;
  author_followers: number | string | null;
  author_following: number | string | null;
  author_statuses: number | string | null;
  author_last_status_at: number | string | null;
}

/** The authors' rows of a page read withAuthorAccounts, one per author. */
export function authorsOf(rows: ReadonlyArray<{ author_id: string | null; author_username: string | null; author_pfp_version: number | string | null } & AuthorColumns>): PersonRow[] {
  const authors = new Map<string, PersonRow>();
  for (const row of rows) {
    if (row.author_id === null || row.author_username === null || authors.has(row.author_id)) continue;
    authors.set(row.author_id, toPersonRow({
      id: row.author_id,
      username: row.author_username,
      bio: row.author_bio,
      pfp_version: row.author_pfp_version ?? 0,
      created_at: row.author_created_at,
      discoverable: row.author_discoverable,
      indexable: row.author_indexable,
      remote_url: row.author_remote_url,
      followers: row.author_followers,
      following: row.author_following,
      statuses: row.author_statuses,
      last_status_at: row.author_last_status_at,
    }));
  }
  return [...authors.values()];
}

/** The id of a person by username (`name`, or `name@host` for a remote account), any case. */
export async function personIdByName(db: Executor, username: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').where('username_lower', '=', username.toLowerCase()).where(accountNotSuspended()).executeTakeFirst();
  return row?.id;
}

/** A group with what an app shows of it; `open` is whether the viewer may see its posts and members. */
export interface GroupAccountRow {
  id: string;
  name: string;
  description: string;
  gp_version: number;
  created_at: number;
  is_private: boolean;
  request_join: boolean;
  members: number;
  open: boolean;
  statuses: number;
  last_status_at: number | null;
}

/** Groups by id; a private group's counts are read only for its members. */
export async function groupAccountRows(db: Executor, ids: readonly string[], viewerId: string | null): Promise<GroupAccountRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('groups')
    .select(['groups.id', 'groups.name', 'groups.description', 'groups.gp_version', 'groups.created_at', 'groups.is_private', 'groups.request_join', 'groups.members'])
    .select((eb) => [
      eb.selectFrom('post_groups').select((s) => s.fn.count<number>('post_groups.post_id').distinct().as('n')).whereRef('post_groups.group_id', '=', 'groups.id').where(postVisibleTo(viewerId, 'post_groups.post_id')).as('statuses'),
      eb.selectFrom('post_groups').select((s) => s.fn.max('post_groups.created_at').as('at')).whereRef('post_groups.group_id', '=', 'groups.id').where(postVisibleTo(viewerId, 'post_groups.post_id')).as('last_status_at'),
      eb.case().when(groupVisibleTo(viewerId)(eb)).then(1).else(0).end().as('open'),
    ])
    .where('groups.id', 'in', [...ids])
    .execute();
  return rows.map((row) => ({
    ...row,
    gp_version: Number(row.gp_version),
    created_at: Number(row.created_at),
    is_private: toBool(row.is_private),
    request_join: toBool(row.request_join),
    members: Number(row.members),
    open: toBool(row.open),
    statuses: Number(row.statuses ?? 0),
    last_status_at: row.last_status_at == null ? null : Number(row.last_status_at),
  }));
}

export async function groupIdByName(db: Executor, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('groups').select('id').where('name_lower', '=', name.toLowerCase()).executeTakeFirst();
  return row?.id;
}

/** Where a keyset page of accounts stands: bounds by (time, id) and the page's size. */
export interface AccountPage {
  below?: Keyset | undefined;
  above?: Keyset | undefined;
  nearAbove?: boolean | undefined;
  limit: number;
}

/** One account of a list, and when it joined the list (its follow, membership or like). */
export interface ListedAccount {
  id: string;
  at: number;
}

type TimedQuery = SelectQueryBuilder<Database, keyof Database, { id: string; at: number }>;

/** A page of a list ordered by (time, id), newest first or, near a lower bound, oldest first. */
async function keyedList(query: TimedQuery, timeColumn: string, idColumn: string, page: AccountPage): Promise<ListedAccount[]> {
  const direction = page.nearAbove ? 'asc' : 'desc';
  const rows = await query
    .where(beforeKeyset(page.below, timeColumn, idColumn))
    .where(afterKeyset(page.above, timeColumn, idColumn))
    .orderBy(sql.ref(timeColumn), direction)
    .orderBy(sql.ref(idColumn), direction)
    .limit(page.limit)
    .execute();
  const listed = rows.map((row) => ({ id: row.id, at: Number(row.at) }));
  return page.nearAbove ? listed.reverse() : listed;
}

/** A person's followers or the people they follow, a block between them and the viewer leaving one out. */
export function followPage(db: Executor, userId: string, direction: 'followers' | 'following', viewerId: string | null, page: AccountPage): Promise<ListedAccount[]> {
  const [own, other] = direction === 'followers' ? (['following_id', 'follower_id'] as const) : (['follower_id', 'following_id'] as const);
  const query = db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', `follows.${other}`)
    .select(['users.id as id', 'follows.created_at as at'])
    .where(`follows.${own}`, '=', userId)
    .where(accountNotSuspended())
    .where(notBlockedBetween(viewerId, 'users.id'));
  return keyedList(query as unknown as TimedQuery, 'follows.created_at', `follows.${other}`, page);
}

/** A group's members (owner and admins included), latest joined first. */
export function memberPage(db: Executor, groupId: string, viewerId: string | null, page: AccountPage): Promise<ListedAccount[]> {
  const query = db
    .selectFrom('group_members')
    .innerJoin('users', 'users.id', 'group_members.user_id')
    .select(['users.id as id', 'group_members.created_at as at'])
    .where('group_members.group_id', '=', groupId)
    .where(accountNotSuspended())
    .where(notBlockedBetween(viewerId, 'users.id'));
  return keyedList(query as unknown as TimedQuery, 'group_members.created_at', 'group_members.user_id', page);
}

/** Who liked a post or a comment, latest first. */
export function likerPage(db: Executor, table: 'post_likes' | 'comment_likes', targetId: string, viewerId: string | null, page: AccountPage): Promise<ListedAccount[]> {
  const target = table === 'post_likes' ? 'post_likes.post_id' : 'comment_likes.comment_id';
  const query = (db as Kysely<Database>)
    .selectFrom(table)
    .innerJoin('users', 'users.id', `${table}.user_id`)
    .select(['users.id as id', `${table}.created_at as at`] as const)
    .where(sql.ref(target), '=', targetId)
    .where(accountNotSuspended())
    .where(notBlockedBetween(viewerId, 'users.id'));
  return keyedList(query as unknown as TimedQuery, `${table}.created_at`, `${table}.user_id`, page);
}

/** The posts a person liked, latest like first (each post's visibility is the posts module's to check). */
export function likedPostPage(db: Executor, userId: string, page: AccountPage): Promise<ListedAccount[]> {
  const query = db.selectFrom('post_likes').select(['post_likes.post_id as id', 'post_likes.created_at as at']).where('post_likes.user_id', '=', userId);
  return keyedList(query as unknown as TimedQuery, 'post_likes.created_at', 'post_likes.post_id', page);
}

/** The viewer's follows, blocks and mutes towards each of the people, both ways where both exist. */
export interface Edges {
  following: Map<string, boolean>;
  followedBy: Set<string>;
  blocking: Set<string>;
  blockedBy: Set<string>;
  muting: Set<string>;
}

export async function edgesOf(db: Executor, viewerId: string, ids: readonly string[]): Promise<Edges> {
  // An empty IN list is a syntax error on PostgreSQL.
  if (ids.length === 0) return { following: new Map(), followedBy: new Set(), blocking: new Set(), blockedBy: new Set(), muting: new Set() };
  const among = [...ids];
  const [out, inward, blocksOut, blocksIn, mutes] = await Promise.all([
    db.selectFrom('follows').select(['following_id', 'notify']).where('follower_id', '=', viewerId).where('following_id', 'in', among).execute(),
    db.selectFrom('follows').select('follower_id').where('following_id', '=', viewerId).where('follower_id', 'in', among).execute(),
    db.selectFrom('user_blocks').select('blocked_id').where('blocker_id', '=', viewerId).where('blocked_id', 'in', among).execute(),
    db.selectFrom('user_blocks').select('blocker_id').where('blocked_id', '=', viewerId).where('blocker_id', 'in', among).execute(),
    db.selectFrom('user_mutes').select('muted_id').where('muter_id', '=', viewerId).where('muted_id', 'in', among).execute(),
  ]);
  return {
    following: new Map(out.map((row) => [row.following_id, toBool(row.notify)])),
    followedBy: new Set(inward.map((row) => row.follower_id)),
    blocking: new Set(blocksOut.map((row) => row.blocked_id)),
    blockedBy: new Set(blocksIn.map((row) => row.blocker_id)),
    muting: new Set(mutes.map((row) => row.muted_id)),
  };
}

/** The groups among `ids` the viewer belongs to, and those they asked to join. */
export async function groupEdgesOf(db: Executor, viewerId: string, ids: readonly string[]): Promise<{ member: Set<string>; requested: Set<string> }> {
  if (ids.length === 0) return { member: new Set(), requested: new Set() };
  const among = [...ids];
  const [members, requests] = await Promise.all([
    db.selectFrom('group_members').select('group_id').where('user_id', '=', viewerId).where('group_id', 'in', among).execute(),
    db.selectFrom('group_requests').select('group_id').where('user_id', '=', viewerId).where('group_id', 'in', among).execute(),
  ]);
  return { member: new Set(members.map((row) => row.group_id)), requested: new Set(requests.map((row) => row.group_id)) };
}

/** The posts among `ids` that are in a private group. */
export async function privatePostIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('posts').select(['posts.id', postIsPrivate('posts.id').as('private')]).where('posts.id', 'in', [...ids]).execute();
  return new Set(rows.filter((row) => toBool(row.private)).map((row) => row.id));
}

/** Where a comment stands in a listing of an account's statuses: its time and id. */
export async function commentKey(db: Executor, id: string): Promise<Keyset | undefined> {
  const row = await db.selectFrom('comments').select(['id', 'created_at']).where('id', '=', id).executeTakeFirst();
  return row && { at: Number(row.created_at), id: row.id };
}

/** The author of what each comment answers (the comment replied to, else its post); null when gone. */
export async function repliedAuthors(db: Executor, commentIds: readonly string[]): Promise<Map<string, string | null>> {
  if (commentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('comments')
    .innerJoin('posts', 'posts.id', 'comments.post_id')
    .leftJoin('comments as parent', 'parent.id', 'comments.parent_comment_id')
    .select(['comments.id', 'comments.parent_comment_id', 'parent.author_id as parent_author', 'posts.author_id as post_author'])
    .where('comments.id', 'in', [...commentIds])
    .execute();
  return new Map(rows.map((row) => [row.id, (row.parent_comment_id === null ? row.post_author : row.parent_author) ?? null]));
}

// ---- Read positions ---------------------------------------------------------------------------

export async function markersOf(db: Executor, userId: string, timelines: readonly string[]): Promise<{ timeline: string; last_read_id: string; version: number; updated_at: number }[]> {
  if (timelines.length === 0) return [];
  const rows = await db.selectFrom('client_markers').select(['timeline', 'last_read_id', 'version', 'updated_at']).where('user_id', '=', userId).where('timeline', 'in', [...timelines]).execute();
  return rows.map((row) => ({ ...row, version: Number(row.version), updated_at: Number(row.updated_at) }));
}

/** Keeps the read position, one version past the last (the first save is version 1). */
export async function saveMarker(db: Executor, userId: string, timeline: string, lastReadId: string, now: number): Promise<void> {
  await db
    .insertInto('client_markers')
    .values({ user_id: userId, timeline, last_read_id: lastReadId, version: 1, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'timeline']).doUpdateSet((eb) => ({ last_read_id: lastReadId, updated_at: now, version: eb('client_markers.version', '+', 1) })))
    .execute();
}

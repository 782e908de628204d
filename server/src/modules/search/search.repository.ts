import { type SqlBool, sql } from 'kysely';
import { foldForSearch } from '#core/text';
import { byteOrdered } from '../../db/dialect.js';
import type { Executor } from '../../db/schema.js';
import type { ListFilter, PageWindow } from '../../lib/paging.js';
import { bestNameMatchesFirst, searchMatches, searchRank } from '../../lib/search.js';
import { accountNotSuspended } from '../../policy/suspension.js';
import type { GroupListRow, UserListRow } from '../profiles/profiles.records.js';
import { notBlockedBetween } from '../../policy/blocks.js';
import { memberMayPost } from '../../policy/group-access.js';

/**
 * User and group search. Matching goes through the search indexes (lib/search); the
 * order is relevance (exact, then prefix, then substring) and then the name, with the id last so
 * pages never overlap.
 */

interface Slice {
  limit: number;
  offset?: number;
  /** Snapshot moment: accounts or groups made later are left out, so later pages do not shift. */
  before?: number | undefined;
  /** Who searches: users a block stands between them and are not found. */
  viewerId?: string | null;
}

const slice = (window: PageWindow, before: number | undefined): Slice => ({ limit: window.fetch, offset: window.offset, before });

/** The highest code point: a string that starts with `q` sorts before `q` followed by it. */
const LAST_CHARACTER = String.fromCodePoint(0x10ffff);

/** `search_text` compared byte by byte on both databases, as the `users_search_order` index holds it. */
const folded = (db: Executor) => byteOrdered(db, sql`users.search_text`);

/**
 * Users matching a query, in relevance order: the name itself, then names starting with it, then
 * names containing it further in, each by folded name and id. The first two are one range of the
 * `users_search_order` index (the name itself sorts first in it), read in order and cut at the page;
 * only names containing the query further in are sorted, and only when a page reaches them. A common
 * name then costs a page, not a sort of every match. Without a query: every user by name.
 */
export async function findUsers(db: Executor, query: string, { limit, offset = 0, before, viewerId = null }: Slice): Promise<UserListRow[]> {
  let base = db
    .selectFrom('users')
    .select(['users.id', 'users.username', 'users.pfp_version'])
    .where(accountNotSuspended())
    .where(notBlockedBetween(viewerId, 'users.id'));
  if (before !== undefined) base = base.where('users.created_at', '<=', before);
  const text = foldForSearch(query.trim());
  if (!text) return base.orderBy('users.username_lower').orderBy('users.id').limit(limit).offset(offset).execute();

  const name = folded(db);
  const startsWith = sql<SqlBool>`${name} >= ${text} and ${name} < ${text + LAST_CHARACTER}`;
  const inOrder = <Q extends typeof base>(q: Q) => q.orderBy(name).orderBy('users.id');
  const head = await inOrder(base.where(startsWith)).limit(limit).offset(offset).execute();
  if (head.length === limit) return head;
  // Where the names containing the query further in begin: right after this page's last prefix
  // match, or, when the page starts past them all, after however many there are.
  const prefixCount =
    head.length > 0
      ? offset + head.length
      : Number((await base.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).where(startsWith).executeTakeFirstOrThrow()).n);
  return [
    ...head,
    ...(await inOrder(base.where(searchMatches(db, 'users', query)).where(sql<SqlBool>`not (${startsWith})`))
      .limit(limit - head.length)
      .offset(Math.max(0, offset - prefixCount))
      .execute()),
  ];
}

export async function findGroups(db: Executor, query: string, { limit, offset = 0, before }: Slice): Promise<GroupListRow[]> {
  let q = db.selectFrom('groups').select(['groups.id', 'groups.name', 'groups.gp_version']);
  if (query.trim()) q = q.where(searchMatches(db, 'groups', query)).orderBy(searchRank('groups', query));
  if (before !== undefined) q = q.where('groups.created_at', '<=', before);
  return q.orderBy('groups.name_lower').orderBy('groups.id').limit(limit).offset(offset).execute();
}

export const usersPage = (db: Executor, filter: ListFilter, window: PageWindow, viewerId: string | null = null) =>
  findUsers(db, filter.query ?? '', { ...slice(window, filter.before), viewerId });
export const groupsPage = (db: Executor, filter: ListFilter, window: PageWindow) =>
  findGroups(db, filter.query ?? '', slice(window, filter.before));

/**
 * The viewer's groups matching the query where they may post, by the rule group-access holds, so
 * the limit counts only groups they can use.
 */
export async function postableGroups(db: Executor, viewerId: string, query: string, limit: number): Promise<GroupListRow[]> {
  return db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.id', 'group_members.group_id')
    .select(['groups.id', 'groups.name', 'groups.gp_version'])
    .where('group_members.user_id', '=', viewerId)
    .where(memberMayPost)
    .where(searchMatches(db, 'groups', query))
    .$call(bestNameMatchesFirst('groups', query))
    .limit(limit)
    .execute();
}

import { type Compilable, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { runBound } from '../../db/bound-statements.js';
import { type Keyset, afterKeyset, beforeKeyset } from '../../db/helpers.js';
import { dialectOf } from '../../db/dialect.js';
import { indexedMatchesUpTo, searchMatches, searchTextContains, searchWords } from '../../lib/search.js';
import { postVisibleTo } from '../../policy/post-visibility.js';
import { notBlockedBetween, notMutedPost } from '../../policy/blocks.js';

/**
 * Which posts a listing shows, a page of ids at a time: every feed, a profile's, a group's and a
 * hashtag's posts, and the post search. The posts themselves are read by the posts module
 * (getPostsForViewer); this is the plan that finds them in order.
 */
/** Which posts a listing covers. */
export type PostScope =
  /** `local`: only posts written here (true) or only those of other servers (false); left out, both. */
  | { kind: 'all'; local?: boolean }
  /**
   * `shares`: whether to list the posts the followed accounts passed on too (a followed community's
   * announces). Left out, the listing asks the database; only someone following such an account
   * needs the longer statement. `groups`: the posts of the groups the user belongs to as well, and
   * `own` the user's own posts (the home timeline of the client API, where apps show what their
   * person wrote among what they follow).
   */
  | { kind: 'following'; userId: string; shares?: boolean; groups?: boolean; own?: boolean }
  | { kind: 'memberGroups'; userId: string }
  | { kind: 'group'; groupId: string }
  | { kind: 'hashtag'; tag: string }
  /** `tag`: only the author's posts carrying that hashtag. */
  | { kind: 'author'; authorId: string; tag?: string }
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
  /** Bounds by (created_at, id), for clients that page by ids rather than by pages (newest sort only). */
  keys?: ListingKeys | undefined;
  /** Only posts with pictures. */
  withMedia?: boolean | undefined;
  /** The page's size and offset written into the statement rather than bound (see literalWindow). */
  literalWindow?: boolean | undefined;
}

/**
 * A page bounded by posts rather than by an offset: only posts older than `below`, only posts newer
 * than `above`; `nearAbove` asks for the oldest posts past `above` (read oldest first) rather than
 * the newest, so a reader catching up walks forward without a gap.
 */
export interface ListingKeys {
  below?: Keyset | undefined;
  above?: Keyset | undefined;
  nearAbove?: boolean | undefined;
}

/** A keyset bound from its two bound values, when both are there. */
const keyOf = (at: unknown, id: unknown): Keyset | undefined => (typeof at === 'number' && typeof id === 'string' ? { at, id } : undefined);

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
  const rows = await runPage(db, params, 'ids', (page) => page);
  return rows.map((r) => r.id);
}

/** A statement reading posts (of the posts module) chosen by a page's statement or named by their ids, for the viewer. */
export type PagePostsStatement<R> = (db: Executor, page: PostIdsQuery | string[], viewerId: string | null) => SelectQueryBuilder<Database, 'posts' | 'users', R>;

/**
 * The rows `posts` reads of one page of a listing, in the listing's order: the page's ids and their
 * posts in one statement, so PostgreSQL answers a page in one round trip rather than two. `name`
 * names the posts' statement (one name for one statement, as runBound asks).
 *
 * Not a search on PostgreSQL: its statement is planned for its words on every call (PLAN_FOR_VALUES),
 * and planning the posts' columns and flags with it took 2 ms a page against 0.3 ms of running it;
 * its page of ids is planned alone, and its posts read by a statement whose plan is kept.
 */
export async function listPagePosts<R>(db: Executor, params: ListPostIdsParams, name: string, posts: PagePostsStatement<R>): Promise<R[]> {
  if (params.scope.kind !== 'search' || dialectOf(db) !== 'postgres') {
    return runPage(db, params, name, (page, viewerId) => inListingOrder(posts(db, page, viewerId), params, 'posts'));
  }
  const ids = await listPostIds(db, params);
  if (ids.length === 0) return [];
  return runBound(db, `${name}:ids:${params.sort}:${directionOf(params)}`, { ids, viewerId: params.viewerId }, (a) =>
    inListingOrder(posts(db, a.ids as string[], a.viewerId as string | null), params, 'posts'));
}

/** The statement of listPagePosts; exported so tests can read its plan. */
export const pagePostsQuery = <R>(db: Executor, params: ListPostIdsParams, plan: ListingPlan, posts: PagePostsStatement<R>) =>
  inListingOrder(posts(db, postIdsQuery(db, params, plan), params.viewerId), params, 'posts');

/** Runs the statement `read` makes of a listing's page (its ids' statement), bound (bound-statements.ts) under `what`. */
async function runPage<R>(db: Executor, params: ListPostIdsParams, what: string, read: (page: PostIdsQuery, viewerId: string | null) => Compilable<R>): Promise<R[]> {
  const { scope } = params;
  const listing = scope.kind === 'following' && scope.shares === undefined
    ? { ...params, scope: { ...scope, shares: await followsASharer(db, scope.userId) } }
    : params;
  const plan = await choosePlan(db, listing);
  // Bound, not built, on every page read (bound-statements.ts): the scope's kind, the sort and the
  // plan choose the statement's text, its ids and window are values (or, for a literal window,
  // part of the text).
  const { kind, ...scopeValues } = listing.scope;
  const { viewerId, since, before, offset, fetch, keys } = listing;
  const literal = literalWindow(db, listing, plan);
  // Bounds by posts are flat values too: each key's time and id, and two flags of the shape.
  const bounds = { belowAt: keys?.below?.at, belowId: keys?.below?.id, aboveAt: keys?.above?.at, aboveId: keys?.above?.id, nearAbove: keys?.nearAbove ?? false, withMedia: listing.withMedia ?? false };
  // A literal window is part of the statement's name, so the builder may take it from here.
  const window = literal ? {} : { offset, fetch };
  const name = `feeds.page:${what}:${kind}:${listing.sort}:${plan}${literal ? `:${fetch}+${offset}` : ''}`;
  return runBound(db, name, { ...scopeValues, viewerId, since, before, ...window, ...bounds }, (a) => {
    const { viewerId: v, since: s, before: b, offset: o, fetch: f, belowAt, belowId, aboveAt, aboveId, nearAbove, withMedia, ...rest } = a;
    const pageKeys = { below: keyOf(belowAt, belowId), above: keyOf(aboveAt, aboveId), nearAbove: nearAbove === true };
    const pageWindow = literal ? { offset, fetch, literalWindow: true } : { offset: o as number, fetch: f as number };
    return read(postIdsQuery(db, { viewerId: v, since: s, before: b, ...pageWindow, sort: listing.sort, scope: { kind, ...rest } as PostScope, keys: pageKeys, withMedia: withMedia === true }, plan), v as string | null);
  });
}

/** Past this offset a page's window is bound again: deep pages are read rarely, and each window written out is another statement text. */
export const LITERAL_OFFSET_MAX = 200;
/** Listings whose plan is the same whatever their values: a walk down one index in the listing's order. */
const INDEX_WALKS: ReadonlySet<PostScope['kind']> = new Set(['all', 'group', 'hashtag', 'author']);

/**
 * Whether the page's size and offset are written into the statement. PostgreSQL keeps a prepared
 * statement's generic plan only when it costs no more than planning each call; with the LIMIT a
 * parameter, it prices the generic plan as reading a tenth of the posts and plans every call again,
 * which cost the newest feed about 1 ms of the database's CPU a page against 0.1 ms of running it.
 * With both written out, the generic plan is kept after the first few calls. Only for listings that
 * walk an index in their order anyway, and the following feed whose walk or sort a count chose: a
 * search's best plan depends on its words, and a merged following feed's on the reader, so they keep
 * being planned for each call. SQLite plans once per text either way.
 */
function literalWindow(db: Executor, params: ListPostIdsParams, plan: ListingPlan): boolean {
  const { scope } = params;
  // A merged feed's sort is one source page each, whose best plans depend on the reader's follows and groups.
  const merged = scope.kind === 'following' && (scope.groups === true || scope.own === true) && plan === 'sort';
  const planned = INDEX_WALKS.has(scope.kind) || (countedOnPostgres(scope) && !merged);
  return dialectOf(db) === 'postgres' && params.sort === 'newest' && planned && params.offset <= LITERAL_OFFSET_MAX;
}

/**
 * A following feed whose plan is counted on PostgreSQL too (choosePlan): the followed authors'
 * posts, and with `groups` the reader's groups' posts too. Its walk is one statement whose plan is
 * the walk whatever the reader, so its window may be written out like an index walk's; so is the
 * sort of the followed authors alone.
 */
function countedOnPostgres(scope: PostScope): boolean {
  return scope.kind === 'following' && scope.shares === false;
}

/** Where posts stand in a newest-first listing (their time and id), for pages bounded by posts. */
export async function postKeys(db: Executor, ids: string[]): Promise<Map<string, Keyset>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('posts').select(['id', 'created_at']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, { at: Number(row.created_at), id: row.id }]));
}

/**
 * Whether the user follows an account that passed a post on (a community of another server): one
 * lookup in the user's follows for each such account, of which a server knows few, where asking
 * each followed account cost a reader following 1,000 a fifth of their feed's page.
 */
export async function followsASharer(db: Executor, userId: string): Promise<boolean> {
  const rows = await runBound(db, 'feeds.followsASharer', { userId }, (a) =>
    db
      .selectFrom('post_sharers')
      .select(sql<number>`1`.as('one'))
      .where((eb) => eb.exists(eb.selectFrom('follows').select(sql<number>`1`.as('one')).where('follows.follower_id', '=', a.userId).whereRef('follows.following_id', '=', 'post_sharers.user_id')))
      // Written out: PostgreSQL plans a statement with its LIMIT bound again on every call (see literalWindow).
      .limit(sql.lit(1)));
  return rows.length > 0;
}

/** How listPostIds reaches the page (see ListingPlan); exported so tests can read the plan it leads to. */
export async function choosePlan(db: Executor, params: ListPostIdsParams): Promise<ListingPlan> {
  const { scope } = params;
  if (params.sort !== 'newest') return 'sort';
  // PostgreSQL asks the same LIKE of a search either way. A following feed merged with shares is
  // left to its planner, which walks or hashes each source by its statistics. (Reading
  // each followed author's newest posts by posts_author instead, a LATERAL join, read ten times the
  // rows at a million posts for the user following 1,000: 1.5 s against 31 ms.) The plain following
  // feed, and the home timeline with the reader's groups, are counted as on SQLite: each plan is its
  // own statement text, whose one generic plan PostgreSQL keeps (see literalWindow), where one text
  // for both was planned again on every page; a home timeline few enough to sort is merged from its
  // sources' own pages (followingMerged).
  const postgres = dialectOf(db) === 'postgres';
  if (postgres && scope.kind === 'search') return 'walk';
  if (scope.kind === 'search') return searchPlan(db, scope.query);
  if (scope.kind !== 'following') return 'sort';
  if (postgres && !countedOnPostgres(scope)) return 'sort';
  const groups = scope.groups === true;
  return keptPlan(db, followingPlans, `${scope.userId}:${params.since}:${params.before ?? ''}:${groups ? 'g' : ''}`, () => countFollowedCandidates(db, scope.userId, params, groups));
}

/**
 * Walking or sorting the following feed, from a capped count of the followed authors' posts in the
 * window (and with `groups`, the posts of the reader's groups too): up to SORT_AT_MOST of them are
 * sorted, more are walked.
 */
async function countFollowedCandidates(db: Executor, userId: string, params: Pick<ListPostIdsParams, 'since' | 'before'>, groups: boolean): Promise<ListingPlan> {
  // Visibility is left out of the count: it only ever hides a few posts of private groups. A post
  // both by a followed author and in a group counts twice, which only tips a borderline count.
  const [row] = await runBound(db, 'feeds.followedCandidates', { userId, since: params.since, before: params.before, groups }, (a) => {
    const followed = inWindow(
      db.selectFrom('posts').select(sql<number>`1`.as('one')).where('posts.author_id', 'in', (eb) =>
        eb.selectFrom('follows').select('follows.following_id').where('follows.follower_id', '=', a.userId)),
      a,
    );
    const grouped = inWindow(
      db.selectFrom('post_groups as scope').innerJoin('group_members', 'group_members.group_id', 'scope.group_id').select(sql<number>`1`.as('one')).where('group_members.user_id', '=', a.userId),
      a,
      'scope.created_at',
    );
    const candidates = a.groups ? followed.unionAll(grouped) : followed;
    return db.selectFrom(candidates.limit(SORT_AT_MOST + 1).as('candidates')).select((eb) => eb.fn.countAll<number | string>().as('n'));
  });
  return Number(row?.n ?? 0) > SORT_AT_MOST ? 'walk' : 'sort';
}

/** How long a counted plan is kept, and for how many searches or following feeds at most. */
const KEPT_PLAN_MS = 10_000;
const KEPT_PLANS_MAX = 500;
type KeptPlans = WeakMap<Executor, Map<string, { plan: ListingPlan; at: number }>>;
/** Plans of recent searches, per database, by their words in any order. */
const searchPlans: KeptPlans = new WeakMap();
/** Plans of recent following feeds, per database, by reader and window. */
const followingPlans: KeptPlans = new WeakMap();

/**
 * A plan that took a count to choose, kept a few seconds, so the next pages of a listing (and the
 * same search by other readers, or the same reader's feed read again) do not count again. Both plans
 * find the same posts: a plan kept past a change in the posts costs time, never a wrong page; so it
 * may be kept in each process apart.
 */
async function keptPlan(db: Executor, plans: KeptPlans, key: string, choose: () => Promise<ListingPlan>): Promise<ListingPlan> {
  const kept = plans.get(db) ?? new Map<string, { plan: ListingPlan; at: number }>();
  plans.set(db, kept);
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && now - hit.at < KEPT_PLAN_MS) return hit.plan;
  const plan = await choose();
  kept.delete(key);
  kept.set(key, { plan, at: now });
  // A Map iterates in insertion order: the first key is the oldest.
  if (kept.size > KEPT_PLANS_MAX) kept.delete(kept.keys().next().value!);
  return plan;
}

/** A search walks when the index matches more posts than a sort takes. */
function searchPlan(db: Executor, query: string): Promise<ListingPlan> {
  return keptPlan(db, searchPlans, searchWords(query).sort().join(' '), async () => {
    // A query too short for the SQLite index is checked row by row in either case.
    const matches = await indexedMatchesUpTo(db, 'posts', query, SORT_AT_MOST + 1);
    return matches === undefined || matches > SORT_AT_MOST ? 'walk' : 'sort';
  });
}

type WindowColumn = 'posts.created_at' | 'scope.created_at';
const ID_COLUMN = { 'posts.created_at': 'posts.id', 'scope.created_at': 'scope.post_id' } as const;

function inWindow<Q extends { where: (...args: any[]) => Q }>(query: Q, params: Pick<ListPostIdsParams, 'since' | 'before' | 'keys' | 'withMedia'>, column: WindowColumn = 'posts.created_at'): Q {
  let q = query;
  if (params.since > 0) q = q.where(column, '>=', params.since);
  if (params.before !== undefined) q = q.where(column, '<=', params.before);
  const { keys } = params;
  if (keys?.below) q = q.where(beforeKeyset(keys.below, column, ID_COLUMN[column]));
  if (keys?.above) q = q.where(afterKeyset(keys.above, column, ID_COLUMN[column]));
  if (params.withMedia) q = q.where((eb: ExpressionBuilder<Database, 'posts'>) => eb.or([eb('posts.images', '>', 0), eb('posts.remote_media', 'is not', null)]));
  return q;
}

/** Newest first, or oldest first for the page nearest a lower bound. */
const directionOf = (params: Pick<ListPostIdsParams, 'keys'>) => (params.keys?.nearAbove ? 'asc' : 'desc');

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
        .where((eb) => eb.not(eb.exists(lookupPerRow(db,
          eb.selectFrom('post_groups as earlier')
            .select(sql<number>`1`.as('one'))
            .whereRef('earlier.post_id', '=', 'scope.post_id')
            .whereRef('earlier.group_id', '=', 'scope.group_id')
            .whereRef('earlier.position', '<', 'scope.position'),
        ))))
      : db.selectFrom('post_hashtags as scope').where('scope.tag', '=', scope.tag);
    const q = inWindow(hiddenLeftOut(base.innerJoin('posts', 'posts.id', 'scope.post_id').select('posts.id').where(postVisibleTo(params.viewerId)), params), params, 'scope.created_at');
    const walk = inPageWindow(q.orderBy('scope.created_at', directionOf(params)).orderBy('scope.post_id', directionOf(params)), params);
    return walk as unknown as PostIdsQuery;
  }

  // A following feed's walk asks first whether a post belongs on it: SQLite asks a walk's conditions
  // in the order written, and most posts a walk passes are by authors not followed, in groups not joined.
  const posts = db.selectFrom('posts').select('posts.id');
  const belongs = followingBelongs(db, scope, plan);
  let query = hiddenLeftOut((belongs ? posts.where(belongs) : posts).where(postVisibleTo(params.viewerId)), params);
  switch (scope.kind) {
    case 'all':
      if (scope.local !== undefined) query = query.where('posts.ap_id', scope.local ? 'is' : 'is not', null);
      break;
    case 'following':
      if (belongs) break;
      if (scope.shares || scope.groups || scope.own) {
        const byCondition = (condition: PostCondition) => conditionPage(db, params, condition);
        const sources = [byFollowedAuthor(db, scope.userId, plan), ...(scope.shares ? [sharedByFollowed(scope.userId)] : []), ...(scope.own ? [byAuthor(scope.userId)] : [])];
        const pages = sources.map(byCondition);
        if (scope.groups) pages.push(memberGroupsPage(db, params, scope.userId));
        return followingMerged(db, params, pages);
      }
      break;
    case 'memberGroups':
      query = query.where(inMemberGroups(scope.userId));
      break;
    case 'group':
      query = query.where('posts.id', 'in', (eb) =>
        eb.selectFrom('post_groups').select('post_groups.post_id').where('post_groups.group_id', '=', scope.groupId),
      );
      break;
    case 'hashtag':
      query = query.where(carryingHashtag(scope.tag));
      break;
    case 'author':
      query = query.where('posts.author_id', '=', scope.authorId);
      if (scope.tag !== undefined) query = query.where(carryingHashtag(scope.tag));
      break;
    case 'search':
      // Walking: each post read is checked by its own text; sorting: the search index finds the few.
      query = query.where(plan === 'walk' ? searchTextContains('posts', scope.query) : searchMatches(db, 'posts', scope.query));
      break;
  }
  return inPageWindow(inListingOrder(inWindow(query, params), params, 'posts'), params);
}

/**
 * What a following feed asks of each post it reads, when one statement reads them all: the followed
 * authors' own feed, or one walk dense enough to ask each post each way it may belong on the page
 * (the reader's groups, a followed community's shares). Undefined for a feed merged from its
 * sources' pages, and for every other listing.
 */
function followingBelongs(db: Executor, scope: PostScope, plan: ListingPlan): PostCondition | undefined {
  if (scope.kind !== 'following') return undefined;
  const followed = byFollowedAuthor(db, scope.userId, plan);
  if (!scope.shares && !scope.groups && !scope.own) return followed;
  if (!scope.groups || plan !== 'walk') return undefined;
  // The reader's own posts are asked first: a comparison of the row's own column, no lookup.
  const ways = [...(scope.own ? [byAuthor(scope.userId)] : []), followed, ...(scope.shares ? [sharedByFollowed(scope.userId)] : []), inMemberGroupAsked(db, scope.userId)];
  return (eb) => eb.or(ways.map((way) => way(eb)));
}

/** Posts the user wrote, by the authors' index. */
function byAuthor(userId: string): PostCondition {
  return (eb) => eb('posts.author_id', '=', userId);
}

/** The page of a listing's order: its size and offset bound, or written out (see literalWindow). */
function inPageWindow<Q extends { limit: (limit: number | RawBuilder<number>) => Q; offset: (offset: number | RawBuilder<number>) => Q }>(query: Q, params: Pick<ListPostIdsParams, 'fetch' | 'offset' | 'literalWindow'>): Q {
  return params.literalWindow
    ? query.limit(sql.lit(params.fetch)).offset(sql.lit(params.offset))
    : query.limit(params.fetch).offset(params.offset);
}

/** Posts carrying a hashtag, by the hashtags' index. */
function carryingHashtag(tag: string) {
  return (eb: ExpressionBuilder<Database, 'posts'>) => eb('posts.id', 'in', eb.selectFrom('post_hashtags').select('post_hashtags.post_id').where('post_hashtags.tag', '=', tag));
}

/**
 * The following feed's condition on a post's author. Walking: one lookup in the viewer's follows per
 * post read (lookupPerRow). Sorting: the followed authors' own posts, by their index.
 */
function byFollowedAuthor(db: Executor, userId: string, plan: ListingPlan) {
  return (eb: ExpressionBuilder<Database, 'posts'>) => {
    const followed = eb.selectFrom('follows').select('follows.following_id').where('follows.follower_id', '=', userId);
    if (plan === 'sort') return eb('posts.author_id', 'in', followed);
    return eb.exists(lookupPerRow(db, followed.clearSelect().select(sql<number>`1`.as('one')).whereRef('follows.following_id', '=', 'posts.author_id')));
  };
}

/**
 * An EXISTS asked of each row a walk reads, kept a key lookup per row on PostgreSQL: OFFSET 0 keeps
 * its planner from turning it into a join, which a generic plan (one for every reader and group,
 * see literalWindow) prices by the average follows or group and may answer by reading the whole
 * group's or the reader's rows first. SQLite asks it per row anyway (and has no OFFSET without LIMIT).
 */
function lookupPerRow<Q extends { offset: (offset: RawBuilder<number>) => Q }>(db: Executor, query: Q): Q {
  return dialectOf(db) === 'postgres' ? query.offset(sql.lit(0)) : query;
}

/** Posts an account the viewer follows passed on (a followed community's announces), by their index. */
function sharedByFollowed(userId: string) {
  return (eb: ExpressionBuilder<Database, 'posts'>) =>
    eb('posts.id', 'in', eb.selectFrom('post_shares').select('post_shares.post_id').where('post_shares.sharer_id', 'in', (inner) =>
      inner.selectFrom('follows').select('follows.following_id').where('follows.follower_id', '=', userId)));
}

/** Posts in the groups the user belongs to. */
function inMemberGroups(userId: string) {
  return (eb: ExpressionBuilder<Database, 'posts'>) =>
    eb('posts.id', 'in', eb
      .selectFrom('post_groups')
      .innerJoin('group_members', 'group_members.group_id', 'post_groups.group_id')
      .select('post_groups.post_id')
      .where('group_members.user_id', '=', userId));
}

/** The same asked of one post read in a walk: a lookup of its groups among the user's. */
function inMemberGroupAsked(db: Executor, userId: string) {
  return (eb: ExpressionBuilder<Database, 'posts'>) =>
    eb.exists(lookupPerRow(db, eb
      .selectFrom('post_groups as home_pg')
      .innerJoin('group_members as home_m', (join) => join.onRef('home_m.group_id', '=', 'home_pg.group_id').on('home_m.user_id', '=', userId))
      .select(sql<number>`1`.as('one'))
      .whereRef('home_pg.post_id', '=', 'posts.id')));
}

type PostCondition = ReturnType<typeof sharedByFollowed>;
/** One source's page of a merged listing: the rows it orders by, as many as the merged page may take. */
type SourcePage = SelectQueryBuilder<Database, 'posts', { id: string; created_at: number; likes: number }>;

/** The page of the posts meeting a condition, by the condition's own plan. */
function conditionPage(db: Executor, params: ListPostIdsParams, condition: PostCondition): SourcePage {
  const candidates = inWindow(hiddenLeftOut(db.selectFrom('posts').select(['posts.id', 'posts.created_at', 'posts.likes']).where(postVisibleTo(params.viewerId)), params).where(condition), params);
  return db.selectFrom(inListingOrder(candidates, params, 'posts').limit(params.offset + params.fetch).as('page')).selectAll() as unknown as SourcePage;
}

/**
 * The page of the posts of the user's groups. On PostgreSQL, newest first, each group's own page is
 * walked on its index in date order (a lateral join): a few rows a group, however many posts its
 * groups hold, where gathering the groups' posts first led the planner to read every post. A post in
 * two of the groups comes once from each, and the merge keeps one. Elsewhere (SQLite has no lateral
 * join, and sorts this page only when the candidates are few, see choosePlan), by their ids.
 */
function memberGroupsPage(db: Executor, params: ListPostIdsParams, userId: string): SourcePage {
  if (dialectOf(db) !== 'postgres' || params.sort !== 'newest') return conditionPage(db, params, inMemberGroups(userId));
  const direction = directionOf(params);
  return db
    .selectFrom('group_members as mine')
    .innerJoinLateral((eb) => {
      const rows = eb
        .selectFrom('post_groups as scope')
        .innerJoin('posts', 'posts.id', 'scope.post_id')
        // A post naming the group twice is one of its posts: its two rows are side by side in the walk.
        .distinctOn(['scope.created_at', 'scope.post_id'])
        .select(['posts.id', 'posts.created_at', 'posts.likes'])
        .whereRef('scope.group_id', '=', 'mine.group_id')
        .where(postVisibleTo(params.viewerId));
      return inWindow(hiddenLeftOut(rows, params), params, 'scope.created_at')
        .orderBy('scope.created_at', direction)
        .orderBy('scope.post_id', direction)
        .limit(params.offset + params.fetch)
        .as('grouped');
    }, (join) => join.onTrue())
    .select(['grouped.id', 'grouped.created_at', 'grouped.likes'])
    .where('mine.user_id', '=', userId) as unknown as SourcePage;
}

/**
 * The following feed of someone who follows a community, or with their groups' posts: the page of
 * the followed authors' posts and the page of each other source, each read by its own plan, merged
 * (a post in several once). One OR of the conditions would cost PostgreSQL its semi-join on the
 * followed authors: it would walk every post newest first to find a few authors' posts.
 */
function followingMerged(db: Executor, params: ListPostIdsParams, pages: SourcePage[]): PostIdsQuery {
  const [first, ...rest] = pages;
  const union = rest.reduce((all, next) => all.union(next), first!);
  const merged = db.selectFrom(union.as('merged')).select('merged.id');
  return inListingOrder(merged, params, 'merged').limit(params.fetch).offset(params.offset) as unknown as PostIdsQuery;
}

/** A listing's order, total (ties broken by id) so offset pages of one snapshot never repeat a post. */
function inListingOrder<Q extends { orderBy: (...args: any[]) => Q }>(query: Q, params: Pick<ListPostIdsParams, 'sort' | 'keys'>, table: 'posts' | 'merged'): Q {
  const q = params.sort === 'popular' ? query.orderBy(`${table}.likes`, 'desc') : query;
  const direction = directionOf(params);
  return q.orderBy(`${table}.created_at`, direction).orderBy(`${table}.id`, direction);
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


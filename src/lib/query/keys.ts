import type { QueryKey } from '@tanstack/react-query';
import type { Sort, TimeWindow } from '#core/listing';

/**
 * Every TanStack Query key of the web app. Each key is `[what, dbName, ...]`: the account's
 * database name sits second in all of them, so an answer fetched for one account is never served
 * from the in-memory cache to the next one logging in on the same tab, and a prefix such as
 * `queryKeys.feeds(dbName)` reaches only the current account's queries. A new cached thing gets a
 * function here; no component writes a key by hand.
 */
export const queryKeys = {
  // Listings stored page by page (the paging engine appends the page number).
  /** Every listing of posts. */
  feeds: (dbName: string) => ['feed', dbName] as const,
  /** Every listing of posts from one source (all its sorts and times), e.g. a group's posts. */
  feedsOf: (dbName: string, source: string) => ['feed', dbName, source] as const,
  feed: (dbName: string, source: string, key: string) => ['feed', dbName, source, key] as const,
  /** Every level of every comment thread. */
  threads: (dbName: string) => ['comments', dbName] as const,
  thread: (dbName: string, key: string) => ['comments', dbName, key] as const,
  notifications: (dbName: string) => ['notifications', dbName] as const,
  list: (dbName: string, list: ListKey) => ['list', dbName, ...list] as const,
  /** A group's member lists: members, banned and the owner's hand-over search. */
  groupUsers: (dbName: string, name: string) => ['list', dbName, 'group-users', name] as const,

  // Single things.
  post: (dbName: string, id: string | null | undefined) => ['post', dbName, id] as const,
  /** Whether the post was deleted here and the server has not shown it back (set by the delete, never fetched). */
  postDeletedHere: (dbName: string, id: string | null | undefined) => ['post-deleted-here', dbName, id] as const,
  commentTrees: (dbName: string) => ['comment-tree', dbName] as const,
  commentTree: (dbName: string, id: string | null) => ['comment-tree', dbName, id] as const,
  profile: (dbName: string, username: string) => ['profile', dbName, username] as const,
  group: (dbName: string, name: string) => ['group', dbName, name] as const,
  /** Under the group's key, so whatever reloads the group reloads its pinned post too. */
  groupPinned: (dbName: string, name: string) => ['group', dbName, name, 'pinned'] as const,
  postGroups: (dbName: string, id: string | null) => ['post-groups', dbName, id] as const,
  /** A post's earlier versions as of its last edit (a newer edit asks again). */
  postHistory: (dbName: string, id: string, editedAt: number | null) => ['post-history', dbName, id, editedAt] as const,
  account: (dbName: string) => ['account', dbName] as const,
  /** Every moderation queue and log, of every scope (listKeys.moderation): what an action may have changed. */
  moderationAll: (dbName: string) => ['list', dbName, 'moderation'] as const,
  notificationSettings: (dbName: string) => ['notification-settings', dbName] as const,
  passkeys: (dbName: string) => ['passkeys', dbName] as const,
  /** The apps the account let in (kept in the meta table). */
  authorizedApps: (dbName: string) => ['authorized-apps', dbName] as const,
  /** What an app asks of the account on the consent screen (its request's query). */
  oauthPrompt: (dbName: string, request: string) => ['oauth-prompt', dbName, request] as const,
  /** The caller's block and mute of a user (kept in the meta table). */
  blockState: (dbName: string, userId: string) => ['block-state', dbName, userId] as const,
  publicConfig: (dbName: string) => ['public-config', dbName] as const,
  /** How new accounts come in (the registration mode; kept in the meta table). */
  registration: (dbName: string) => ['registration', dbName] as const,
  /** What the instance says about itself (kept in the meta table). */
  instance: (dbName: string) => ['instance', dbName] as const,
  /** The current name of a user or group in the search history (a text entry is its own name). */
  historyName: (dbName: string, type: string, idOrText: string) => ['history-name', dbName, type, idOrText] as const,
  gifCategories: (dbName: string, locale: string) => ['gifs', dbName, 'categories', locale] as const,
  /** Accounts to follow or groups to join, offered on an empty following or groups feed. */
  suggestions: (dbName: string, kind: 'users' | 'groups') => ['suggestions', dbName, kind] as const,
} satisfies Record<string, (dbName: string, ...rest: never[]) => QueryKey>;

/** A list of usePagedList, named without the database: its query key and its stored key come from it. */
export type ListKey = readonly [kind: string, ...parts: Array<string | number>];

/** The lists kept item by item in the listItems table. */
export const listKeys = {
  profileReplies: (userId: string, sort: Sort, time: TimeWindow): ListKey => ['profile-replies', userId, sort, time],
  profileUsers: (username: string, which: 'followers' | 'following'): ListKey => ['profile-users', username, which],
  profileGroups: (username: string): ListKey => ['profile-groups', username],
  /** The strip of the user's groups over the groups feed (its own page size). */
  groupStrip: (username: string): ListKey => ['group-strip', username],
  /** The caller's blocked users, muted users and muted hashtags. */
  safety: (which: 'blocked' | 'muted' | 'tags'): ListKey => ['safety', which],
  // Under one prefix, so queryKeys.groupUsers reaches all of a group's member lists.
  groupUsers: (name: string, which: GroupUsersShown): ListKey => ['group-users', name, which],
  transferCandidates: (name: string, query: string): ListKey => ['group-users', name, 'members', 'transfer', query],
  // Under one prefix, so queryKeys.moderationAll reaches every queue and log.
  /**
   * A moderation queue or log: 'all' for the instance moderators', `group:<name>` for a group's; and
   * the instance moderators' blocked domains and sign-ups waiting for approval ('domains' and
   * 'applications', 'all'), the caller's own invite links ('invites', 'own'), and the moderators'
   * list of accounts ('people', its standing and search text).
   */
  moderation: (what: 'reports' | 'log' | 'domains' | 'applications' | 'invites' | 'people', scope: string): ListKey => ['moderation', what, scope],
  /** Trending GIFs (term null) or the results of a search. */
  gifResults: (term: string | null, locale: string): ListKey => ['gifs', term === null ? 'featured' : 'search', term ?? '', locale],
  search: (kind: string, size: number, query: string, listing: { sort?: Sort; time?: TimeWindow }): ListKey => [
    'search',
    kind,
    size,
    query,
    listing.sort ?? '',
    listing.time ?? '',
  ],
};

/** The key a list's pages are stored under in feedPages (beside the feeds' and threads' keys). */
export const storedListKey = (list: ListKey): string => `list:${JSON.stringify(list)}`;

const sameName = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * Whether a query of this account is about a group: its page or one of its member lists. Names
 * are compared without case, as the server compares them (a post's groups may be spelt otherwise
 * than the address of the group's page).
 */
/** The lists of a group's users: its members, the banned, those asking to join. */
export type GroupUsersShown = 'members' | 'banned' | 'requests';

export function isGroupQuery(queryKey: QueryKey, dbName: string, name: string): boolean {
  const [what, db, first, second] = queryKey;
  if (db !== dbName) return false;
  if (what === 'group') return sameName(first, name);
  return what === 'list' && first === 'group-users' && sameName(second, name);
}

import { describe, expect, it } from 'vitest';
import { isGroupQuery, listKeys, queryKeys, storedListKey } from './keys';

const A = 'kruh-aaaa';
const B = 'kruh-bbbb';

// Sample arguments after the database name, one set per key; a new key without one fails below.
const samples: Record<keyof typeof queryKeys, unknown[]> = {
  feeds: [],
  feedsOf: ['group:cats'],
  feed: ['group:cats', 'group:cats|sort=newest|time=all'],
  threads: [],
  thread: ['comments:p1|sort=popular|time=all|pinned='],
  notifications: [],
  list: [listKeys.profileUsers('bob', 'followers')],
  groupUsers: ['cats'],
  post: ['p1'],
  postDeletedHere: ['p1'],
  commentTrees: [],
  commentTree: ['c1'],
  profile: ['bob'],
  group: ['cats'],
  groupPinned: ['cats'],
  postGroups: ['p1'],
  postHistory: ['p1', 1],
  account: [],
  moderationAll: [],
  notificationSettings: [],
  passkeys: [],
  authorizedApps: [],
  oauthPrompt: ['?client_id=a'],
  blockState: ['u1'],
  publicConfig: [],
  registration: [],
  instance: [],
  historyName: ['user', 'u1'],
  gifCategories: ['en'],
  suggestions: ['users'],
};

const keyOf = (name: keyof typeof queryKeys, dbName: string) =>
  (queryKeys[name] as (dbName: string, ...rest: unknown[]) => readonly unknown[])(dbName, ...samples[name]);

describe('query keys', () => {
  const names = Object.keys(queryKeys) as Array<keyof typeof queryKeys>;

  it('carry the account database second, so two accounts never share a cached answer', () => {
    expect(names.sort()).toEqual(Object.keys(samples).sort());
    for (const name of names) {
      const a = keyOf(name, A);
      const b = keyOf(name, B);
      expect(a[1], name).toBe(A);
      expect(b[1], name).toBe(B);
      expect(a, name).not.toEqual(b);
    }
  });

  it('reach only the same account through a prefix', () => {
    const feedOfA = keyOf('feed', A);
    const prefixOfB = queryKeys.feeds(B);
    expect(feedOfA.slice(0, prefixOfB.length)).not.toEqual(prefixOfB);
    expect(feedOfA.slice(0, queryKeys.feeds(A).length)).toEqual(queryKeys.feeds(A));
    expect(queryKeys.list(A, listKeys.groupUsers('cats', 'banned')).slice(0, 4)).toEqual(queryKeys.groupUsers(A, 'cats'));
    expect(queryKeys.list(A, listKeys.transferCandidates('cats', 'ann')).slice(0, 4)).toEqual(queryKeys.groupUsers(A, 'cats'));
    expect(queryKeys.list(A, listKeys.moderation('log', 'group:cats')).slice(0, 3)).toEqual(queryKeys.moderationAll(A));
    expect(queryKeys.list(A, listKeys.moderation('reports', 'all')).slice(0, 3)).toEqual(queryKeys.moderationAll(A));
  });

  it('finds a group’s page and member lists by name without case, in the same account only', () => {
    expect(isGroupQuery(queryKeys.group(A, 'Cats'), A, 'cats')).toBe(true);
    expect(isGroupQuery(queryKeys.groupPinned(A, 'Cats'), A, 'cats')).toBe(true);
    expect(isGroupQuery([...queryKeys.list(A, listKeys.groupUsers('CATS', 'members')), 1], A, 'cats')).toBe(true);
    expect(isGroupQuery(queryKeys.group(B, 'cats'), A, 'cats')).toBe(false);
    expect(isGroupQuery(queryKeys.group(A, 'dogs'), A, 'cats')).toBe(false);
    expect(isGroupQuery(queryKeys.list(A, listKeys.profileGroups('cats')), A, 'cats')).toBe(false);
  });

  it('stores each list under its own key, apart from the feeds and threads', () => {
    const followers = storedListKey(listKeys.profileUsers('bob', 'followers'));
    expect(followers).not.toBe(storedListKey(listKeys.profileUsers('bob', 'following')));
    expect(followers.startsWith('list:')).toBe(true);
    // A name holding the separator of another part does not make two lists one.
    expect(storedListKey(listKeys.search('users', 3, 'a","b', {}))).not.toBe(storedListKey(listKeys.search('users', 3, 'a', { sort: 'b' as never })));
  });
});

import { Type } from '@sinclair/typebox';
import { PathText, listingEntry } from './common.js';
import { endpoint } from './endpoint.js';
import { PostList } from './posts.js';

/**
 * The shape of every list of posts, wherever its route lives (the feed tabs, a hashtag, a
 * profile, a group, search): it takes the listing query and answers a page of posts with
 * whether more follow, each list filtered by what the caller may see.
 */
export const postListEntry = listingEntry(PostList);

export const feedsApi = {
  explore: endpoint({
    method: 'GET',
    path: '/feed',
    summary: 'Every post the caller may see, newest or most liked',
    ...postListEntry,
    errors: [],
  }),
  following: endpoint({
    method: 'GET',
    path: '/feed/following',
    summary: 'Posts of the people the caller follows',
    ...postListEntry,
    errors: [],
  }),
  groups: endpoint({
    method: 'GET',
    path: '/feed/groups',
    summary: "Posts of the caller's groups",
    ...postListEntry,
    errors: [],
  }),
  hashtag: endpoint({
    method: 'GET',
    path: '/feed/hash/:hashtag',
    summary: 'Posts carrying a hashtag',
    params: Type.Object({ hashtag: PathText }),
    ...postListEntry,
    errors: [],
  }),
} as const;

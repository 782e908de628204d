import { type Static, Type } from '@sinclair/typebox';
import { CommentList } from './comments.js';
import { GroupListReply, NO_GROUP, UserListReply, listingEntry, pageEntry } from './common.js';
import { endpoint } from './endpoint.js';
import { postListEntry } from './feeds.js';

/** The typed text of a suggestion box; blank text suggests nothing. */
export const SuggestionQuery = Type.Object({ query: Type.Optional(Type.String({ maxLength: 200 })) });
export type SuggestionQuery = Static<typeof SuggestionQuery>;

/**
 * A suggestion: a user (name is the username) or one of the caller's groups, as _id and name; in
 * group slots also a community of another server the caller follows (its account's _id, name
 * `name@host`), which a post may go into as into a group.
 */
export const NameResult = Type.Object({ _id: Type.String(), name: Type.String() });
export type NameResult = Static<typeof NameResult>;

export const NameResults = Type.Array(NameResult);

/** The search calls of the API (see endpoint.ts for how an entry is read). */
export const searchApi = {
  suggestUsers: endpoint({
    method: 'GET',
    path: '/search/users',
    summary: 'Users whose names match the typed text (the search box and mention slots)',
    query: SuggestionQuery,
    replies: { 200: NameResults },
    errors: [],
  }),
  suggestMyGroups: endpoint({
    method: 'GET',
    path: '/search/mygroups',
    summary: "The caller's groups matching the typed text that they may post in, then the communities of other servers they follow (the composer's group slots)",
    query: SuggestionQuery,
    replies: { 200: NameResults },
    errors: [],
  }),
  users: endpoint({
    method: 'GET',
    path: '/search/for/users',
    summary: 'Users matching `query`, page by page',
    description: NO_GROUP,
    ...pageEntry(UserListReply),
    errors: [],
  }),
  groups: endpoint({
    method: 'GET',
    path: '/search/for/groups',
    summary: 'Groups matching `query`, page by page (group names are public, so private groups too)',
    ...pageEntry(GroupListReply),
    errors: [],
  }),
  posts: endpoint({
    method: 'GET',
    path: '/search/for/posts',
    summary: 'Posts matching the words of `query`',
    ...postListEntry,
    errors: [],
  }),
  replies: endpoint({
    method: 'GET',
    path: '/search/for/replies',
    summary: 'Comments matching `query` on posts the caller may see',
    ...listingEntry(CommentList),
    errors: [],
  }),
} as const;

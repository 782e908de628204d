import { Type } from '@sinclair/typebox';
import {
  Account,
  Context,
  CustomEmoji,
  ExtendedDescription,
  Markers,
  Preferences,
  Relationship,
  Status,
  Suggestion,
  Tag,
} from './client-entities.js';
import { endpoint } from './endpoint.js';

/**
 * What fediverse apps read through the client API: accounts, statuses, timelines, and the calls
 * they make as they start. Lists page by ids (`max_id`, `since_id`, `min_id`, `limit`), with the
 * next and previous pages in the `Link` header.
 */

export const ClientId = Type.String({ minLength: 1, maxLength: 40 });
export const IdParams = Type.Object({ id: ClientId });

const PAGING_DESCRIPTION =
  'Pages by ids: `max_id` lists what is older than that status, `since_id` the newest after it, `min_id` the oldest after it; ' +
  '`limit` defaults to 20, at most 40. The `Link` header names the next (older) and previous (newer) pages.';

/** How every list pages; `limit` beyond the largest page is read as the largest page. */
export const ClientPageQuery = Type.Object({
  max_id: Type.Optional(ClientId),
  since_id: Type.Optional(ClientId),
  min_id: Type.Optional(ClientId),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
});

const StatusesQuery = Type.Composite([
  ClientPageQuery,
  Type.Object({
    pinned: Type.Optional(Type.Boolean()),
    exclude_replies: Type.Optional(Type.Boolean()),
    exclude_reblogs: Type.Optional(Type.Boolean()),
    only_media: Type.Optional(Type.Boolean()),
    tagged: Type.Optional(Type.String({ maxLength: 200 })),
  }),
]);

const PublicQuery = Type.Composite([
  ClientPageQuery,
  Type.Object({ local: Type.Optional(Type.Boolean()), remote: Type.Optional(Type.Boolean()), only_media: Type.Optional(Type.Boolean()) }),
]);

/** `id[]=...` (or `id=...`) once or many times. */
const RelationshipsQuery = Type.Object({
  id: Type.Optional(Type.Union([ClientId, Type.Array(ClientId, { maxItems: 40 })])),
  'id[]': Type.Optional(Type.Union([ClientId, Type.Array(ClientId, { maxItems: 40 })])),
});

const MarkersQuery = Type.Object({
  timeline: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 4 })])),
  'timeline[]': Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 4 })])),
});

/** A marker to keep: `home[last_read_id]` in a form, `{home: {last_read_id}}` in JSON. */
const MarkerChange = Type.Object({ last_read_id: ClientId });
export const MarkersBody = Type.Object({
  home: Type.Optional(MarkerChange),
  notifications: Type.Optional(MarkerChange),
  'home[last_read_id]': Type.Optional(ClientId),
  'notifications[last_read_id]': Type.Optional(ClientId),
});

const EmptyList = Type.Array(Type.Object({}), { maxItems: 0 });

const read = <const P extends string>(path: P, summary: string) => ({ method: 'GET' as const, path, summary, errors: [] as const });

export const clientReadsApi = {
  account: endpoint({
    method: 'GET',
    path: '/v1/accounts/:id',
    summary: 'An account for fediverse apps: a person (here or elsewhere) or a group (`group: true`, id `g` + the group id)',
    params: IdParams,
    replies: { 200: Account },
    errors: ['user_not_found'],
  }),
  lookup: endpoint({
    method: 'GET',
    path: '/v1/accounts/lookup',
    summary: 'The account of a username (`name`, or `name@host` for another server), or of a group by its name',
    query: Type.Object({ acct: Type.String({ minLength: 1, maxLength: 300 }) }),
    replies: { 200: Account },
    errors: ['user_not_found'],
  }),
  accountStatuses: endpoint({
    method: 'GET',
    path: '/v1/accounts/:id/statuses',
    summary: "An account's statuses, newest first: a person's posts and comments (each a reply), a group's posts (for members only when it is private)",
    description:
      `${PAGING_DESCRIPTION} \`pinned=true\` lists a group's pinned post (a person pins none); \`only_media\` only statuses with images; ` +
      "`exclude_replies` leaves a person's comments out; `tagged` lists a person's posts with that hashtag.",
    params: IdParams,
    query: StatusesQuery,
    replies: { 200: Type.Array(Status) },
    errors: ['user_not_found'],
  }),
  followers: endpoint({
    method: 'GET',
    path: '/v1/accounts/:id/followers',
    summary: "Who follows a person, newest first, none across a block (a group's members, for members only when it is private)",
    description: PAGING_DESCRIPTION,
    params: IdParams,
    query: ClientPageQuery,
    replies: { 200: Type.Array(Account) },
    errors: ['user_not_found'],
  }),
  following: endpoint({
    method: 'GET',
    path: '/v1/accounts/:id/following',
    summary: 'Whom a person follows, newest first (a group follows no one)',
    description: PAGING_DESCRIPTION,
    params: IdParams,
    query: ClientPageQuery,
    replies: { 200: Type.Array(Account) },
    errors: ['user_not_found'],
  }),
  relationships: endpoint({
    method: 'GET',
    path: '/v1/accounts/relationships',
    summary: "The caller's standing towards each account named by `id[]` (needs read:follows)",
    query: RelationshipsQuery,
    replies: { 200: Type.Array(Relationship) },
    errors: ['insufficient_scope'],
  }),
  status: endpoint({
    method: 'GET',
    path: '/v1/statuses/:id',
    summary: 'A post or a comment (id `c` + the comment id) as a status',
    params: IdParams,
    replies: { 200: Status },
    errors: ['didnt_find_post'],
  }),
  context: endpoint({
    method: 'GET',
    path: '/v1/statuses/:id/context',
    summary: "A status's thread: the post and comments it answers (ancestors) and the comments answering it (descendants)",
    params: IdParams,
    replies: { 200: Context },
    errors: ['didnt_find_post'],
  }),
  favouritedBy: endpoint({
    method: 'GET',
    path: '/v1/statuses/:id/favourited_by',
    summary: 'Who liked a post or a comment, latest first',
    description: PAGING_DESCRIPTION,
    params: IdParams,
    query: ClientPageQuery,
    replies: { 200: Type.Array(Account) },
    errors: ['didnt_find_post'],
  }),
  publicTimeline: endpoint({
    method: 'GET',
    path: '/v1/timelines/public',
    summary: 'Every post the caller may read, newest first (the explore feed): `local=true` only those written here, `remote=true` only those of other servers',
    description: PAGING_DESCRIPTION,
    query: PublicQuery,
    replies: { 200: Type.Array(Status) },
    errors: [],
  }),
  tagTimeline: endpoint({
    method: 'GET',
    path: '/v1/timelines/tag/:hashtag',
    summary: 'The posts with a hashtag, newest first',
    description: PAGING_DESCRIPTION,
    params: Type.Object({ hashtag: Type.String({ minLength: 1, maxLength: 200 }) }),
    query: PublicQuery,
    replies: { 200: Type.Array(Status) },
    errors: [],
  }),
  homeTimeline: endpoint({
    method: 'GET',
    path: '/v1/timelines/home',
    summary: "The caller's following feed with their groups' posts, newest first (needs read:statuses)",
    description: PAGING_DESCRIPTION,
    query: ClientPageQuery,
    replies: { 200: Type.Array(Status) },
    errors: ['insufficient_scope'],
  }),
  favourites: endpoint({
    method: 'GET',
    path: '/v1/favourites',
    summary: "The posts the caller liked, latest like first (needs read:favourites; a visitor's list is empty)",
    description: PAGING_DESCRIPTION,
    query: ClientPageQuery,
    replies: { 200: Type.Array(Status) },
    errors: ['insufficient_scope'],
  }),
  suggestions: endpoint({
    method: 'GET',
    path: '/v2/suggestions',
    summary: 'People to follow, as the app suggests them (a visitor gets none)',
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1 })) }),
    replies: { 200: Type.Array(Suggestion) },
    errors: [],
  }),
  extendedDescription: endpoint({
    method: 'GET',
    path: '/v1/instance/extended_description',
    summary: "The instance's about text, as HTML",
    replies: { 200: ExtendedDescription },
    errors: [],
  }),
  preferences: endpoint({
    method: 'GET',
    path: '/v1/preferences',
    summary: "The caller's defaults for posting and reading (needs read:accounts)",
    replies: { 200: Preferences },
    errors: ['insufficient_scope'],
  }),
  markers: endpoint({
    method: 'GET',
    path: '/v1/markers',
    summary: 'Where the caller stopped reading each timeline named by `timeline[]` (home, notifications) (needs read:statuses)',
    query: MarkersQuery,
    replies: { 200: Markers },
    errors: ['insufficient_scope'],
  }),
  saveMarkers: endpoint({
    method: 'POST',
    path: '/v1/markers',
    summary: 'Keeps where the caller stopped reading a timeline (needs write:statuses)',
    body: MarkersBody,
    replies: { 200: Markers },
    errors: ['insufficient_scope'],
  }),
  customEmojis: endpoint({ ...read('/v1/custom_emojis', 'Custom emojis: none here'), replies: { 200: Type.Array(CustomEmoji, { maxItems: 0 }) } }),
  filters: endpoint({ ...read('/v2/filters', "The caller's filters: none here"), replies: { 200: EmptyList } }),
  lists: endpoint({ ...read('/v1/lists', "The caller's lists: none here"), replies: { 200: EmptyList } }),
  followedTags: endpoint({ ...read('/v1/followed_tags', 'Followed hashtags: none here'), replies: { 200: Type.Array(Tag, { maxItems: 0 }) } }),
  trendingTags: endpoint({ ...read('/v1/trends/tags', 'Trending hashtags: none yet'), replies: { 200: Type.Array(Tag) } }),
  trendingStatuses: endpoint({ ...read('/v1/trends/statuses', 'Trending posts: the most liked public posts of the last days'), query: ClientPageQuery, replies: { 200: Type.Array(Status) } }),
  trendingLinks: endpoint({ ...read('/v1/trends/links', 'Trending links: none here'), replies: { 200: EmptyList } }),
  announcements: endpoint({ ...read('/v1/announcements', 'Announcements: none here'), replies: { 200: EmptyList } }),
  bookmarks: endpoint({ ...read('/v1/bookmarks', 'Bookmarks: none here'), replies: { 200: Type.Array(Status, { maxItems: 0 }) } }),
  conversations: endpoint({ ...read('/v1/conversations', 'Direct conversations: none here'), replies: { 200: EmptyList } }),
  domainBlocks: endpoint({ ...read('/v1/domain_blocks', "The caller's blocked domains: none here"), replies: { 200: Type.Array(Type.String(), { maxItems: 0 }) } }),
} as const;


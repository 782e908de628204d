import { type Static, Type } from '@sinclair/typebox';
import { Account, Status, Tag } from './client-entities.js';
import { endpoint } from './endpoint.js';

/**
 * Search as fediverse apps ask it: people and groups (as accounts), posts (as statuses) and
 * hashtags, by the same search as the web app's. Pages by `offset`.
 */

const Query = Type.String({ maxLength: 200 });
const Limit = Type.Integer({ minimum: 1, maximum: 1_000_000 });
/** Deep offsets cost a scan of everything before them: past this an app is asked to narrow its words. */
const Offset = Type.Integer({ minimum: 0, maximum: 10_000 });

export const SearchQuery = Type.Object({
  q: Query,
  type: Type.Optional(Type.Union([Type.Literal('accounts'), Type.Literal('statuses'), Type.Literal('hashtags')])),
  resolve: Type.Optional(Type.Boolean()),
  following: Type.Optional(Type.Boolean()),
  exclude_unreviewed: Type.Optional(Type.Boolean()),
  account_id: Type.Optional(Type.String({ maxLength: 40 })),
  max_id: Type.Optional(Type.String({ maxLength: 40 })),
  min_id: Type.Optional(Type.String({ maxLength: 40 })),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
});
export type SearchQuery = Static<typeof SearchQuery>;

export const AccountSearchQuery = Type.Object({
  q: Query,
  resolve: Type.Optional(Type.Boolean()),
  following: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Offset),
});
export type AccountSearchQuery = Static<typeof AccountSearchQuery>;

export const SearchResults = Type.Object({ accounts: Type.Array(Account), statuses: Type.Array(Status), hashtags: Type.Array(Tag) });
export type SearchResults = Static<typeof SearchResults>;

const SEARCH_DESCRIPTION =
  'Accounts are the people whose names match, then (on the first page) the groups; a `user@host` handle with `resolve=true` ' +
  'is looked up on its server for a signed-in caller, within the lookup rate limit. Statuses are posts matching the words ' +
  '(the page is `offset` divided by `limit`). Hashtags: the one typed, when a post the caller may read carries it. ' +
  '`limit` defaults to 20, at most 40.';

export const clientSearchApi = {
  search: endpoint({
    method: 'GET',
    path: '/v2/search',
    summary: 'Accounts, statuses and hashtags matching `q` (needs read:search when signed in)',
    description: SEARCH_DESCRIPTION,
    query: SearchQuery,
    replies: { 200: SearchResults },
    errors: ['insufficient_scope'],
  }),
  accountSearch: endpoint({
    method: 'GET',
    path: '/v1/accounts/search',
    summary: 'Accounts matching `q`, as the accounts of /v2/search (needs read:accounts when signed in)',
    query: AccountSearchQuery,
    replies: { 200: Type.Array(Account) },
    errors: ['insufficient_scope'],
  }),
} as const;

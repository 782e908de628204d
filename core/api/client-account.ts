import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from './common.js';
import { endpoint } from './endpoint.js';

/**
 * The signed-in account as the client API answers it to its own apps: the Account entity (field
 * names and types as fediverse apps read them) with `source`, what its owner may edit.
 */

export const CredentialSource = Type.Object({
  privacy: Type.String(),
  sensitive: Type.Boolean(),
  language: Type.String(),
  /** The bio as typed, not as HTML. */
  note: Type.String(),
  fields: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
  follow_requests_count: Type.Integer(),
});

export const CredentialAccount = Type.Object({
  id: Type.String(),
  username: Type.String(),
  acct: Type.String(),
  url: Type.String(),
  uri: Type.String(),
  display_name: Type.String(),
  note: Type.String(),
  avatar: Type.String(),
  avatar_static: Type.String(),
  header: Type.String(),
  header_static: Type.String(),
  locked: Type.Boolean(),
  fields: Type.Array(Type.Object({ name: Type.String(), value: Type.String(), verified_at: Nullable(Type.String()) })),
  emojis: Type.Array(Type.Object({ shortcode: Type.String(), url: Type.String(), static_url: Type.String(), visible_in_picker: Type.Boolean() })),
  bot: Type.Boolean(),
  group: Type.Boolean(),
  discoverable: Type.Union([Type.Boolean(), Type.Null()]),
  indexable: Type.Boolean(),
  hide_collections: Type.Boolean(),
  created_at: Type.String(),
  last_status_at: Nullable(Type.String()),
  statuses_count: Type.Integer(),
  followers_count: Type.Integer(),
  following_count: Type.Integer(),
  source: CredentialSource,
});
export type CredentialAccount = Static<typeof CredentialAccount>;

export const clientAccountApi = {
  verifyCredentials: endpoint({
    method: 'GET',
    path: '/v1/accounts/verify_credentials',
    summary: "The account an app's token acts for, with what its owner may edit (needs profile, read or read:accounts)",
    replies: { 200: CredentialAccount },
    errors: ['insufficient_scope'],
  }),
} as const;

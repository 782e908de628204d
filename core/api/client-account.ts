import { type Static, Type } from '@sinclair/typebox';
import { Account } from './client-entities.js';
import { USERNAME_ERRORS } from './auth.js';
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

export const CredentialAccount = Type.Composite([Account, Type.Object({ source: CredentialSource })]);
export type CredentialAccount = Static<typeof CredentialAccount>;

export const clientAccountApi = {
  verifyCredentials: endpoint({
    method: 'GET',
    path: '/v1/accounts/verify_credentials',
    summary: "The account an app's token acts for, with what its owner may edit (needs profile, read or read:accounts)",
    replies: { 200: CredentialAccount },
    errors: ['insufficient_scope'],
  }),
  updateCredentials: endpoint({
    method: 'PATCH',
    path: '/v1/accounts/update_credentials',
    summary: "Changes the signed-in account: its name, bio, avatar and discoverability; answers it as verify_credentials does (needs write:accounts)",
    description:
      'JSON, a form, or a multipart form carrying the `avatar` image file. `display_name` is the username here (the same rules, ' +
      'and a name another account holds is taken); `note` is the bio; `discoverable` and `indexable` are true or false. ' +
      '`header`, `locked`, `bot`, `fields_attributes` and `source[...]` are accepted and left as they are (Kruh has none of them). ' +
      'A value Kruh refuses answers 422.',
    replies: { 200: CredentialAccount },
    errors: ['insufficient_scope', ...USERNAME_ERRORS, 'username_taken', 'max_bio_length', 'max_bio_lines', 'only_images', 'image_too_large'],
  }),
} as const;

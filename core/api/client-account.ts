import { type Static, Type } from '@sinclair/typebox';
import { Account } from './client-entities.js';
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
} as const;

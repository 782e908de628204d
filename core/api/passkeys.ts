import { type Static, Type } from '@sinclair/typebox';
import { IdParams, MessageReplies } from './common.js';
import { Session } from './auth.js';
import { endpoint } from './endpoint.js';

/*
 * Passkeys: adding one to the signed-in account, listing and removing them, and signing in with
 * one. The browser's WebAuthn options and answers travel as the JSON the WebAuthn libraries on
 * both sides read; the schemas name their main fields and let the rest through unchanged, since
 * browsers add fields of their own.
 */

const Open = { additionalProperties: true } as const;
const Base64Url = Type.String({ maxLength: 16384 });

const CredentialDescriptor = Type.Object(
  { id: Type.String(), type: Type.String(), transports: Type.Optional(Type.Array(Type.String())) },
  Open,
);

/** What `navigator.credentials.create` is asked to do, as JSON. */
export const CreationOptions = Type.Object(
  {
    rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }, Open),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }, Open),
    challenge: Type.String(),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Number(), type: Type.String() }, Open)),
    timeout: Type.Optional(Type.Number()),
    excludeCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
    authenticatorSelection: Type.Optional(
      Type.Object(
        {
          authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
          requireResidentKey: Type.Optional(Type.Boolean()),
          residentKey: Type.Optional(Type.Union([Type.Literal('discouraged'), Type.Literal('preferred'), Type.Literal('required')])),
          userVerification: Type.Optional(Type.Union([Type.Literal('discouraged'), Type.Literal('preferred'), Type.Literal('required')])),
        },
        Open,
      ),
    ),
    attestation: Type.Optional(Type.Union([Type.Literal('direct'), Type.Literal('enterprise'), Type.Literal('indirect'), Type.Literal('none')])),
    extensions: Type.Optional(Type.Object({}, Open)),
  },
  Open,
);

/** What `navigator.credentials.get` is asked to do, as JSON. */
export const RequestOptions = Type.Object(
  {
    challenge: Type.String(),
    timeout: Type.Optional(Type.Number()),
    rpId: Type.Optional(Type.String()),
    allowCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
    userVerification: Type.Optional(Type.Union([Type.Literal('discouraged'), Type.Literal('preferred'), Type.Literal('required')])),
    extensions: Type.Optional(Type.Object({}, Open)),
  },
  Open,
);

/** Options with the id of the stored challenge they carry, which the answer names. */
export const RegistrationOptionsReply = Type.Object({ challengeId: Type.String(), options: CreationOptions });
export type RegistrationOptionsReply = Static<typeof RegistrationOptionsReply>;
export const AuthenticationOptionsReply = Type.Object({ challengeId: Type.String(), options: RequestOptions });
export type AuthenticationOptionsReply = Static<typeof AuthenticationOptionsReply>;

const CredentialFields = {
  id: Base64Url,
  rawId: Base64Url,
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Type.String()),
  clientExtensionResults: Type.Object({}, Open),
};

/** The browser's answer to the creation options. */
export const RegistrationResponse = Type.Object(
  {
    ...CredentialFields,
    response: Type.Object(
      {
        clientDataJSON: Base64Url,
        attestationObject: Base64Url,
        transports: Type.Optional(Type.Array(Type.String())),
      },
      Open,
    ),
  },
  Open,
);

/** The browser's answer to the request options. */
export const AuthenticationResponse = Type.Object(
  {
    ...CredentialFields,
    response: Type.Object(
      {
        clientDataJSON: Base64Url,
        authenticatorData: Base64Url,
        signature: Base64Url,
        userHandle: Type.Optional(Base64Url),
      },
      Open,
    ),
  },
  Open,
);

export const RegisterBody = Type.Object({
  challengeId: Type.String({ maxLength: 64 }),
  response: RegistrationResponse,
  /** A name to tell this passkey from the account's others ("Phone", "Laptop"), at most LIMITS.passkeyNameMax once trimmed. */
  name: Type.Optional(Type.String()),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const PasskeyLoginBody = Type.Object({
  challengeId: Type.String({ maxLength: 64 }),
  response: AuthenticationResponse,
});
export type PasskeyLoginBody = Static<typeof PasskeyLoginBody>;

/** A passkey as its owner sees it; times are epoch milliseconds. */
export const PasskeyItem = Type.Object({
  _id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Number(),
  lastUsedAt: Type.Union([Type.Number(), Type.Null()]),
});
export type PasskeyItem = Static<typeof PasskeyItem>;

export const PasskeyListReply = Type.Object({ passkeys: Type.Array(PasskeyItem) });
export type PasskeyListReply = Static<typeof PasskeyListReply>;

/** The passkey calls of the API (see endpoint.ts for how an entry is read). */
export const passkeysApi = {
  registrationOptions: endpoint({
    method: 'POST',
    path: '/passkeys/register/options',
    summary: 'Start adding a passkey to the account: WebAuthn creation options and their challenge id',
    description:
      "The account's passkeys are excluded, so an authenticator holding one is not asked again. The challenge lasts five minutes; " +
      'an account may ask for a limited number an hour (passkey_limit).',
    replies: { 200: RegistrationOptionsReply },
    errors: ['passkey_limit'],
  }),
  register: endpoint({
    method: 'POST',
    path: '/passkeys/register',
    summary: "Add a passkey from the browser's answer to the creation options",
    body: RegisterBody,
    replies: { 201: PasskeyItem },
    invalidKey: 'passkey_failed',
    errors: ['passkey_failed', 'passkey_expired'],
  }),
  list: endpoint({
    method: 'GET',
    path: '/passkeys',
    summary: "The account's passkeys, newest first",
    replies: { 200: PasskeyListReply },
    errors: [],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/passkeys/:id',
    summary: 'Remove one of the caller\'s passkeys',
    params: IdParams,
    replies: MessageReplies,
    invalidKey: 'passkey_not_found',
    errors: ['passkey_not_found'],
  }),
  loginOptions: endpoint({
    method: 'POST',
    path: '/auth/passkey/options',
    summary: 'Start signing in with a passkey: WebAuthn request options and their challenge id',
    description:
      'No credentials are listed: the authenticator offers the passkeys it holds for this site. The challenge lasts five minutes; ' +
      'one address may ask for a limited number an hour (passkey_limit).',
    replies: { 200: AuthenticationOptionsReply },
    errors: ['passkey_limit'],
  }),
  login: endpoint({
    method: 'POST',
    path: '/auth/passkey',
    summary: 'Sign in with a passkey, answering a session as the password login does',
    body: PasskeyLoginBody,
    replies: { 200: Session },
    invalidKey: 'passkey_failed',
    errors: ['passkey_failed', 'passkey_expired', 'passkey_not_found', 'verify_email', 'account_suspended'],
  }),
} as const;

import { type Static, Type } from '@sinclair/typebox';
import { IdParams, MessageReplies, listOf } from './common.js';
import { endpoint, plainEntry } from './endpoint.js';
import { RegistrationOptionsReply, RegistrationResponse, passkeyAnswerEntry } from './webauthn.js';

/*
 * Passkeys: adding one to the signed-in account, listing and removing them. Signing in with one
 * is an auth call (POST /auth/passkey). The WebAuthn options and answers are in webauthn.ts.
 */

export const RegisterBody = Type.Object({
  challengeId: Type.String({ maxLength: 64 }),
  response: RegistrationResponse,
  /** A name to tell this passkey from the account's others ("Phone", "Laptop"), at most LIMITS.passkeyNameMax once trimmed. */
  name: Type.Optional(Type.String()),
});
export type RegisterBody = Static<typeof RegisterBody>;

/** A passkey as its owner sees it; times are epoch milliseconds. */
export const PasskeyItem = Type.Object({
  _id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Number(),
  lastUsedAt: Type.Union([Type.Number(), Type.Null()]),
});
export type PasskeyItem = Static<typeof PasskeyItem>;

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
    ...passkeyAnswerEntry,
  }),
  list: plainEntry('GET', '/passkeys', "The account's passkeys, newest first", listOf('passkeys', PasskeyItem)),
  remove: endpoint({
    method: 'DELETE',
    path: '/passkeys/:id',
    summary: 'Remove one of the caller\'s passkeys',
    params: IdParams,
    replies: MessageReplies,
    invalidKey: 'passkey_not_found',
    errors: ['passkey_not_found'],
  }),
} as const;

import { type Static, Type } from '@sinclair/typebox';

/*
 * The browser's WebAuthn options and answers, as the JSON the WebAuthn libraries on both sides
 * read. Adding a passkey (the passkeys calls) and signing in with one (the auth calls) both carry
 * them. The schemas name their main fields and let the rest through unchanged, since browsers add
 * fields of their own.
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

/**
 * A call carrying the browser's answer to a challenge (adding a passkey, signing in with one): refused
 * when the answer does not verify, or its challenge has expired or was used.
 */
export const passkeyAnswerEntry = { invalidKey: 'passkey_failed', errors: ['passkey_failed', 'passkey_expired'] } as const;

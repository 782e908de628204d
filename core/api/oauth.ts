import { type Static, Type } from '@sinclair/typebox';
import { AppProperties } from './client.js';
import { Id, MessageReplies, Nullable, fieldsOf } from './common.js';
import { endpoint } from './endpoint.js';

/**
 * Signing fediverse apps in (OAuth 2 with the authorization code and PKCE): the calls of Kruh's own
 * API behind the consent screen and the account's list of authorised apps, and the endpoints apps
 * call themselves at the root (`/oauth/token`, `/oauth/revoke`, the server's metadata), which answer
 * as OAuth clients read them.
 */

/** What an app asks for, as its authorisation address carries it (the query of /oauth/authorize). */
export const AuthorizationRequest = Type.Object({
  client_id: Type.String({ maxLength: 200 }),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2000 })),
  scope: Type.Optional(Type.String({ maxLength: 2000 })),
  response_type: Type.Optional(Type.String({ maxLength: 50 })),
  code_challenge: Type.Optional(Type.String({ maxLength: 200 })),
  code_challenge_method: Type.Optional(Type.String({ maxLength: 20 })),
});
export type AuthorizationRequest = Static<typeof AuthorizationRequest>;

/** The consent screen's subject: the app, the scopes it asks for and where the answer goes. */
export const AuthorizationPrompt = Type.Object({
  app: Type.Object({ name: Type.String(), website: Nullable(Type.String()) }),
  scopes: Type.Array(Type.String()),
  redirectUri: Type.String(),
  /** The app shows no page of its own to come back to: the code is shown for the user to copy. */
  outOfBand: Type.Boolean(),
});
export type AuthorizationPrompt = Static<typeof AuthorizationPrompt>;

/** The person's answer to the request: approved or denied, with the app's `state` to hand back. */
export const AuthorizationDecision = Type.Composite([
  AuthorizationRequest,
  Type.Object({ state: Type.Optional(Type.String({ maxLength: 2000 })), approve: Type.Boolean() }),
]);
export type AuthorizationDecision = Static<typeof AuthorizationDecision>;

/** Where the browser goes next (the app's address with the code or the refusal), or the code to copy. */
export const AuthorizationOutcome = Type.Object({ redirect: Nullable(Type.String()), code: Nullable(Type.String()) });
export type AuthorizationOutcome = Static<typeof AuthorizationOutcome>;

/** An app the account has let in: what it may do, when it was let in and when it last called. */
export const AuthorizedApp = Type.Object({
  ...AppProperties,
  authorizedAt: Type.Integer(),
  lastUsedAt: Nullable(Type.Integer()),
});
export type AuthorizedApp = Static<typeof AuthorizedApp>;
export const AuthorizedApps = Type.Object({ apps: Type.Array(AuthorizedApp) });
export type AuthorizedApps = Static<typeof AuthorizedApps>;

/** Refusals of the consent calls: the request itself is wrong, so nothing may go back to the app. */
const REQUEST_ERRORS = ['unknown_app', 'redirect_not_registered', 'invalid_scope', 'response_type_unsupported', 'pkce_method_unsupported', 'oauth_request_invalid'] as const;
/** How the consent calls refuse: a request the schema refuses is an invalid request too. */
const consentRefusals = { errors: REQUEST_ERRORS, invalidKey: 'oauth_request_invalid' } as const;

export const oauthApi = {
  prompt: endpoint({
    method: 'GET',
    path: '/oauth/authorize',
    summary: 'What a fediverse app asks of the signed-in account: the app, its scopes and where the answer goes',
    query: AuthorizationRequest,
    replies: { 200: AuthorizationPrompt },
    ...consentRefusals,
  }),
  decide: endpoint({
    method: 'POST',
    path: '/oauth/authorize',
    summary: "Approves or denies a fediverse app's request: answers the app's address to go to, or the code to copy",
    description: 'An approval issues a single-use code valid for a few minutes, bound to the PKCE challenge when one was given.',
    body: AuthorizationDecision,
    replies: { 200: AuthorizationOutcome },
    ...consentRefusals,
  }),
  authorizations: endpoint({
    method: 'GET',
    path: '/oauth/authorizations',
    summary: 'The fediverse apps the account has let in, newest first',
    replies: { 200: AuthorizedApps },
    errors: [],
  }),
  revokeAuthorization: endpoint({
    method: 'DELETE',
    path: '/oauth/authorizations/:id',
    summary: "Takes an app's access to the account back: every token and code it holds for the account stops working",
    params: Type.Object({ id: Id }),
    replies: MessageReplies,
    errors: ['authorization_not_found'],
  }),
} as const;

/** An OAuth refusal: `error` the protocol's code, `error_description` a sentence, `message` the catalogue key. */
export const OAuthError = Type.Object({ error: Type.String(), error_description: Type.String(), message: Type.String() });
export type OAuthError = Static<typeof OAuthError>;

/** A field of the root endpoints' requests: JSON or a form, every field optional, its need decided by the service. */
const FormField = Type.Optional(Type.String());

/** A token request: JSON or a form; which fields count depends on the grant. */
export const TokenRequest = Type.Object(
  fieldsOf(FormField, 'grant_type', 'client_id', 'client_secret', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope'),
);
export type TokenRequest = Static<typeof TokenRequest>;

export const TokenReply = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  scope: Type.String(),
  /** Seconds since the epoch. */
  created_at: Type.Integer(),
  refresh_token: Type.Optional(Type.String()),
});
export type TokenReply = Static<typeof TokenReply>;

export const RevokeRequest = Type.Object(fieldsOf(FormField, 'token', 'token_type_hint', 'client_id', 'client_secret'));
export type RevokeRequest = Static<typeof RevokeRequest>;

/** The authorisation server's description (RFC 8414), which newer apps read before signing in. */
export const ServerMetadata = Type.Object({
  ...fieldsOf(Type.String(), 'issuer', 'authorization_endpoint', 'token_endpoint', 'revocation_endpoint', 'app_registration_endpoint'),
  ...fieldsOf(Type.Array(Type.String()), 'scopes_supported', 'response_types_supported', 'response_modes_supported', 'grant_types_supported', 'code_challenge_methods_supported', 'token_endpoint_auth_methods_supported'),
});
export type ServerMetadata = Static<typeof ServerMetadata>;

/** Refusals of the token endpoint, each answered as an OAuthError. */
export const TOKEN_ERRORS = [
  'unknown_app', 'code_invalid', 'pkce_mismatch', 'redirect_not_registered', 'refresh_token_invalid', 'invalid_scope',
  'grant_type_unsupported', 'oauth_request_invalid', 'login_timeout',
] as const;

/** The endpoints apps call at the server's root, outside /api (paths as they are served). */
export const oauthEndpointsApi = {
  token: endpoint({
    method: 'POST',
    path: '/oauth/token',
    summary: 'Issues an access token: for an authorization code (with its PKCE verifier), for the app itself, or for a refresh token',
    body: TokenRequest,
    replies: { 200: TokenReply },
    errors: [...TOKEN_ERRORS],
    invalidKey: 'oauth_request_invalid',
  }),
  revoke: endpoint({
    method: 'POST',
    path: '/oauth/revoke',
    summary: "Revokes one of the app's tokens (an unknown token is already no token: answered alike)",
    body: RevokeRequest,
    replies: { 200: Type.Object({}) },
    errors: ['unknown_app', 'oauth_request_invalid', 'login_timeout'],
    invalidKey: 'oauth_request_invalid',
  }),
  metadata: endpoint({
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    summary: 'How apps sign in here: the endpoints, scopes, grants and PKCE methods',
    replies: { 200: ServerMetadata },
    errors: [],
  }),
} as const;

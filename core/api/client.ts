import { type Static, Type } from '@sinclair/typebox';
import { Nullable, fieldsOf } from './common.js';
import { endpoint, plainEntry } from './endpoint.js';

/**
 * The client API that fediverse apps speak, beside Kruh's own: its entities keep the names and
 * shapes those apps read (snake_case), and its refusals answer `{error, message}` (ClientError).
 */

/** A refusal: `error` a sentence an app may show as it is, `message` the catalogue key. */
export const ClientError = Type.Object({ error: Type.String(), message: Type.String() });
export type ClientError = Static<typeof ClientError>;

export const Rule = Type.Object({ id: Type.String(), text: Type.String(), hint: Type.String() });
export type Rule = Static<typeof Rule>;

const StatusLimits = Type.Object({
  max_characters: Type.Integer(),
  max_media_attachments: Type.Integer(),
  characters_reserved_per_url: Type.Integer(),
});

const MediaLimits = Type.Object({
  supported_mime_types: Type.Array(Type.String()),
  ...fieldsOf(Type.Integer(), 'image_size_limit', 'image_matrix_limit', 'video_size_limit', 'video_frame_rate_limit', 'video_matrix_limit', 'description_limit'),
});

const AccountLimits = Type.Object({ max_featured_tags: Type.Integer(), max_pinned_statuses: Type.Integer() });

/** The instance as the first version of the call describes it (still read by many apps). */
export const InstanceV1 = Type.Object({
  ...fieldsOf(Type.String(), 'uri', 'title', 'short_description', 'description', 'email', 'version'),
  urls: Type.Object({ streaming_api: Type.String() }),
  stats: Type.Object({ user_count: Type.Integer(), status_count: Type.Integer(), domain_count: Type.Integer() }),
  thumbnail: Nullable(Type.String()),
  languages: Type.Array(Type.String()),
  ...fieldsOf(Type.Boolean(), 'registrations', 'approval_required', 'invites_enabled'),
  configuration: Type.Object({ accounts: AccountLimits, statuses: StatusLimits, media_attachments: MediaLimits }),
  contact_account: Type.Null(),
  rules: Type.Array(Rule),
});
export type InstanceV1 = Static<typeof InstanceV1>;

/** The instance as the second version of the call describes it. */
export const InstanceV2 = Type.Object({
  ...fieldsOf(Type.String(), 'domain', 'title', 'version', 'source_url', 'description'),
  usage: Type.Object({ users: Type.Object({ active_month: Type.Integer() }) }),
  thumbnail: Type.Object({ url: Type.String() }),
  languages: Type.Array(Type.String()),
  configuration: Type.Object({
    urls: Type.Object({ streaming: Type.String() }),
    accounts: AccountLimits,
    statuses: StatusLimits,
    media_attachments: MediaLimits,
    translation: Type.Object({ enabled: Type.Boolean() }),
  }),
  registrations: Type.Object({
    enabled: Type.Boolean(),
    approval_required: Type.Boolean(),
    message: Nullable(Type.String()),
    url: Nullable(Type.String()),
  }),
  api_versions: Type.Object({ mastodon: Type.Integer() }),
  contact: Type.Object({ email: Type.String(), account: Type.Null() }),
  rules: Type.Array(Rule),
});
export type InstanceV2 = Static<typeof InstanceV2>;

/**
 * A registration: the scopes one string split on spaces, the redirect addresses a list or one
 * string with one a line, as apps send either. Checked by the service, so a bad value answers its
 * own key.
 */
export const NewClientApp = Type.Object({
  client_name: Type.Optional(Type.String()),
  redirect_uris: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  scopes: Type.Optional(Type.String()),
  website: Type.Optional(Nullable(Type.String())),
});
export type NewClientApp = Static<typeof NewClientApp>;

/** What every description of an app carries: its id, its name and website, the scopes it may use. */
export const AppProperties = { id: Type.String(), name: Type.String(), website: Nullable(Type.String()), scopes: Type.Array(Type.String()) };

/** A registered app; the credentials only in the answer to its registration. */
export const ClientApplication = Type.Object({
  ...AppProperties,
  redirect_uri: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  client_id: Type.String(),
  client_secret: Type.String(),
  client_secret_expires_at: Type.Integer(),
});
export type ClientApplication = Static<typeof ClientApplication>;

/** The app a token was issued to, as it checks its own credentials: no secret. */
export const VerifiedApplication = Type.Object({
  ...AppProperties,
  redirect_uri: Type.String(),
  redirect_uris: Type.Array(Type.String()),
});
export type VerifiedApplication = Static<typeof VerifiedApplication>;

export const clientApi = {
  instanceV1: plainEntry('GET', '/v1/instance', 'The instance for fediverse apps: its name, rules, contact, sign-up mode and limits (first version)', InstanceV1),
  // Some client libraries ask with a trailing slash to learn which version they speak to; without an
  // answer they take the server for the oldest one and refuse most of their calls.
  instanceV1Slashed: plainEntry('GET', '/v1/instance/', 'The first version of the instance, asked with a trailing slash (as some client libraries ask)', InstanceV1),
  instanceV2: plainEntry('GET', '/v2/instance', 'The instance for fediverse apps: its name, rules, contact, sign-up mode and limits', InstanceV2),
  rules: plainEntry('GET', '/v1/instance/rules', 'The rules of the instance, in order, for fediverse apps', Type.Array(Rule)),
  registerApp: endpoint({
    method: 'POST',
    path: '/v1/apps',
    summary: 'Registers a fediverse app: answers its client id and secret',
    description: 'Takes JSON or a form. `redirect_uris` may be `urn:ietf:wg:oauth:2.0:oob`; `scopes` defaults to `read`.',
    body: NewClientApp,
    replies: { 200: ClientApplication },
    errors: ['invalid_app_name', 'invalid_redirect_uri', 'invalid_scope', 'invalid_app_website'],
  }),
  verifyApp: endpoint({
    method: 'GET',
    path: '/v1/apps/verify_credentials',
    summary: "The app a token was issued to: its name, website, scopes and redirect addresses (the app's own token or one acting for an account)",
    replies: { 200: VerifiedApplication },
    errors: ['no_token', 'invalid_token'],
  }),
} as const;

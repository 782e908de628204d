import { type Static, Type } from '@sinclair/typebox';
import { Nullable, fieldsOf } from './common.js';

/**
 * The entities of the client API fediverse apps read, with the field names and types those apps
 * expect (snake_case, times as ISO 8601 strings, ids as strings). Kruh's people and groups are
 * Accounts, its posts and comments Statuses:
 * - a group's account id is its id with a `g` before it (`g` + 24 hex digits), so it never equals a
 *   person's id (24 hex digits);
 * - a comment's status id is its id with a `c` before it (`c` + 24 hex digits), so it never equals a
 *   post's id; a comment's `in_reply_to_id` names the comment it answers, else its post.
 */

/** A custom emoji; Kruh has none, so every list of them is empty. */
export const CustomEmoji = Type.Object({
  shortcode: Type.String(),
  url: Type.String(),
  static_url: Type.String(),
  visible_in_picker: Type.Boolean(),
});

const Field = Type.Object({ name: Type.String(), value: Type.String(), verified_at: Nullable(Type.String()) });

/**
 * A person here or on another server, or a group (`group: true`). `acct` is the username for a
 * local account and `name@host` for a remote one; `note` the bio as HTML; times ISO 8601.
 */
export const Account = Type.Object({
  ...fieldsOf(Type.String(), 'id', 'username', 'acct', 'url', 'uri', 'display_name', 'note', 'avatar', 'avatar_static', 'header', 'header_static'),
  locked: Type.Boolean(),
  fields: Type.Array(Field),
  emojis: Type.Array(CustomEmoji),
  ...fieldsOf(Type.Boolean(), 'bot', 'group'),
  discoverable: Nullable(Type.Boolean()),
  ...fieldsOf(Type.Boolean(), 'indexable', 'hide_collections'),
  created_at: Type.String(),
  last_status_at: Nullable(Type.String()),
  ...fieldsOf(Type.Integer(), 'statuses_count', 'followers_count', 'following_count'),
});
export type Account = Static<typeof Account>;

/** A picture's size: `size` is `{width}x{height}`, `aspect` width over height. */
const MediaSize = Type.Object({ width: Type.Integer(), height: Type.Integer(), size: Type.String(), aspect: Type.Number() });

/**
 * What is known of a picture: its size as stored (`original`) and as previewed (`small`, the same
 * picture here), and its point of interest (`focus`, each coordinate within -1..1).
 */
export const MediaMeta = Type.Object({
  original: Type.Optional(MediaSize),
  small: Type.Optional(MediaSize),
  focus: Type.Optional(Type.Object({ x: Type.Number(), y: Type.Number() })),
});
export type MediaMeta = Static<typeof MediaMeta>;

/** An image of a status; `description` is its alt text (null when it has none). */
export const MediaAttachment = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('image'), Type.Literal('gifv'), Type.Literal('video'), Type.Literal('audio'), Type.Literal('unknown')]),
  url: Type.String(),
  preview_url: Nullable(Type.String()),
  remote_url: Nullable(Type.String()),
  meta: Nullable(MediaMeta),
  description: Nullable(Type.String()),
  blurhash: Nullable(Type.String()),
});
export type MediaAttachment = Static<typeof MediaAttachment>;

/** A person a status names. */
export const StatusMention = Type.Object({ id: Type.String(), username: Type.String(), url: Type.String(), acct: Type.String() });
export type StatusMention = Static<typeof StatusMention>;

/** A hashtag: its name without `#` and its page. */
export const Tag = Type.Object({ name: Type.String(), url: Type.String(), history: Type.Optional(Type.Array(Type.Object({ day: Type.String(), uses: Type.String(), accounts: Type.String() }))) });
export type Tag = Static<typeof Tag>;

const Visibility = Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private'), Type.Literal('direct')]);

/**
 * A post or a comment. `visibility` is `private` for a post in a private group, else `public`;
 * `spoiler_text` is the content warning ('' for none), `sensitive` whether there is one. Nothing is
 * ever boosted here: `reblog` is null and `reblogs_count` 0.
 */
export const Status = Type.Object({
  id: Type.String(),
  uri: Type.String(),
  url: Nullable(Type.String()),
  created_at: Type.String(),
  edited_at: Nullable(Type.String()),
  account: Account,
  content: Type.String(),
  visibility: Visibility,
  sensitive: Type.Boolean(),
  spoiler_text: Type.String(),
  media_attachments: Type.Array(MediaAttachment),
  application: Nullable(Type.Object({ name: Type.String(), website: Nullable(Type.String()) })),
  mentions: Type.Array(StatusMention),
  tags: Type.Array(Tag),
  emojis: Type.Array(CustomEmoji),
  ...fieldsOf(Type.Integer(), 'reblogs_count', 'favourites_count', 'replies_count'),
  ...fieldsOf(Nullable(Type.String()), 'in_reply_to_id', 'in_reply_to_account_id'),
  ...fieldsOf(Type.Null(), 'reblog', 'poll', 'card'),
  language: Nullable(Type.String()),
  ...fieldsOf(Type.Boolean(), 'favourited', 'reblogged', 'muted', 'bookmarked'),
  pinned: Type.Optional(Type.Boolean()),
});
export type Status = Static<typeof Status>;

/** What comes before a status in its thread (oldest first) and what answers it. */
export const Context = Type.Object({ ancestors: Type.Array(Status), descendants: Type.Array(Status) });
export type Context = Static<typeof Context>;

/** The caller's standing towards an account. */
export const Relationship = Type.Object({
  id: Type.String(),
  ...fieldsOf(Type.Boolean(), 'following', 'showing_reblogs', 'notifying'),
  languages: Nullable(Type.Array(Type.String())),
  ...fieldsOf(Type.Boolean(), 'followed_by', 'blocking', 'blocked_by', 'muting', 'muting_notifications', 'requested', 'requested_by', 'domain_blocking', 'endorsed'),
  note: Type.String(),
});
export type Relationship = Static<typeof Relationship>;

/** An account suggested to follow, and why. */
export const Suggestion = Type.Object({ source: Type.String(), sources: Type.Array(Type.String()), account: Account });
export type Suggestion = Static<typeof Suggestion>;

/** Where the caller stopped reading a timeline: the last status read, and when that was saved. */
export const Marker = Type.Object({ last_read_id: Type.String(), version: Type.Integer(), updated_at: Type.String() });
export type Marker = Static<typeof Marker>;

/** The timelines a marker may be kept for. */
export const MARKER_TIMELINES = ['home', 'notifications'] as const;
export type MarkerTimeline = (typeof MARKER_TIMELINES)[number];

/** The caller's markers by timeline; a timeline without one is left out. */
export const Markers = Type.Object({ home: Type.Optional(Marker), notifications: Type.Optional(Marker) });
export type Markers = Static<typeof Markers>;

/** The caller's posting and reading defaults. */
export const Preferences = Type.Object({
  'posting:default:visibility': Visibility,
  'posting:default:sensitive': Type.Boolean(),
  'posting:default:language': Nullable(Type.String()),
  'reading:expand:media': Type.String(),
  'reading:expand:spoilers': Type.Boolean(),
});
export type Preferences = Static<typeof Preferences>;

/** The instance's longer text about itself (the moderators' about text), as HTML. */
export const ExtendedDescription = Type.Object({ updated_at: Type.String(), content: Type.String() });
export type ExtendedDescription = Static<typeof ExtendedDescription>;

import type { Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

/** Row types of the tables (see migrations). Services map them to the API's shapes. */
export interface UsersTable {
  id: string;
  username: string;
  username_lower: string;
  /** Look-alike skeleton of the name (unique); NULL for a name that predates it and shares another's. */
  username_skeleton: string | null;
  email: string | null;
  password_hash: string | null;
  google_sub: string | null;
  verified: Generated<number>;
  bio: Generated<string>;
  language: Generated<string>;
  /** JSON array of the six per-type booleans. */
  notification_settings: Generated<string>;
  token_version: Generated<number>;
  /** Version of the avatar's bytes, its URL version: the time (epoch ms) they were recorded, always growing; 0 when unknown. */
  pfp_version: Generated<number>;
  search_text: string;
  created_at: number;
  /** 'user', or 'moderator' for an instance moderator (set by `npm run admin`). */
  role: Generated<string>;
  /** Epoch ms the account was suspended; null for an account in good standing. */
  suspended_at: number | null;
  /** 1 when fediverse servers may list the account in their directories (its actor's `discoverable`). */
  discoverable: Generated<number>;
  /** 1 when fediverse servers may put its posts in their search (its actor's `indexable`). */
  indexable: Generated<number>;
}

export interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  /** signup_login is never mailed: the browser that signed up keeps it (see auth.service signupLogin). */
  purpose: 'verify' | 'change_email' | 'reset_password' | 'signup_login';
  email: string;
  expires_at: number;
  created_at: number;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  key: string;
  created_at: number;
}

export interface FollowsTable {
  follower_id: string;
  following_id: string;
  notify: Generated<number>;
  created_at: number;
}

export interface GroupsTable {
  id: string;
  name: string;
  name_lower: string;
  /** Look-alike skeleton of the name (unique); NULL for a name that predates it and shares another's. */
  name_skeleton: string | null;
  description: Generated<string>;
  owner_id: string;
  is_private: Generated<number>;
  request_join: Generated<number>;
  everyone_can_post: Generated<number>;
  pinned_post_id: string | null;
  members: Generated<number>;
  bans: Generated<number>;
  /** Version of the group picture's bytes, as pfp_version; 0 when unknown. */
  gp_version: Generated<number>;
  search_text: string;
  created_at: number;
}

export type GroupRole = 'member' | 'admin' | 'owner';

export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  role: Generated<GroupRole>;
  level: Generated<number>;
  created_at: number;
}

export interface GroupUserTable {
  group_id: string;
  user_id: string;
  created_at: number;
}

/** What a post and a comment both hold: their likes and pictures, their search text, and where a remote one comes from. */
interface WrittenItemColumns {
  author_id: string | null;
  text: string;
  likes: Generated<number>;
  images: Generated<number>;
  /** Version of the newest image bytes, the images' URL version, as users.pfp_version; 0 when unknown. */
  media_version: Generated<number>;
  /** JSON list of the images' descriptions (alt texts) in image order, '' where there is none. */
  image_alts: Generated<string>;
  search_text: string;
  created_at: number;
  /** A remote post's or comment's object IRI; null for one written here. */
  ap_id: Generated<string | null>;
  /** A remote post's or comment's page on its own server. */
  ap_url: Generated<string | null>;
  /** How many pictures the item's first sending to other servers still waits for; 0 when none. */
  awaiting_pictures: Generated<number>;
}

export interface PostsTable extends WrittenItemColumns {
  id: string;
  reply_to: string | null;
  comments: Generated<number>;
  /** The warning the post is shown behind; null for none. */
  content_warning: string | null;
  /** When the author last changed the text; null for a post never edited. */
  edited_at: number | null;
  /** A remote post's pictures, JSON of `{url, alt}` (they stay on its server); null for a local post. */
  remote_media: Generated<string | null>;
}

/** A version of a post that an edit replaced. */
export interface PostEditsTable {
  id: string;
  post_id: string;
  text: string;
  content_warning: string | null;
  written_at: number;
  replaced_at: number;
}

export interface PostMentionsTable {
  post_id: string;
  position: number;
  user_id: string | null;
  username: string;
}

export interface PostGroupsTable {
  post_id: string;
  position: number;
  group_id: string | null;
  name: string;
  created_at: number;
}

export interface PostHashtagsTable {
  post_id: string;
  tag: string;
  created_at: number;
}

export interface PostLikesTable {
  post_id: string;
  user_id: string;
  created_at: number;
}

export interface CommentsTable extends WrittenItemColumns {
  id: string;
  post_id: string;
  parent_comment_id: string | null;
  replies: Generated<number>;
  deleted: Generated<number>;
}

export interface CommentMentionsTable {
  comment_id: string;
  position: number;
  user_id: string | null;
  username: string;
}

export interface CommentLikesTable {
  comment_id: string;
  user_id: string;
  created_at: number;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: string;
  actor_id: string | null;
  post_id: string | null;
  comment_id: string | null;
  group_id: string | null;
  mention_count: Generated<number>;
  seen: Generated<number>;
  created_at: number;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  route: string;
  /** Fingerprint of the first request sent with the key; null for keys stored before it was kept. */
  request_hash: string | null;
  status: number | null;
  body: string | null;
  created_at: number;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  attempts: Generated<number>;
  run_at: number;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  /** The remote host (with its port) the job talks to: at most a few of one host's jobs run at once. */
  host: string | null;
  /** The address on that host it sends to: one of its jobs runs at a time, in the order queued. */
  target: string | null;
}

/** A remote host whose last request failed: its failures in a row, and its park while it lasts. */
export interface JobHostsTable {
  host: string;
  failures: number;
  /** Parks in a row: each lasts twice as long as the one before. */
  parks: Generated<number>;
  /** Until when the host's jobs are not claimed; null (or past) when it is not parked. */
  parked_until: number | null;
  updated_at: number;
}

/** A copy kept in the media storage of a remote post's picture: dropped REMOTE_MEDIA_DAYS after it was fetched. */
export interface RemoteMediaCopiesTable {
  /** Its storage key (`remote/{hash}`). */
  key: string;
  bytes: number;
  fetched_at: number;
}

export interface RateEventsTable {
  key: string;
  created_at: number;
}

/** A passkey of an account: its credential id and COSE public key (base64url), and its use counter. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: Generated<number>;
  /** JSON array of the transports the authenticator named (usb, internal, hybrid...). */
  transports: Generated<string>;
  name: string | null;
  created_at: number;
  last_used_at: number | null;
}

/** A one-use challenge for adding a passkey (with its account) or signing in with one (without). */
export interface PasskeyChallengesTable {
  id: string;
  purpose: 'register' | 'login';
  user_id: string | null;
  challenge: string;
  /** The page origin and relying party id the answer must come from. */
  origin: string;
  rp_id: string;
  expires_at: number;
}

/** A device's Web Push subscription (the browser's PushSubscription), unique by endpoint. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  /** The browser's P-256 public key, base64url. */
  p256dh: string;
  /** The browser's 16-byte auth secret, base64url. */
  auth: string;
  created_at: number;
  updated_at: number;
  /** Deliveries that failed in a row; the subscription is dropped at PUSH_MAX_FAILURES. */
  failures: Generated<number>;
}

/** Values an instance generates once and every process shares (the VAPID key pair). */
export interface ServerSettingsTable {
  name: string;
  value: string;
  created_at: number;
}

/** What the instance says about itself: one row, 'instance', once its moderators first save. */
export interface InstanceSettingsTable {
  id: string;
  name: string;
  description: string;
  about: string;
  /** JSON array of the rules, in order. */
  rules: string;
  contact: string;
  updated_at: number;
  /** The moderator who saved last; null once their account is gone. */
  updated_by: string | null;
}

/** An actor's key pair for one algorithm, as JWK text (see the federation_keys migration). */
export interface FederationKeysTable {
  actor_id: string;
  /** 'RSASSA-PKCS1-v1_5' or 'Ed25519'. */
  algorithm: string;
  public_key: string;
  private_key: string;
  created_at: number;
}

/** A remote (fediverse) actor the instance has heard from: its IRI and where it takes deliveries. */
export interface RemoteActorsTable {
  id: string;
  inbox: string;
  shared_inbox: string | null;
  /** `@name@host`, when the actor names itself. */
  handle: string | null;
  fetched_at: number;
  /** The local account standing for the actor (its posts, comments and likes); null for one only known as a follower. */
  user_id: Generated<string | null>;
  /** The actor's page on its own server. */
  url: Generated<string | null>;
  /** The actor's host, lower case: what a domain block matches. */
  domain: Generated<string | null>;
  /** 1 for a Group (a community local users may post into), else 0. */
  is_group: Generated<number>;
}

/** A remote actor following a local user or public group (by its id). */
export interface RemoteFollowsTable {
  remote_actor_id: string;
  local_id: string;
  created_at: number;
  /** The id of the Follow that made it (the last one sent); null for a follow kept before ids were. */
  follow_id: Generated<string | null>;
}

/** A deleted post's or comment's Note that a visitor could read: its address answers 410 Gone. */
export interface NoteTombstonesTable {
  kind: 'post' | 'comment';
  id: string;
  deleted_at: number;
}

/** A domain (and its subdomains) the instance moderators cut off from federation. */
export interface FederationDomainBlocksTable {
  /** The host, lower case. */
  domain: string;
  created_at: number;
  /** The moderator who blocked it; null once their account is gone. */
  created_by: string | null;
}

/** A post passed on by an account other than its author (a remote community's announce). */
export interface PostSharesTable {
  sharer_id: string;
  post_id: string;
  created_at: number;
}

/** A remote community (a Group's account) a post is in, in the order its slots named them. */
export interface PostRemoteGroupsTable {
  post_id: string;
  account_id: string;
  position: number;
}

/** Fedify's key-value store: a JSON value under a key (the key's parts joined), until it expires. */
export interface FederationKvTable {
  key: string;
  value: string;
  expires_at: number | null;
}

/** An app registered for the client API (see the client_apps migration); the lists are JSON text. */
export interface ClientAppsTable {
  id: string;
  client_id: string;
  secret_hash: string;
  name: string;
  website: string | null;
  redirect_uris: string;
  scopes: string;
  created_at: number;
}

/** An authorization code an approval issued (see the oauth_tokens migration): kept as its hash, used once. */
export interface OAuthCodesTable {
  code_hash: string;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  /** JSON list. */
  scopes: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** An app's access token (and its refresh token), kept as hashes; `user_id` null for an app's own token. */
export interface OAuthTokensTable {
  id: string;
  token_hash: string;
  refresh_hash: string | null;
  app_id: string;
  user_id: string | null;
  /** The account's token_version when issued: a password change since ends the token. */
  token_version: number | null;
  /** JSON list. */
  scopes: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

/** Where a person stopped reading a timeline of the client API (home, notifications). */
export interface ClientMarkersTable {
  user_id: string;
  timeline: string;
  last_read_id: string;
  version: number;
  updated_at: number;
}

/** An account's followers, follows and posts anyone may count, kept by the writes that change them. */
export interface AccountCountsTable {
  user_id: string;
  followers: Generated<number>;
  following: Generated<number>;
  statuses: Generated<number>;
  /** When its newest post in no private group was written (null: none). */
  last_status_at: number | null;
}

/** An account that passed a post on at least once (see post_shares). */
export interface PostSharersTable {
  user_id: string;
}

/** A fediverse app's Web Push subscription: one per access token, going with it. */
export interface ClientPushSubscriptionsTable {
  id: string;
  token_id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** JSON object: the client API's notification types the app wants pushed, each true or false. */
  alerts: string;
  /** Whose notifications are pushed: all, followed, follower or none. */
  policy: string;
  /** The access token, sealed with the instance's secret: each push names the token it is for. */
  sealed_token: string;
  failures: Generated<number>;
  created_at: number;
  updated_at: number;
}

/**
 * A picture a fediverse app uploaded ahead of its status: its uploader's until a status takes it
 * (`attached_to`, the post or comment), dropped STAGED_UPLOAD_HOURS after the upload either way.
 */
export interface StagedUploadsTable {
  id: string;
  owner_id: string;
  /** Its description (alt text), '' for none. */
  description: Generated<string>;
  /** Where the picture's point of interest is, `x,y` each within -1..1; null when not given. */
  focus: string | null;
  width: number;
  height: number;
  bytes: number;
  animated: Generated<number>;
  created_at: number;
  attached_to: string | null;
}

export interface Database {
  users: UsersTable;
  email_tokens: EmailTokensTable;
  login_failures: LoginFailuresTable;
  follows: FollowsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  group_bans: GroupUserTable;
  group_requests: GroupUserTable;
  posts: PostsTable;
  post_shares: PostSharesTable;
  post_remote_groups: PostRemoteGroupsTable;
  post_mentions: PostMentionsTable;
  post_groups: PostGroupsTable;
  post_hashtags: PostHashtagsTable;
  post_likes: PostLikesTable;
  comments: CommentsTable;
  comment_mentions: CommentMentionsTable;
  comment_likes: CommentLikesTable;
  notifications: NotificationsTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  job_hosts: JobHostsTable;
  remote_media_copies: RemoteMediaCopiesTable;
  rate_events: RateEventsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  push_subscriptions: PushSubscriptionsTable;
  server_settings: ServerSettingsTable;
  client_apps: ClientAppsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  client_markers: ClientMarkersTable;
  account_counts: AccountCountsTable;
  post_sharers: PostSharersTable;
  client_push_subscriptions: ClientPushSubscriptionsTable;
  staged_uploads: StagedUploadsTable;
  reports: ReportsTable;
  user_blocks: UserBlocksTable;
  user_mutes: UserMutesTable;
  tag_mutes: TagMutesTable;
  moderation_actions: ModerationActionsTable;
  report_group_settlements: ReportGroupSettlementsTable;
  post_edits: PostEditsTable;
  federation_keys: FederationKeysTable;
  remote_actors: RemoteActorsTable;
  remote_follows: RemoteFollowsTable;
  federation_kv: FederationKvTable;
  federation_domain_blocks: FederationDomainBlocksTable;
  note_tombstones: NoteTombstonesTable;
  registration_applications: RegistrationApplicationsTable;
  invites: InvitesTable;
  instance_settings: InstanceSettingsTable;
}

/** A sign-up by approval: its reason, and whether a moderator approved or refused it yet. */
export interface RegistrationApplicationsTable {
  user_id: string;
  reason: string;
  status: 'pending' | 'approved' | 'refused';
  created_at: number;
  decided_by: string | null;
  decided_at: number | null;
}

/** An invite link: its code admits `max_uses` sign-ups until `expires_at`. */
export interface InvitesTable {
  id: string;
  code: string;
  created_by: string;
  max_uses: number;
  uses: Generated<number>;
  expires_at: number;
  created_at: number;
}

/** A report to the moderators of a post, comment or user, once per reporter and target. */
export interface ReportsTable {
  id: string;
  reporter_id: string;
  target_kind: 'post' | 'comment' | 'user';
  target_id: string;
  reason: string;
  status: Generated<string>;
  created_at: number;
  /** Who settled the report (removed, banned, deleted, suspended or dismissed) and when. */
  resolved_by: string | null;
  resolved_at: number | null;
}

/**
 * A report settled for one group's queue by its owner or an admin (reports.status is the instance
 * moderators' view, which a group's settling leaves open).
 */
export interface ReportGroupSettlementsTable {
  report_id: string;
  group_id: string;
  status: string;
  settled_by: string | null;
  settled_at: number;
}

/** One moderation action: by an instance moderator (group_id null) or a group's admin. */
export interface ModerationActionsTable {
  id: string;
  actor_id: string | null;
  group_id: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  report_id: string | null;
  created_at: number;
}

export type Db = Kysely<Database>;
/** What a repository runs its queries on: the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type GroupRow = Selectable<GroupsTable>;
export type CommentRow = Selectable<CommentsTable>;

/** A block: neither user sees the other's content or may act on it, whoever made it. */
export interface UserBlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: number;
}

/** A mute: the muted user's posts and notifications leave the muter's feeds; nothing changes for them. */
export interface UserMutesTable {
  muter_id: string;
  muted_id: string;
  created_at: number;
}

/** A muted hashtag (lowercase, without #): posts carrying it leave the user's feeds. */
export interface TagMutesTable {
  user_id: string;
  tag: string;
  created_at: number;
}

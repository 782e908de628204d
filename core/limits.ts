/** Business constants: server and web app read them from here only. */
export const LIMITS = {
  usernameMin: 3,
  usernameMax: 32,
  /**
   * The longest name of an account on another server this instance keeps (an actor's
   * preferredUsername): servers set their own lengths, so only a bound against abuse.
   */
  remoteUsernameMax: 100,
  groupNameMin: 3,
  groupNameMax: 32,
  passwordMin: 6,
  /** The server accepts up to 128; the sign-up form attribute says 32 (both readings). */
  passwordMax: 128,
  passwordFormMax: 32,
  textMaxLength: 512,
  textMaxLines: 32,
  bioMaxLength: 512,
  descriptionMaxLength: 100,
  /** The description (alt text) of one image of a post or comment, for those who cannot see it. */
  imageAltMaxLength: 1500,
  /** The short warning a post may carry, shown in place of its text and images until asked for. */
  contentWarningMaxLength: 100,
  /** Why a post, comment or user is reported to the moderators. */
  reportReasonMaxLength: 500,
  /** Why someone asks to join an instance that approves its sign-ups. */
  registrationReasonMaxLength: 500,
  /** How many sign-ups one invite link admits at most, and how many days it may stay valid. */
  inviteMaxUses: 100,
  inviteMaxDays: 30,
  /** Invite links one account may hold that can still admit someone. */
  openInvitesPerAccount: 20,
  /** The name a user gives a passkey to tell it from their others. */
  passkeyNameMax: 64,
  mentionsPerPost: 10,
  groupsPerPost: 10,
  ownedGroups: 10,
  imagesPerPost: 2,
  imagesPerComment: 1,
  commentsPerWindow: 60,
  commentWindowMs: 30 * 60 * 1000,
  /** The window of the likes limit (RATE_LIMIT_DEFAULTS.likesPerWindow). */
  likeWindowMs: 10 * 60 * 1000,
  /** The login lockout's window, and how long a lock lasts after the last failure. */
  loginLockoutMs: 3 * 60 * 1000,
  /** Failed logins on one account (or one name no account has) from one address before that pair is locked. */
  loginMaxFailures: 5,
  /**
   * Failed logins on one account (or name) from all addresses together before the account is locked
   * everywhere: guessing spread over many addresses, well above one person's mistakes.
   */
  loginMaxFailuresPerAccount: 20,
  /**
   * Failed logins from one address on any names before the address is locked: far above one
   * person's mistakes, so a school or office behind one address is not locked out by one of them.
   */
  loginMaxFailuresPerAddress: 50,
  gifQueryMax: 500,
  gifPageSize: 50,
  searchHistoryMax: 30,
  searchPreview: 3,
  suggestionsMax: 10,
  /** Accounts and public groups suggested at once on an empty following or groups feed. */
  followSuggestions: 5,
  /**
   * The following (groups) tab keeps suggesting accounts (groups) until the account follows (is in)
   * this many, or hides the suggestions: one follow must not take them away.
   */
  suggestionsUntil: 5,
  debounceMs: 300,
  gifDebounceMs: 800,
  /** GIF picker layout: default size and the narrowest column of its grid, in px. */
  gifPickerWidth: 450,
  gifPickerHeight: 350,
  gifColumnMinWidth: 170,
  /**
   * What the picker asks Tenor for, whatever the interface language: one catalogue of GIFs and
   * categories for everyone, as the product defines it (the server still accepts cs_CZ).
   */
  gifLocale: 'en_US',
  gifCountry: 'US',
  /** How long the composer waits, online, for the server to take or refuse a post before leaving it to the outbox. */
  postAnswerWaitMs: 4000,
  toastMs: 3000,
  toastSlideMs: 1000,
  /** Hover (or focus) before a tooltip shows. */
  tooltipDelayMs: 500,
  /** Hover on a link to a post, profile or group before its data is fetched into the local database. */
  prefetchDelayMs: 100,
  collapsedPostPx: 200,
  /** Server-side cap on any page size a client asks for. */
  maxPageSize: 50,
  /** Uploaded images: bytes and decoded pixels. */
  imageMaxBytes: 10 * 1024 * 1024,
  imageMaxPixels: 40_000_000,
  pfpSize: 400,
} as const;

export const PAGE_SIZES = {
  comments: 5,
  posts: 4,
  notifications: 6,
  users: 5,
  groups: 5,
} as const;

/** Per-group notification level. */
export const GROUP_NOTIFICATION_LEVELS = { all: 0, essential: 1, none: 2 } as const;
export type GroupNotificationLevel = (typeof GROUP_NOTIFICATION_LEVELS)[keyof typeof GROUP_NOTIFICATION_LEVELS];

/**
 * Account notification settings. They travel and are stored as booleans by position, so this
 * order is part of the API: the web app, the server and the stored settings read a switch by its
 * place here.
 */
export const NOTIFICATION_SETTINGS = [
  'follower', 'reply', 'postFromFollowed', 'postMention', 'commentMention', 'newMember',
] as const;
export type NotificationSettings = boolean[];
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = NOTIFICATION_SETTINGS.map(() => true);

export const NOTIFICATION_TYPES = [
  'NEW_FOLLOWER', 'NEW_REPLY', 'NEW_POST', 'MENTION', 'COMMENT_MENTION', 'GROUP_POST',
  'GROUP_JOIN_REQUEST', 'GROUP_JOIN_DENY', 'GROUP_JOIN_ACCEPT', 'NEW_MEMBER', 'MADE_ADMIN',
  'REVOKED_ADMIN', 'NEW_MESSAGE', 'MADE_OWNER',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Marker the API puts in place of a removed account, group or post. */
export const DELETED = '<deleted>';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Abuse limits: how often one user (or one address) may take an action within a sliding window.
 * These are the defaults; the server reads the counts from its settings (RATE_* variables), so an
 * instance can tune them, and the messages the client shows name no number.
 */
export const RATE_LIMIT_DEFAULTS = {
  /** Posts one user may create per hour. */
  postsPerHour: 30,
  /** Accounts one address may create per hour. */
  signupsPerAddressPerHour: 5,
  /**
   * Verification mails asked for again, per address and per client, per hour. The address count
   * runs whether or not an account has the address, so being refused tells nothing about it.
   */
  verificationMailsPerAddressPerHour: 3,
  verificationMailsPerClientPerHour: 10,
  /** Change-email mails one user may ask for per hour. */
  emailChangesPerHour: 3,
  /** Times one user may mention one stranger (someone who does not follow them) per hour. */
  strangerMentionsPerHour: 5,
  /** Joins, leaves and join requests one user may make in one group per hour. */
  groupActionsPerHour: 10,
  /** Data exports (zip of the account's data) one user may download per hour. */
  exportsPerHour: 3,
  /** Edits of their posts one user may make per hour (each keeps a version in the post's history). */
  editsPerHour: 60,
  /** Reports to the moderators one user may send per hour: each lands in a person's queue. */
  reportsPerHour: 30,
  /**
   * Pictures one user's apps may upload per hour ahead of their statuses: each is decoded and stored
   * before any status is written, so the post limit alone does not bound them. Twice the pictures
   * of the posts an hour allows.
   */
  uploadsPerHour: 120,
  /**
   * Likes and unlikes, of posts and comments together, one user may send per LIMITS.likeWindowMs.
   * Far above what a person taps (one every two seconds for ten minutes), and above what an offline
   * client replays from its outbox on reconnecting, yet it stops a script liking everything in sight.
   */
  likesPerWindow: 300,
  /**
   * Fediverse handles (`name@host`) one user may have the server look up on other servers per hour:
   * each costs the instance requests to a server it does not know. Past it the search shows only
   * what is already known here.
   */
  remoteLookupsPerHour: 20,
  /** Passkey challenges one address (signing in) or one user (adding a key) may ask for per hour. */
  passkeyChallengesPerHour: 60,
  /**
   * Activities one remote server (by the host of its signing key) may post to the inboxes per hour,
   * and any one network address: a busy server delivering its users' posts, likes and follows stays
   * well under it, a flood does not.
   */
  inboxPostsPerHostPerHour: 3600,
  inboxPostsPerAddressPerHour: 7200,
  /** Notifications of one type between the same two people and group collapse into one within this. */
  notificationCollapseMs: HOUR_MS,
  windowMs: HOUR_MS,
} as const;

export type RateLimits = { -readonly [K in keyof typeof RATE_LIMIT_DEFAULTS]: number };

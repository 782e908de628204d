import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REGISTRATION_MODES, type RegistrationMode, isRegistrationMode } from '#core/api/registration';
import { LIMITS, RATE_LIMIT_DEFAULTS } from '#core/limits';
import { isPostgresUrl, SQLITE_FILE } from './db/database.js';
import type { Rates } from './lib/content-limits.js';
import type { S3Settings } from './lib/s3-storage.js';
import { vapidKeyProblem } from './lib/vapid-keys.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  googleClientId: string | undefined;
  googleJwksUrl: string;
  tenorKey: string | undefined;
  /** Tenor API v2 base URL; tests point it at a local fake. */
  tenorUrl: string;
  /**
   * The content host media is read from (MEDIA_URL, no trailing slash): the web app asks it for
   * what the app serves under /media, and falls back to /media when it fails. Unset: only /media.
   */
  mediaUrl: string | undefined;
  /**
   * Where media bytes live (MEDIA_STORAGE): `local`, the media folder in DATA_DIR (the default,
   * for one server process), or `s3`, a bucket of an S3-compatible service that every process of
   * a deployment shares (S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY,
   * S3_FORCE_PATH_STYLE).
   */
  mediaStorage: MediaStorageConfig;
  /** Folder of the built web app served at /; absent in API-only tests. */
  webDir: string | undefined;
  logLevel: string;
  /**
   * Proxy hops whose X-Forwarded-For is believed (the per-address login lockout keys on the
   * client address, so only a real proxy may set it).
   */
  trustProxy: boolean | string;
  /** Run the background job worker in this process. */
  runWorker: boolean;
  /**
   * How long at most a signed-out reader's public listing is served again from memory
   * (VISITOR_CACHE_MS, default 10000; 0 turns it off). A write forgets them on every process of a
   * PostgreSQL deployment; this bounds what a time-windowed sort or a missed signal can leave behind.
   */
  visitorCacheMs: number;
  /**
   * How long at most a kept listing may go on showing the old counts after a write that only moves
   * them, a like or a new comment (VISITOR_CACHE_COUNTS_MS, default COUNTS_STALE_MS; 0 makes such a
   * write forget the listings at once, as every other write does).
   */
  visitorCacheCountsMs: number;
  /**
   * Web Push: the VAPID key pair from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (both or neither; unset,
   * a pair is generated once and kept in the database, see modules/notifications/push/vapid.ts), and the contact
   * the push services are given (VAPID_SUBJECT, a mailto: or https: URL; default the MAIL_FROM address).
   */
  vapid: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  /**
   * Push endpoints may be plain http:// to this machine's loopback addresses (PUSH_ALLOW_HTTP=true):
   * for tests and local development with a fake push service. Otherwise only https:// endpoints
   * whose every address is public are taken (lib/egress).
   */
  pushAllowHttp: boolean;
  /**
   * Open notification streams one account (STREAMS_PER_ACCOUNT, default 8) and one client address
   * (STREAMS_PER_ADDRESS, default 32) may hold on one server process; a new one past either cap
   * closes that owner's oldest. Each open stream is woken by every change of its user's count. Apps'
   * streaming sockets are capped the same, counted apart from the web app's streams.
   */
  streams: { perAccount: number; perAddress: number };
  /** How long a push service has to answer before the try counts as failed (PUSH_TIMEOUT_MS, default 10000). */
  pushTimeoutMs: number;
  /** Failed deliveries in a row after which a device's subscription is dropped (PUSH_MAX_FAILURES, default 5). */
  pushMaxFailures: number;
  /**
   * Background jobs of a kind run side by side up to their own bound in each process, so a slow kind
   * never holds up another: pushes (JOBS_PUSH_CONCURRENCY, default 8) and mail (JOBS_MAIL_CONCURRENCY,
   * default 2); every other kind one at a time.
   */
  jobConcurrency: { push: number; mail: number };
  /**
   * The bearer token a Prometheus scrape of /metrics must send (METRICS_TOKEN). Unset: /metrics is
   * not served and nothing is measured.
   */
  metricsToken: string | undefined;
  /** Abuse limits (counts per window), from RATE_* variables; defaults in core/limits. */
  rates: Rates;
  /**
   * Data exports this process sends at once (EXPORT_CONCURRENCY, default 2): each holds a database
   * connection's worth of reads and a zip stream for as long as the download lasts, so one more is
   * refused rather than slow every other request down. A bound of the process's own capacity, so
   * it is counted in the process, unlike the per-account hourly limit.
   */
  exportConcurrency: number;
  /**
   * Rows an export reads in one statement (EXPORT_PAGE_SIZE, default 100): what it holds of a list
   * at a time. On SQLite a page's statements hold the process until they end, so a page is kept
   * short: other requests wait for one page of each export in flight at most.
   */
  exportPageSize: number;
  /**
   * Whether the instance speaks to the fediverse (FEDERATION, default false): WebFinger, NodeInfo
   * and ActivityPub actors (modules/federation). Off, none of their paths answer. Off by default
   * because an actor's address is permanent once another server has seen it: an instance turns it
   * on when PUBLIC_URL is its real https address for good.
   */
  federation: boolean;
  /**
   * How new accounts come in until an instance moderator chooses in the app (REGISTRATION_MODE:
   * open, approval, invitation or closed; default open). The moderators' choice is kept in the
   * database and wins from then on, for every process.
   */
  registrationMode: RegistrationMode;
  /**
   * Deliveries to and fetches from remote servers may be plain http:// to this machine's loopback
   * addresses (FEDERATION_ALLOW_HTTP=true): for tests and local development with a fake remote
   * server. Otherwise only https:// servers whose every address is public are reached (lib/egress).
   */
  federationAllowHttp: boolean;
  /**
   * How long a search for a fediverse handle may spend asking its server, WebFinger and the actor
   * together (FEDERATION_LOOKUP_TIMEOUT_MS, default 8000): the search waits on it, so a slow or
   * silent server costs the one searching a few seconds, never a request's worth of timeouts each.
   */
  federationLookupTimeoutMs: number;
  /**
   * How long reading one remote document may take, every redirect included
   * (FEDERATION_FETCH_TIMEOUT_MS, default 5000): a signer's key is read while its inbox request
   * waits, so a server answering slowly, or through a chain of slow redirects, holds it this long at most.
   */
  federationFetchTimeoutMs: number;
  /**
   * Deliveries to other servers: how many each process sends at once (FEDERATION_DELIVERY_CONCURRENCY,
   * default 8), and how many of those may go to one host (FEDERATION_DELIVERY_PER_HOST, default 2,
   * counted across every process), so a host that never answers holds that many at most; how long
   * opening the connection may take (FEDERATION_DELIVERY_CONNECT_TIMEOUT_MS, default 5000) and the
   * whole request (FEDERATION_DELIVERY_TIMEOUT_MS, default 10000); after how many failures in a row
   * a host is parked, its deliveries waiting instead of each trying it (FEDERATION_HOST_PARK_AFTER,
   * default 5), and for how long the first time (FEDERATION_HOST_PARK_MS, default 60000; each park
   * in a row lasts twice as long, up to an hour).
   */
  federationDelivery: FederationDeliveryConfig;
  /**
   * Days a copy of a remote post's picture is kept here after it was fetched (REMOTE_MEDIA_DAYS,
   * default 7): the maintenance job then drops it, and the next reader's request fetches it again
   * from its server. Bounds the storage other servers' pictures take.
   */
  remoteMediaDays: number;
  /**
   * Hours a picture a fediverse app uploaded waits for the status that carries it
   * (STAGED_UPLOAD_HOURS, default 24): the maintenance job then drops one never attached.
   */
  stagedUploadHours: number;
}

export interface FederationDeliveryConfig {
  concurrency: number;
  perHost: number;
  connectTimeoutMs: number;
  timeoutMs: number;
  parkAfter: number;
  parkMs: number;
}

export type MediaStorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

/** MEDIA_STORAGE and, for `s3`, the bucket's settings. */
export function parseMediaStorage(env: NodeJS.ProcessEnv, problems: string[]): MediaStorageConfig {
  const kind = env.MEDIA_STORAGE || 'local';
  if (kind === 'local') return { kind };
  if (kind !== 's3') {
    problems.push(`MEDIA_STORAGE must be local or s3, got "${kind}"`);
    return { kind: 'local' };
  }
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) problems.push(`S3_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
  const bucket = env.S3_BUCKET || '';
  if (!bucket) problems.push('S3_BUCKET is required when MEDIA_STORAGE=s3');
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or both left unset)');
  const pathStyle = env.S3_FORCE_PATH_STYLE || 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') problems.push(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  return {
    kind,
    endpoint,
    bucket,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === 'true',
  };
}

/**
 * The configuration as read from the environment: on PostgreSQL without JWT_SECRET the session
 * secret is still to be read from the database, which buildApp does once it is migrated.
 */
export type LoadedConfig = Omit<Config, 'jwtSecret'> & { jwtSecret: string | undefined };

/** The RATE_* variable of each abuse limit, so an instance can tune them without a code change. */
export const RATE_VARIABLES = {
  postsPerHour: 'RATE_POSTS_PER_HOUR',
  signupsPerAddressPerHour: 'RATE_SIGNUPS_PER_ADDRESS_PER_HOUR',
  emailChangesPerHour: 'RATE_EMAIL_CHANGES_PER_HOUR',
  strangerMentionsPerHour: 'RATE_STRANGER_MENTIONS_PER_HOUR',
  groupActionsPerHour: 'RATE_GROUP_ACTIONS_PER_HOUR',
  exportsPerHour: 'RATE_EXPORTS_PER_HOUR',
  verificationMailsPerAddressPerHour: 'RATE_VERIFICATION_MAILS_PER_ADDRESS_PER_HOUR',
  verificationMailsPerClientPerHour: 'RATE_VERIFICATION_MAILS_PER_CLIENT_PER_HOUR',
  passkeyChallengesPerHour: 'RATE_PASSKEY_CHALLENGES_PER_HOUR',
  remoteLookupsPerHour: 'RATE_REMOTE_LOOKUPS_PER_HOUR',
  editsPerHour: 'RATE_EDITS_PER_HOUR',
  reportsPerHour: 'RATE_REPORTS_PER_HOUR',
  uploadsPerHour: 'RATE_UPLOADS_PER_HOUR',
  likesPerWindow: 'RATE_LIKES_PER_10_MIN',
  inboxPostsPerHostPerHour: 'RATE_INBOX_POSTS_PER_HOST_PER_HOUR',
  inboxPostsPerAddressPerHour: 'RATE_INBOX_POSTS_PER_ADDRESS_PER_HOUR',
  notificationCollapseMs: 'RATE_NOTIFICATION_COLLAPSE_MS',
  windowMs: 'RATE_WINDOW_MS',
  commentsPerWindow: 'RATE_COMMENTS_PER_30_MIN',
} as const;

/** A count of at least 1; `fallback` when unset. */
function parseCount(env: NodeJS.ProcessEnv, variable: string, fallback: number, problems: string[]): number {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 1) return value;
  problems.push(`${variable} must be a whole number of at least 1, got "${raw}"`);
  return fallback;
}

function parseRates(env: NodeJS.ProcessEnv, problems: string[]): Config['rates'] {
  const defaults = { ...RATE_LIMIT_DEFAULTS, commentsPerWindow: LIMITS.commentsPerWindow };
  const rates: Config['rates'] = { ...defaults };
  for (const [field, variable] of Object.entries(RATE_VARIABLES) as [keyof Config['rates'], string][]) {
    rates[field] = parseCount(env, variable, defaults[field], problems);
  }
  return rates;
}

/**
 * See Config.federationLookupTimeoutMs: long enough for a distant, busy server to answer two small
 * documents, short enough that the one searching still sees an answer rather than a hung page.
 */
export const FEDERATION_LOOKUP_TIMEOUT_MS = 8_000;

/**
 * See Config.federationFetchTimeoutMs: a small document from a distant, busy server comes within a
 * second or two; an inbox request should not wait on one much longer than that.
 */
export const FEDERATION_FETCH_TIMEOUT_MS = 5_000;

/** See Config.streams: a few tabs and devices per account, a shared office or home per address. */
export const STREAM_DEFAULTS = { perAccount: 8, perAddress: 32 } as const;

/**
 * A second: a reader does not notice a like or comment count arriving that late (social apps show
 * counts late all the time), and under a steady stream of likes and comments it turns one database
 * read of a visitor's page per write into one per page per second.
 */
export const COUNTS_STALE_MS = 1_000;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const GOOGLE_JWKS = 'https://www.googleapis.com/oauth2/v3/certs';

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * MEDIA_URL: an absolute http(s) URL with no query, fragment or credentials, since the web app
 * appends a media path (and a signed image's query) to it. Answers it without a trailing slash,
 * or a problem.
 */
export function parseMediaUrl(raw: string | undefined): { url: string | undefined } | { problem: string } {
  if (raw === undefined || raw === '') return { url: undefined };
  const problem = { problem: `MEDIA_URL must be an absolute http:// or https:// URL without a query, got "${raw}"` };
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return problem;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return problem;
  if (parsed.search || parsed.hash || parsed.username || parsed.password || raw.includes('?') || raw.includes('#')) return problem;
  return { url: `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '') };
}

/** The shortest JWT_SECRET taken: HS256 wants a key at least as long as its hash. */
export const JWT_SECRET_MIN_LENGTH = 32;

/** The folder in DATA_DIR of the media with MEDIA_STORAGE=local. */
export const LOCAL_MEDIA_FOLDER = 'media';

/** The file in DATA_DIR of the generated session secret (SQLite only). */
export const JWT_SECRET_FILE = 'jwt-secret';

/** A new random session secret (64 characters). */
export const newJwtSecret = (): string => randomBytes(48).toString('base64url');

/**
 * SQLite (one machine): a secret kept beside the data so restarts keep sessions valid without
 * configuration. PostgreSQL keeps it in the database instead (see modules/auth/session-secret.ts).
 */
function storedSecret(dataDir: string): string {
  const file = join(dataDir, JWT_SECRET_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = newJwtSecret();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The address in MAIL_FROM (`Kruh <no-reply@kruh.local>` -> no-reply@kruh.local). */
function mailAddress(mailFrom: string): string {
  return (/<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
}

/** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither, each a key web-push accepts. */
function parseVapid(env: NodeJS.ProcessEnv, problems: string[]): Config['vapid'] {
  const publicKey = env.VAPID_PUBLIC_KEY || undefined;
  const privateKey = env.VAPID_PRIVATE_KEY || undefined;
  if (!publicKey && !privateKey) return undefined;
  if (!publicKey || !privateKey) {
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or both left unset)');
    return undefined;
  }
  const problem = vapidKeyProblem(publicKey, privateKey);
  if (problem) problems.push(problem);
  return { publicKey, privateKey };
}

function parseVapidSubject(raw: string | undefined, mailFrom: string, problems: string[]): string {
  const subject = raw || `mailto:${mailAddress(mailFrom)}`;
  if (!/^mailto:\S+@\S+$/.test(subject) && !/^https:\/\/\S+$/.test(subject)) {
    problems.push(`VAPID_SUBJECT must be a mailto: or https: URL, got "${subject}"`);
  }
  return subject;
}

/** A duration in whole milliseconds, 0 included; `fallback` when unset. */
function parseMs(env: NodeJS.ProcessEnv, variable: string, fallback: number, problems: string[]): number {
  const raw = env[variable];
  const value = Number(raw || fallback);
  if (!Number.isInteger(value) || value < 0) problems.push(`${variable} must be a whole number of milliseconds, got "${raw}"`);
  return value;
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (!value || value === 'false') return false;
  return value === 'true' ? true : value;
}

/**
 * Reads the settings in `path` (a .env file) into process.env when the file is there; a variable
 * already set in the environment keeps its value, so a deployment's own settings win over the
 * file. Answers whether there was a file. (Node 22.9's --env-file-if-exists does this too; this
 * works on every Node the project runs on.)
 */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

/** Reads and checks the environment; every problem is listed at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const problems: string[] = [];
  const port = Number(env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a port number, got "${env.PORT}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !isPostgresUrl(databaseUrl)) problems.push('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)');
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  const publicUrl = env.PUBLIC_URL || `http://localhost:${port}`;
  if (!isUrl(publicUrl)) problems.push(`PUBLIC_URL must be a URL, got "${env.PUBLIC_URL}"`);
  const googleJwksUrl = env.GOOGLE_JWKS_URL || GOOGLE_JWKS;
  if (!isUrl(googleJwksUrl)) problems.push('GOOGLE_JWKS_URL must be a URL');
  const tenorUrl = (env.TENOR_URL || 'https://tenor.googleapis.com/v2').replace(/\/$/, '');
  if (!isUrl(tenorUrl)) problems.push('TENOR_URL must be a URL');
  // Empty is unset, as an uncommented `JWT_SECRET=` line of .env.example leaves it.
  if (env.JWT_SECRET && env.JWT_SECRET.length < JWT_SECRET_MIN_LENGTH) problems.push(`JWT_SECRET must be at least ${JWT_SECRET_MIN_LENGTH} characters`);
  const media = parseMediaUrl(env.MEDIA_URL);
  if ('problem' in media) problems.push(media.problem);
  const mediaStorage = parseMediaStorage(env, problems);
  const visitorCacheMs = parseMs(env, 'VISITOR_CACHE_MS', 10_000, problems);
  const visitorCacheCountsMs = parseMs(env, 'VISITOR_CACHE_COUNTS_MS', COUNTS_STALE_MS, problems);
  const rates = parseRates(env, problems);
  const streams = {
    perAccount: parseCount(env, 'STREAMS_PER_ACCOUNT', STREAM_DEFAULTS.perAccount, problems),
    perAddress: parseCount(env, 'STREAMS_PER_ADDRESS', STREAM_DEFAULTS.perAddress, problems),
  };
  const exportConcurrency = parseCount(env, 'EXPORT_CONCURRENCY', 2, problems);
  const exportPageSize = parseCount(env, 'EXPORT_PAGE_SIZE', 100, problems);
  const vapid = parseVapid(env, problems);
  const mailFrom = env.MAIL_FROM || 'Kruh <no-reply@kruh.local>';
  const vapidSubject = parseVapidSubject(env.VAPID_SUBJECT, mailFrom, problems);
  const pushTimeoutMs = parseCount(env, 'PUSH_TIMEOUT_MS', 10_000, problems);
  const pushMaxFailures = parseCount(env, 'PUSH_MAX_FAILURES', 5, problems);
  const jobConcurrency = {
    push: parseCount(env, 'JOBS_PUSH_CONCURRENCY', 8, problems),
    mail: parseCount(env, 'JOBS_MAIL_CONCURRENCY', 2, problems),
  };
  const federationLookupTimeoutMs = parseCount(env, 'FEDERATION_LOOKUP_TIMEOUT_MS', FEDERATION_LOOKUP_TIMEOUT_MS, problems);
  const federationFetchTimeoutMs = parseCount(env, 'FEDERATION_FETCH_TIMEOUT_MS', FEDERATION_FETCH_TIMEOUT_MS, problems);
  const federationDelivery: FederationDeliveryConfig = {
    concurrency: parseCount(env, 'FEDERATION_DELIVERY_CONCURRENCY', 8, problems),
    perHost: parseCount(env, 'FEDERATION_DELIVERY_PER_HOST', 2, problems),
    connectTimeoutMs: parseCount(env, 'FEDERATION_DELIVERY_CONNECT_TIMEOUT_MS', 5_000, problems),
    timeoutMs: parseCount(env, 'FEDERATION_DELIVERY_TIMEOUT_MS', 10_000, problems),
    parkAfter: parseCount(env, 'FEDERATION_HOST_PARK_AFTER', 5, problems),
    parkMs: parseCount(env, 'FEDERATION_HOST_PARK_MS', 60_000, problems),
  };
  const remoteMediaDays = parseCount(env, 'REMOTE_MEDIA_DAYS', 7, problems);
  const stagedUploadHours = parseCount(env, 'STAGED_UPLOAD_HOURS', 24, problems);
  const federation = env.FEDERATION || 'false';
  if (federation !== 'true' && federation !== 'false') problems.push(`FEDERATION must be true or false, got "${federation}"`);
  const registrationMode = env.REGISTRATION_MODE || 'open';
  if (!isRegistrationMode(registrationMode)) problems.push(`REGISTRATION_MODE must be one of ${REGISTRATION_MODES.join(', ')}, got "${registrationMode}"`);
  if (problems.length) throw new ConfigError(problems);

  const dataDir = resolve(env.DATA_DIR || './data');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    // PostgreSQL: every process must sign with the same secret, so buildApp reads it from the database.
    jwtSecret: env.JWT_SECRET || (databaseUrl ? undefined : storedSecret(dataDir)),
    smtpUrl,
    mailFrom,
    publicUrl: publicUrl.replace(/\/$/, ''),
    googleClientId: env.GOOGLE_CLIENT_ID || undefined,
    googleJwksUrl,
    tenorKey: env.TENOR_KEY || undefined,
    tenorUrl,
    mediaUrl: 'url' in media ? media.url : undefined,
    mediaStorage,
    webDir: resolve(env.WEB_DIR || './dist'),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    runWorker: env.RUN_WORKER !== 'false',
    visitorCacheMs,
    visitorCacheCountsMs,
    streams,
    rates,
    exportConcurrency,
    exportPageSize,
    vapid,
    vapidSubject,
    pushAllowHttp: env.PUSH_ALLOW_HTTP === 'true',
    federationAllowHttp: env.FEDERATION_ALLOW_HTTP === 'true',
    federationLookupTimeoutMs,
    federationFetchTimeoutMs,
    federationDelivery,
    remoteMediaDays,
    stagedUploadHours,
    pushTimeoutMs,
    pushMaxFailures,
    jobConcurrency,
    metricsToken: env.METRICS_TOKEN || undefined,
    federation: federation === 'true',
    registrationMode: isRegistrationMode(registrationMode) ? registrationMode : 'open',
  };
}

/** What a server process runs with, for the one line it logs when it starts (no password or key in it). */
export interface StartupSummary {
  version: string;
  database: string;
  media: string;
  worker: 'on' | 'off';
  federation: 'on' | 'off';
  mail: string;
}

/** A URL's host (and database path), with its user name and password left out. */
function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

/** The settings the line names. */
export type SummarizedConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'mediaStorage' | 'runWorker' | 'federation' | 'smtpUrl'>;

export function startupSummary(config: SummarizedConfig, version: string): StartupSummary {
  const media = config.mediaStorage;
  return {
    version,
    database: config.databaseUrl ? `postgresql ${where(config.databaseUrl)}` : `sqlite ${join(config.dataDir, SQLITE_FILE)}`,
    media: media.kind === 's3' ? `s3 bucket ${media.bucket}${media.endpoint ? ` at ${media.endpoint}` : ''}` : `local ${join(config.dataDir, LOCAL_MEDIA_FOLDER)}`,
    worker: config.runWorker ? 'on' : 'off',
    federation: config.federation ? 'on' : 'off',
    mail: config.smtpUrl ? `smtp ${where(config.smtpUrl)}` : `outbox ${join(config.dataDir, 'outbox')}`,
  };
}

/** The summary as the message of the line, so it reads without a JSON viewer too. */
export function startupMessage(summary: StartupSummary): string {
  return (
    `Kruh ${summary.version} started: database ${summary.database}, media ${summary.media}, ` +
    `worker ${summary.worker}, federation ${summary.federation}, mail ${summary.mail}`
  );
}

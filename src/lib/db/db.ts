import Dexie, { type Table } from 'dexie';
import type { ErrorKey } from '#core/errors';
import type { Comment, Post } from '../api/types';
import { forgetPrivateMedia } from '../media-cache';
import { clearSession, getSession, subscribeSession } from '../session-store';

/**
 * The local database: what the UI reads first (posts, comments, feed pages...), the drafts being
 * written and the outbox of changes not yet sent. One database per account (`kruh-<userId>`,
 * `kruh-visitor` when logged out), so a second person logging in on the same device never sees
 * the first one's cache, drafts or pending posts.
 */

export interface CachedPost extends Post {
  cachedAt: number;
}
export interface CachedComment extends Comment {
  cachedAt: number;
}
export interface CachedProfile {
  username: string;
  data: unknown;
  cachedAt: number;
}
export interface CachedGroup {
  name: string;
  data: unknown;
  cachedAt: number;
}
export interface CachedNotification {
  _id: string;
  data: unknown;
  cachedAt: number;
}

/** One page of a listing: the ids in the server's order. */
export interface FeedPageRow {
  feedKey: string;
  page: number;
  ids: string[];
  hasMore: boolean;
  fetchedAt: number;
  /** What else the page's answer held besides its items (a member list's group, for instance). */
  reply?: Record<string, unknown>;
  /** The cursor asking for the next page, of a list paged by the server's cursor (see PageCursor). */
  cursor?: string;
}

/** An item of a list that has no table of its own (followers, members, search results...). */
export interface ListItemRow {
  /** The stored key of the list (its pages are in feedPages under the same key). */
  listKey: string;
  id: string;
  data: unknown;
  cachedAt: number;
}

/** A mention or group slot of the composer: the typed text and, once picked, the chosen id. */
export interface Slot {
  query: string;
  id: string | null;
  /** Preset and not editable (a reply's groups, the `g` parameter). */
  locked?: boolean;
}

export interface DraftImage {
  blob: Blob;
  name: string;
  /** The image's description (alt text) as written; sent with its upload. Absent: none yet. */
  alt?: string;
}

export interface Draft {
  key: string;
  text: string;
  mentions: Slot[];
  groups: Slot[];
  images: DraftImage[];
  /**
   * The post's content warning as written; absent when the author has not asked for one (an
   * empty string is a warning switched on but not written yet). Posts only.
   */
  contentWarning?: string;
  updatedAt: number;
  /** Set when the draft came back from the outbox after the server refused it. */
  returnedError?: ErrorKey;
}

/**
 * `refused`: the server refused the item while the app was closed (Background Sync); the app gives
 * it back with its error when it next runs.
 */
export type OutboxStatus = 'pending' | 'sending' | 'failed' | 'refused';

/** What a block or mute item sets: blocking or muting a user (by id), or muting a hashtag. */
export type SafetyAction = 'block' | 'mute' | 'muteTag';

interface OutboxBase {
  seq?: number;
  idempotencyKey: string;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: number;
  error?: ErrorKey;
  createdAt: number;
  /** Stands in for the server id while the item is only local. */
  clientId: string;
  /** The draft the item was written in, for returning it there when refused. */
  draftKey?: string;
  /** Id the server gave once the item was created (images may still be uploading). */
  createdId?: string;
  /** Images already uploaded. */
  uploaded?: number;
}
/**
 * The kinds of item the outbox holds, each with its payload and its target (the key later changes
 * of one thing fold into, `undefined` for a kind without one). Each kind's module in
 * `src/lib/outbox/kinds/` adds its own entry, so this file types the table without importing the
 * outbox, which lies above it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the kinds' modules
export interface OutboxKinds {}

export type OutboxKind = keyof OutboxKinds;
export type OutboxRow = { [K in OutboxKind]: OutboxBase & { kind: K; images: DraftImage[] } & OutboxKinds[K] }[OutboxKind];
/** The outbox row of one kind. */
export type OutboxRowOf<K extends OutboxKind> = Extract<OutboxRow, { kind: K }>;

export interface MetaRow {
  key: string;
  value: unknown;
}

export class KruhDb extends Dexie {
  posts!: Table<CachedPost, string>;
  comments!: Table<CachedComment, string>;
  profiles!: Table<CachedProfile, string>;
  groups!: Table<CachedGroup, string>;
  notifications!: Table<CachedNotification, string>;
  feedPages!: Table<FeedPageRow, [string, number]>;
  listItems!: Table<ListItemRow, [string, string]>;
  drafts!: Table<Draft, string>;
  outbox!: Table<OutboxRow, number>;
  meta!: Table<MetaRow, string>;
}

export interface SchemaVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: import('dexie').Transaction) => Promise<void> | void;
}

/** Prefixes of meta rows an earlier release kept and nothing reads any more. */
const RETIRED_META_PREFIXES = ['moderation:', 'groups-of:'];

/**
 * Every schema the app ever shipped, oldest first. A new version is APPENDED (never edit an
 * old one), with an upgrade function when existing rows need reshaping, so a device that was
 * offline for a few releases still opens its database without losing drafts or the outbox.
 */
export const SCHEMA_VERSIONS: SchemaVersion[] = [
  {
    version: 1,
    stores: {
      posts: '_id, createdAt, cachedAt',
      comments: '_id, postId, [postId+createdAt], cachedAt',
      profiles: 'username, cachedAt',
      groups: 'name, cachedAt',
      notifications: '_id, cachedAt',
      feedPages: '[feedKey+page], feedKey, fetchedAt',
      drafts: 'key, updatedAt',
      outbox: '++seq, kind, status, target, clientId',
      meta: 'key',
    },
  },
  {
    // Lists that used to live only in memory (followers, members, search results) read offline.
    version: 2,
    stores: { listItems: '[listKey+id], listKey' },
  },
  {
    // The moderation lists and a user's groups moved to the paged lists; their old single rows in
    // meta would otherwise stay until logout, read by nothing.
    version: 3,
    stores: {},
    upgrade: async (tx) => {
      await tx.table('meta').where('key').startsWithAnyOf(RETIRED_META_PREFIXES).delete();
    },
  },
];

export function openDb(name: string, versions: SchemaVersion[] = SCHEMA_VERSIONS): KruhDb {
  const db = new KruhDb(name);
  for (const v of versions) {
    const declared = db.version(v.version).stores(v.stores);
    if (v.upgrade) declared.upgrade(v.upgrade);
  }
  return db;
}

export const dbNameFor = (userId: string | null | undefined): string => (userId ? `kruh-${userId}` : 'kruh-visitor');

let current: KruhDb | null = null;

/** The database of whoever is logged in now (the visitor database when nobody is). */
export function getDb(): KruhDb {
  const name = dbNameFor(getSession().token ? getSession().id : null);
  if (current?.name !== name) {
    current?.close();
    current = openDb(name);
  }
  return current;
}

export function subscribeDb(listener: () => void): () => void {
  return subscribeSession(listener);
}

/** Items of the current account's outbox still waiting to be sent (warn before logout). */
export async function pendingOutboxCount(db: KruhDb = getDb()): Promise<number> {
  return db.outbox.count();
}

/** Deletes the current account's local database (cache, drafts, outbox); the session stays. */
export async function clearLocalData(): Promise<void> {
  const db = getDb();
  const name = db.name;
  db.close();
  if (current === db) current = null;
  await Dexie.delete(name);
}

/**
 * Logs out and deletes the account's local database and the private-group images the service
 * worker kept for offline reading. The caller asks for confirmation first, warning with
 * pendingOutboxCount() when unsent items would be lost. The session is cleared before the
 * deletion, so nothing reopens the database in between.
 */
export async function logoutAndClear(): Promise<void> {
  const name = getDb().name;
  clearSession();
  if (current?.name === name) {
    current.close();
    current = null;
  }
  // A browser without Cache Storage here (private mode) must still finish the logout.
  await Promise.all([Dexie.delete(name), forgetPrivateMedia().catch(() => 0)]);
}

let persistenceAsked = false;

/** Asks the browser to keep our storage under pressure (drafts and the outbox live there). */
export async function requestPersistence(): Promise<boolean> {
  if (persistenceAsked) return false;
  persistenceAsked = true;
  try {
    if (typeof navigator === 'undefined' || !navigator.storage?.persist) return false;
    if (await navigator.storage.persisted?.()) return true;
    return await navigator.storage.persist();
  } catch {
    return false;
  }
}

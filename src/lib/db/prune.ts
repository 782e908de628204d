import type { Table } from 'dexie';
import { type KruhDb, getDb, subscribeDb } from './db';

/**
 * Keeps the local cache bounded. What the server sent (posts, comments, list pages, profiles,
 * groups, notifications) is a copy that can be fetched again, so it is dropped least recently
 * fetched first once it is older than `maxAgeMs` or beyond its count. What only this device holds
 * (the outbox and drafts) is never touched, nor the posts the outbox still refers to (a pending
 * like's post, a pending comment's thread), so pending items keep showing where they belong.
 *
 * Lists go whole: dropping page 3 of a feed but keeping page 4 would leave a hole offline.
 */
export interface CacheLimits {
  maxAgeMs: number;
  /** Lists (feeds, comment threads, member and search lists) kept, by their last fetch. */
  maxLists: number;
  maxPosts: number;
  maxComments: number;
  /** Profiles, groups and notifications each. */
  maxOthers: number;
}

const DAY = 24 * 60 * 60 * 1000;

export const CACHE_LIMITS: CacheLimits = {
  maxAgeMs: 30 * DAY,
  maxLists: 300,
  maxPosts: 4_000,
  maxComments: 8_000,
  maxOthers: 1_000,
};

/** How much room a quota error asks for: a tenth of every limit, and nothing older than a day. */
export const TIGHT_LIMITS: CacheLimits = {
  maxAgeMs: DAY,
  maxLists: CACHE_LIMITS.maxLists / 10,
  maxPosts: CACHE_LIMITS.maxPosts / 10,
  maxComments: CACHE_LIMITS.maxComments / 10,
  maxOthers: CACHE_LIMITS.maxOthers / 10,
};

export interface PruneResult {
  lists: number;
  posts: number;
  comments: number;
  others: number;
}

/** Ids to drop: those not kept, older than the cut-off, then the oldest beyond `max`. */
function overflow<T>(rows: T[], idOf: (row: T) => string, timeOf: (row: T) => number, max: number, cutoff: number, keep: Set<string>): string[] {
  const candidates = rows.filter((row) => !keep.has(idOf(row))).sort((a, b) => timeOf(b) - timeOf(a));
  const room = Math.max(0, max - (rows.length - candidates.length));
  return candidates.filter((row, i) => i >= room || timeOf(row) < cutoff).map(idOf);
}

/** Drops the rows of a table that nothing else points at; answers how many. */
async function dropRows<T extends { cachedAt: number }>(table: Table<T, string>, idOf: (row: T) => string, max: number, cutoff: number): Promise<number> {
  const dropped = overflow(await table.toArray(), idOf, (row) => row.cachedAt, max, cutoff, new Set());
  await table.bulkDelete(dropped);
  return dropped.length;
}

/** Posts and comments this device still needs for what it has not sent yet. */
async function pendingReferences(db: KruhDb): Promise<Set<string>> {
  const ids = new Set<string>();
  await db.outbox.each((row) => {
    if (row.kind === 'like') ids.add(row.payload.id);
    else if (row.kind === 'edit') ids.add(row.payload.postId);
    else if (row.kind === 'comment') {
      ids.add(row.payload.postId);
      ids.add(row.payload.parent);
    } else if (row.kind === 'post' && row.payload.replyingTo) ids.add(row.payload.replyingTo);
  });
  return ids;
}

export async function pruneCache(db: KruhDb, limits: CacheLimits = CACHE_LIMITS, now: number = Date.now()): Promise<PruneResult> {
  const cutoff = now - limits.maxAgeMs;
  return db.transaction('rw', [db.feedPages, db.listItems, db.posts, db.comments, db.profiles, db.groups, db.notifications, db.outbox], async () => {
    const lastFetch = new Map<string, number>();
    await db.feedPages.each((page) => lastFetch.set(page.feedKey, Math.max(lastFetch.get(page.feedKey) ?? 0, page.fetchedAt)));
    const lists = [...lastFetch.entries()];
    const droppedLists = overflow(lists, ([key]) => key, ([, at]) => at, limits.maxLists, cutoff, new Set());
    for (const key of droppedLists) {
      await db.feedPages.where('feedKey').equals(key).delete();
      await db.listItems.where('listKey').equals(key).delete();
    }

    // What a kept list shows stays, whatever its age: its pages would otherwise point at nothing.
    const keep = await pendingReferences(db);
    await db.feedPages.each((page) => page.ids.forEach((id) => keep.add(id)));

    const posts = await db.posts.toArray();
    const droppedPosts = overflow(posts, (p) => p._id, (p) => p.cachedAt, limits.maxPosts, cutoff, keep);
    await db.posts.bulkDelete(droppedPosts);

    const comments = await db.comments.toArray();
    const droppedComments = overflow(comments, (c) => c._id, (c) => c.cachedAt, limits.maxComments, cutoff, keep);
    await db.comments.bulkDelete(droppedComments);

    const others = await Promise.all([
      dropRows(db.profiles, (r) => r.username, limits.maxOthers, cutoff),
      dropRows(db.groups, (r) => r.name, limits.maxOthers, cutoff),
      dropRows(db.notifications, (r) => r._id, limits.maxOthers, cutoff),
    ]);
    return { lists: droppedLists.length, posts: droppedPosts.length, comments: droppedComments.length, others: others.reduce((a, b) => a + b, 0) };
  });
}

/** Whether an error is the browser refusing to store more (Dexie wraps the DOMException). */
export function isQuotaError(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { inner?: unknown }).inner) {
    if ((e as { name?: string }).name === 'QuotaExceededError') return true;
  }
  return false;
}

/**
 * Runs a write; when storage is full, makes room in the cache and tries once more. Meant for what
 * must not be lost (an outbox item, a draft): if even then there is no room, the error reaches the
 * caller, which keeps the text on screen and says so rather than dropping it.
 */
export async function withRoom<T>(db: KruhDb, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isQuotaError(err)) throw err;
    await pruneCache(db, TIGHT_LIMITS);
    return write();
  }
}

/**
 * Prunes the current account's cache a little after start and after each change of account, off
 * the path of the first paint. Answers a function that stops it.
 */
export function startCacheUpkeep(delayMs = 10_000): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      pruneCache(getDb()).catch((err: unknown) => console.warn('cache upkeep', err));
    }, delayMs);
  };
  later();
  const unsubscribe = subscribeDb(later);
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

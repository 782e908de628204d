/**
 * Fills a migrated database with realistic data straight through the data layer (Kysely batch
 * inserts in transactions), for the performance benchmark and for trying the app by hand.
 *
 * Every row is written as the app's own code paths would leave it: search_text is
 * foldForSearch of the searchable text (the FTS5 triggers on SQLite and the pg_trgm indexes on
 * PostgreSQL index it on insert), names carry their look-alike skeleton, post hashtags are
 * extractHashtags of the text, and every counter equals the rows it counts (posts.likes and
 * posts.comments, comments.likes and comments.replies, groups.members). The shape: two years of
 * dates, long-tailed authors, likes, comments and follows, 10% of posts in groups (some private,
 * always by a member), mentions, hashtags, 20% replies, threaded comments, one user following
 * 1,000 others, and one very large group. A seeded PRNG makes a run reproducible.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'kysely';
import { extractHashtags, foldForSearch, skeleton } from '#core/text';
import { loadConfig } from '../src/config';
import type { Dialect } from '../src/db/dialect';
import type { Database, Db } from '../src/db/schema';
import { migrateToLatest } from '../src/db/migrator';
import { dropValueSamples } from '../src/db/sqlite-statistics';
import { countEveryAccount } from '../src/modules/counters/account-counts';
import { newId } from '../src/lib/ids';
import { secretHash } from '../src/modules/clientapi/apps.service';

export interface SeedOptions {
  users: number;
  posts: number;
  likes: number;
  comments: number;
  groups: number;
  /** Members of the one very large group (capped at the user count; default half the users, at most 50,000). */
  bigGroupMembers: number;
  /** Users the one heavy follower follows (capped at the user count less one). */
  heavyFollows: number;
  /** Comments on the one busy post (capped at half the comments). */
  hotPostComments: number;
  /** PRNG seed. */
  seed: number;
  /** Reference "now" (epoch ms): dates run over the two years before it. */
  now: number;
}

export const FULL_SIZE = { users: 100_000, posts: 1_000_000, likes: 5_000_000, comments: 1_000_000, groups: 1_000 } as const;

export function seedOptions(partial: Partial<SeedOptions> = {}): SeedOptions {
  const users = partial.users ?? FULL_SIZE.users;
  return {
    ...FULL_SIZE,
    // One group of half the users, 50,000 at the full size.
    bigGroupMembers: Math.min(50_000, Math.max(1, Math.floor(users / 2))),
    heavyFollows: 1_000,
    hotPostComments: 500,
    seed: 1,
    now: Date.now(),
    ...partial,
  };
}

/** Fixed names the benchmark looks up. */
export const SEED_NAMES = {
  heavyFollower: 'seed_follows1000',
  bigGroup: 'seed_biggroup',
  /** A word in about a third of the posts (the "common word" search). */
  commonWord: 'coffee',
  /** A prefix of many usernames (the user search). */
  userQuery: 'anna',
} as const;

export interface SeedSummary {
  users: number;
  follows: number;
  groups: number;
  groupMembers: number;
  posts: number;
  postLikes: number;
  comments: number;
  commentLikes: number;
  notifications: number;
  heavyFollowerId: string;
  bigGroupId: string;
  hotPostId: string;
  ms: number;
}

/** Called per phase: `start(phase, total)`, then `tick(done)` as rows go in, then `stop()`. */
export interface Progress {
  start(phase: string, total: number): void;
  tick(done: number): void;
  stop(): void;
}

export const silentProgress: Progress = { start() {}, tick() {}, stop() {} };

// ---- Randomness --------------------------------------------------------------------------------

/** mulberry32: small, fast, seeded. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An index in [0, n) skewed to the low end (a Pareto-like long tail): few hot, many cold. */
function skewed(rand: () => number, n: number, power = 2.2): number {
  return Math.min(n - 1, Math.floor(n * Math.pow(rand(), power)));
}

/** Integer weights of a long tail summing to exactly `total`, each at most `cap`. */
function longTail(rand: () => number, count: number, total: number, cap: number, alpha = 1.1): Int32Array {
  const out = new Int32Array(count);
  if (count === 0 || total === 0) return out;
  const weights = new Float64Array(count);
  let sum = 0;
  for (let i = 0; i < count; i++) {
    // Pareto draw: heavy tail, most items small.
    const w = 1 / Math.pow(1 - rand() * 0.999999, 1 / alpha);
    weights[i] = w;
    sum += w;
  }
  let assigned = 0;
  for (let i = 0; i < count; i++) {
    const v = Math.min(cap, Math.floor((weights[i]! / sum) * total));
    out[i] = v;
    assigned += v;
  }
  // Hand out the rounding remainder to random items with room left.
  let guard = 0;
  const maxTotal = Math.min(total, count * cap);
  while (assigned < maxTotal && guard++ < 50 * count + total) {
    const i = Math.floor(rand() * count);
    if (out[i]! < cap) {
      out[i]!++;
      assigned++;
    }
  }
  return out;
}

/** `k` distinct integers in [0, n), excluding `exclude`. */
function distinct(rand: () => number, n: number, k: number, exclude = -1): number[] {
  const room = exclude >= 0 && exclude < n ? n - 1 : n;
  k = Math.min(k, room);
  if (k * 3 > n) {
    // Dense: partial Fisher-Yates over the whole range.
    const all = Array.from({ length: n }, (_, i) => i).filter((i) => i !== exclude);
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(rand() * (all.length - i));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    return all.slice(0, k);
  }
  const seen = new Set<number>();
  while (seen.size < k) {
    const v = Math.floor(rand() * n);
    if (v !== exclude) seen.add(v);
  }
  return [...seen];
}

/** Like newId, but from the seeded PRNG so a run is reproducible. */
function seededId(rand: () => number, at: number): string {
  const seconds = Math.floor(at / 1000).toString(16).padStart(8, '0');
  let tail = '';
  for (let i = 0; i < 4; i++) tail += Math.floor(rand() * 0x10000).toString(16).padStart(4, '0');
  return seconds + tail;
}

// ---- Words ---------------------------------------------------------------------------------------

const FIRST_NAMES = [
  'anna', 'jan', 'petr', 'eva', 'tomas', 'lucie', 'martin', 'jana', 'pavel', 'tereza', 'jakub', 'klara', 'ondrej', 'marie',
  'lukas', 'veronika', 'david', 'barbora', 'filip', 'zuzana', 'adam', 'katerina', 'vojtech', 'monika', 'matej', 'lenka',
  'sofia', 'liam', 'noah', 'emma', 'olivia', 'mia', 'lena', 'felix', 'hugo', 'ines', 'jose', 'chloe', 'zoe', 'renee',
];
const WORDS = [
  'morning', 'walk', 'river', 'city', 'garden', 'music', 'concert', 'book', 'reading', 'train', 'station', 'weekend',
  'market', 'bread', 'soup', 'rain', 'sunny', 'mountain', 'bike', 'photo', 'friends', 'school', 'work', 'meeting',
  'project', 'idea', 'question', 'answer', 'evening', 'dinner', 'recipe', 'tea', 'football', 'match', 'film', 'cinema',
  'holiday', 'summer', 'winter', 'snow', 'forest', 'dog', 'cat', 'family', 'news', 'town', 'bridge', 'lake', 'museum',
  'café', 'crème', 'naïve', 'déjà', 'über', 'jalapeño', 'smörgåsbord', 'piñata', 'résumé', 'façade',
];
const TAGS = ['photo', 'music', 'food', 'travel', 'books', 'sport', 'news', 'art', 'tech', 'nature', 'kruh', 'weekend', 'café', 'praha', 'brno'];

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[skewed(rand, WORDS.length, 1.4)]!);
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ---- Batched inserts -----------------------------------------------------------------------------

/** Bound parameters per statement: SQLite allows 32,766, PostgreSQL 65,535. */
const MAX_PARAMS = 30_000;

type Tables = keyof Database;

class Writer {
  private buffers = new Map<Tables, Record<string, unknown>[]>();
  written = 0;
  constructor(private readonly db: Db) {}

  async add(table: Tables, row: Record<string, unknown>): Promise<void> {
    let buffer = this.buffers.get(table);
    if (!buffer) this.buffers.set(table, (buffer = []));
    buffer.push(row);
    const columns = Object.keys(row).length || 1;
    // A full buffer flushes every table, parents first, so foreign keys always find their rows.
    if (buffer.length >= Math.floor(MAX_PARAMS / columns) || buffer.length >= 2000) await this.flush();
  }

  /** Writes the buffered rows of every table (or of `upTo` and the tables before it), parents first. */
  async flush(upTo?: Tables): Promise<void> {
    const order = upTo ? FLUSH_ORDER.slice(0, FLUSH_ORDER.indexOf(upTo) + 1) : FLUSH_ORDER;
    for (const t of order) {
      const rows = this.buffers.get(t);
      if (!rows || rows.length === 0) continue;
      this.buffers.set(t, []);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      await this.db.transaction().execute((trx) => trx.insertInto(t).values(rows as any).execute());
      this.written += rows.length;
    }
  }

}

/** Parents before children. */
const FLUSH_ORDER: Tables[] = [
  'users', 'follows', 'groups', 'group_members', 'posts', 'post_mentions', 'post_groups', 'post_hashtags', 'post_likes',
  'comments', 'comment_mentions', 'comment_likes', 'notifications',
];

// ---- The seed ------------------------------------------------------------------------------------

const DAY = 24 * 60 * 60 * 1000;
const TWO_YEARS = 730 * DAY;

/**
 * Seeds an empty, migrated database. Rows reference each other in insertion order (users, follows,
 * groups and members, posts with their tags, likes, comments, notifications), each phase flushed
 * before the next starts, so foreign keys hold throughout.
 */
export async function seedDatabase(db: Db, dialect: Dialect, options: SeedOptions, progress: Progress = silentProgress): Promise<SeedSummary> {
  const started = performance.now();
  const rand = prng(options.seed);
  const { now } = options;
  const start = now - TWO_YEARS;
  const w = new Writer(db);
  const nUsers = Math.max(2, options.users);

  if (dialect === 'sqlite') {
    // The file is being built from scratch: a crash just means seeding again.
    await sql`pragma synchronous = off`.execute(db);
  }

  // Users: joined over the two years, early ones more active.
  progress.start('users', nUsers);
  const userIds: string[] = new Array(nUsers);
  const userNames: string[] = new Array(nUsers);
  const userJoined = new Float64Array(nUsers);
  const skeletons = new Set<string>();
  for (let i = 0; i < nUsers; i++) {
    const joined = start + Math.floor((i / nUsers) * TWO_YEARS * 0.9 + rand() * DAY);
    const name = i === 0 ? SEED_NAMES.heavyFollower : `${FIRST_NAMES[i % FIRST_NAMES.length]}_${i}`;
    const lower = name.toLowerCase();
    const skel = skeleton(name);
    const unique = !skeletons.has(skel);
    skeletons.add(skel);
    const id = seededId(rand, joined);
    userIds[i] = id;
    userNames[i] = name;
    userJoined[i] = joined;
    await w.add('users', {
      id,
      username: name,
      username_lower: lower,
      username_skeleton: unique ? skel : null,
      email: `${lower}@seed.test`,
      verified: 1,
      bio: rand() < 0.3 ? sentence(rand, 6) : '',
      search_text: foldForSearch(name),
      created_at: joined,
    });
    if (i % 1000 === 0) progress.tick(i);
  }
  await w.flush();
  progress.tick(nUsers);
  progress.stop();

  // Follows: long-tailed out-degree; popular (low-index) users get most followers. User 0 follows 1,000.
  const followCounts = longTail(rand, nUsers, nUsers * 10, Math.min(nUsers - 1, 2000));
  followCounts[0] = Math.min(options.heavyFollows, nUsers - 1);
  let totalFollows = 0;
  for (const c of followCounts) totalFollows += c;
  progress.start('follows', totalFollows);
  let follows = 0;
  const followersOf0: number[] = [];
  for (let i = 0; i < nUsers; i++) {
    const k = followCounts[i]!;
    if (k === 0) continue;
    const targets = new Set<number>();
    if (k * 3 > nUsers) for (const t of distinct(rand, nUsers, k, i)) targets.add(t);
    else
      while (targets.size < k) {
        const t = skewed(rand, nUsers, 1.8);
        if (t !== i) targets.add(t);
      }
    for (const t of targets) {
      const at = Math.max(userJoined[i]!, userJoined[t]!) + Math.floor(rand() * 30 * DAY);
      await w.add('follows', { follower_id: userIds[i]!, following_id: userIds[t]!, notify: rand() < 0.1 ? 1 : 0, created_at: Math.min(at, now) });
      if (t === 0) followersOf0.push(i);
      follows++;
      // Every follow left its NEW_FOLLOWER item (unless the notification was deleted since).
      if (rand() < 0.5) {
        await w.add('notifications', {
          id: seededId(rand, Math.min(at, now)),
          user_id: userIds[t]!,
          type: 'NEW_FOLLOWER',
          actor_id: userIds[i]!,
          post_id: null,
          comment_id: null,
          group_id: null,
          mention_count: 1,
          seen: at < now - 30 * DAY ? 1 : 0,
          created_at: Math.min(at, now),
        });
      }
    }
    if (i % 500 === 0) progress.tick(follows);
  }
  await w.flush();
  progress.tick(follows);
  progress.stop();

  // Groups: one very large; member counts long-tailed; 20% private. Members listed per group.
  const nGroups = Math.max(1, options.groups);
  const bigMembers = Math.min(options.bigGroupMembers, nUsers);
  const otherMembers = longTail(rand, nGroups - 1, Math.min(nUsers * 3, nGroups * 200), Math.max(1, Math.min(nUsers, 5000)));
  const groupIds: string[] = [];
  const groupPrivate: boolean[] = [];
  const groupNames: string[] = [];
  const groupMemberList: number[][] = [];
  let totalMembers = bigMembers;
  for (const c of otherMembers) totalMembers += Math.max(1, c);
  progress.start('groups', totalMembers);
  let memberRows = 0;
  for (let g = 0; g < nGroups; g++) {
    const size = g === 0 ? bigMembers : Math.max(1, otherMembers[g - 1]!);
    const owner = g === 0 ? 1 % nUsers : skewed(rand, nUsers, 1.5);
    const created = Math.max(userJoined[owner]!, start + Math.floor(rand() * TWO_YEARS * 0.5));
    const name = g === 0 ? SEED_NAMES.bigGroup : `${WORDS[g % WORDS.length]!.normalize('NFD').replace(/\p{M}/gu, '')}_club_${g}`;
    const isPrivate = g !== 0 && rand() < 0.2;
    const skel = skeleton(name);
    const unique = !skeletons.has(`g:${skel}`);
    skeletons.add(`g:${skel}`);
    const id = seededId(rand, created);
    const members = [owner, ...distinct(rand, nUsers, size - 1, owner)];
    groupIds.push(id);
    groupPrivate.push(isPrivate);
    groupNames.push(name);
    groupMemberList.push(members);
    await w.add('groups', {
      id,
      name,
      name_lower: name.toLowerCase(),
      name_skeleton: unique ? skel : null,
      description: sentence(rand, 8),
      owner_id: userIds[owner]!,
      is_private: isPrivate ? 1 : 0,
      request_join: isPrivate ? 1 : 0,
      everyone_can_post: 1,
      pinned_post_id: null,
      members: members.length,
      bans: 0,
      search_text: foldForSearch(name),
      created_at: created,
    });
    await w.flush('groups');
    for (let m = 0; m < members.length; m++) {
      const role = m === 0 ? 'owner' : m < 3 && members.length > 10 ? 'admin' : 'member';
      await w.add('group_members', { group_id: id, user_id: userIds[members[m]!]!, role, level: 0, created_at: created + m });
      memberRows++;
      if (memberRows % 2000 === 0) progress.tick(memberRows);
    }
  }
  await w.flush();
  progress.tick(memberRows);
  progress.stop();

  // Posts: dates over two years, denser lately; authors long-tailed (user 0 never posts, so the
  // heavy follower's following feed holds others' posts only).
  const nPosts = Math.max(1, options.posts);
  const postTimes = new Float64Array(nPosts);
  for (let i = 0; i < nPosts; i++) postTimes[i] = start + Math.floor(Math.sqrt(rand()) * (TWO_YEARS - 60_000));
  postTimes.sort();
  const postIds: string[] = new Array(nPosts);
  const postAuthors = new Int32Array(nPosts);
  const postGroup = new Int32Array(nPosts);
  // The busy post of the thread benchmark: a fairly recent post outside any group.
  const hot = Math.max(0, nPosts - 1 - Math.floor(nPosts / 50));
  const notes: { user: number; type: string; actor: number; post: number; at: number }[] = [];
  progress.start('posts', nPosts);
  for (let i = 0; i < nPosts; i++) {
    const at = postTimes[i]!;
    const inGroup = i !== hot && rand() < 0.1;
    let author: number;
    let group = -1;
    if (inGroup) {
      group = rand() < 0.3 ? 0 : Math.floor(rand() * nGroups);
      const members = groupMemberList[group]!;
      author = members[skewed(rand, members.length, 1.5)]!;
    } else {
      author = 1 + skewed(rand, nUsers - 1);
    }
    const id = seededId(rand, at);
    postIds[i] = id;
    postAuthors[i] = author;
    postGroup[i] = group;
    const parts = [sentence(rand, 4 + Math.floor(rand() * 14))];
    if (rand() < 0.33) parts.push(SEED_NAMES.commonWord);
    const mentions: number[] = [];
    if (rand() < 0.1) {
      const m = skewed(rand, nUsers, 1.5);
      if (m !== author) mentions.push(m);
    }
    for (const m of mentions) parts.push(`@${userNames[m]}`);
    if (rand() < 0.3) parts.push(`#${TAGS[skewed(rand, TAGS.length, 1.5)]}`);
    if (rand() < 0.05) parts.push(`#${TAGS[Math.floor(rand() * TAGS.length)]}`);
    const text = parts.join(' ');
    // Replies lean to recent originals (skewed to the high end), never to a private group's post.
    let original = i > 0 && rand() < 0.2 ? skewed(rand, i, 0.5) : -1;
    if (original >= 0 && postGroup[original]! >= 0 && groupPrivate[postGroup[original]!]) original = -1;
    await w.add('posts', {
      id,
      author_id: userIds[author]!,
      text,
      reply_to: original >= 0 ? postIds[original]! : null,
      likes: 0,
      comments: 0,
      images: 0,
      search_text: foldForSearch(text),
      created_at: at,
    });
    for (const [position, m] of mentions.entries()) {
      await w.add('post_mentions', { post_id: id, position, user_id: userIds[m]!, username: userNames[m]! });
      notes.push({ user: m, type: 'MENTION', actor: author, post: i, at });
    }
    if (group >= 0) await w.add('post_groups', { post_id: id, position: 0, group_id: groupIds[group]!, name: groupNames[group]!, created_at: at });
    for (const tag of extractHashtags(text)) await w.add('post_hashtags', { post_id: id, tag, created_at: at });
    if (original >= 0 && postAuthors[original] !== author) notes.push({ user: postAuthors[original]!, type: 'NEW_REPLY', actor: author, post: i, at });
    if (i % 1000 === 0) progress.tick(i);
  }
  await w.flush();
  progress.tick(nPosts);
  progress.stop();

  // Likes: per-post counts long-tailed, distinct users per post; the counter is the row count.
  const likeCounts = longTail(rand, nPosts, options.likes, nUsers);
  progress.start('likes', options.likes);
  let likes = 0;
  const likeUpdates: [string, number][] = [];
  for (let i = 0; i < nPosts; i++) {
    const k = likeCounts[i]!;
    if (k === 0) continue;
    const users = distinct(rand, nUsers, k);
    for (const u of users) {
      const at = Math.min(now, postTimes[i]! + Math.floor(rand() * 3 * DAY));
      await w.add('post_likes', { post_id: postIds[i]!, user_id: userIds[u]!, created_at: at });
    }
    likeUpdates.push([postIds[i]!, k]);
    likes += k;
    if (likeUpdates.length >= 1000) {
      await w.flush('post_likes');
      await setCounters(db, 'posts', 'likes', likeUpdates.splice(0));
      progress.tick(likes);
    }
  }
  await w.flush('post_likes');
  await setCounters(db, 'posts', 'likes', likeUpdates.splice(0));
  progress.tick(likes);
  progress.stop();

  // Comments: per-post counts long-tailed, one busy post with 500. 30% reply to an earlier comment
  // of the same thread. posts.comments counts every comment of the thread, comments.replies the
  // direct replies.
  const nComments = Math.max(0, options.comments);
  const hotCount = Math.min(options.hotPostComments, Math.floor(nComments / 2));
  const commentCounts = longTail(rand, nPosts, nComments - hotCount, 300);
  // The busy post's share goes to other posts, so the total stays exact.
  let lost = commentCounts[hot]!;
  commentCounts[hot] = hotCount;
  for (let i = 0; lost > 0 && i < nPosts; i++) {
    const start = Math.floor(rand() * nPosts);
    const at = (start + i) % nPosts;
    if (at === hot || commentCounts[at]! >= 300) continue;
    commentCounts[at]!++;
    lost--;
  }
  progress.start('comments', nComments);
  let comments = 0;
  let commentLikes = 0;
  const countUpdates: [string, number][] = [];
  const commentLikeUpdates: [string, number][] = [];
  const replyUpdates: [string, number][] = [];
  // Counters are set once the rows they count are written.
  const applyCommentCounters = async () => {
    await w.flush();
    await setCounters(db, 'posts', 'comments', countUpdates.splice(0));
    await setCounters(db, 'comments', 'likes', commentLikeUpdates.splice(0));
    await setCounters(db, 'comments', 'replies', replyUpdates.splice(0));
  };
  for (let i = 0; i < nPosts; i++) {
    const k = commentCounts[i]!;
    if (k === 0) continue;
    const ids: string[] = [];
    const authors: number[] = [];
    const times: number[] = [];
    const replies: number[] = [];
    const likesOf: number[] = [];
    let at = postTimes[i]!;
    for (let c = 0; c < k; c++) {
      at = Math.min(now - 1000, at + 1000 + Math.floor(rand() * 6 * 60 * 60 * 1000 / Math.max(1, k / 10)));
      const parent = c > 0 && rand() < 0.3 ? Math.floor(rand() * c) : -1;
      const author = skewed(rand, nUsers, 1.6);
      const text = sentence(rand, 3 + Math.floor(rand() * 10)) + (rand() < 0.2 ? ` ${SEED_NAMES.commonWord}` : '');
      const id = seededId(rand, at);
      ids.push(id);
      authors.push(author);
      times.push(at);
      replies.push(0);
      if (parent >= 0) replies[parent]!++;
      const nLikes = rand() < 0.15 ? 1 + skewed(rand, Math.min(20, nUsers), 2) : 0;
      likesOf.push(nLikes);
      await w.add('comments', {
        id,
        post_id: postIds[i]!,
        parent_comment_id: parent >= 0 ? ids[parent]! : null,
        author_id: userIds[author]!,
        text,
        likes: 0,
        replies: 0,
        images: 0,
        deleted: 0,
        search_text: foldForSearch(text),
        created_at: at,
      });
      const replied = parent >= 0 ? authors[parent]! : postAuthors[i]!;
      if (replied !== author && rand() < 0.5) {
        // Buffered after the comment: a flush writes comments before notifications.
        await w.add('notifications', {
          id: seededId(rand, at),
          user_id: userIds[replied]!,
          type: 'NEW_REPLY',
          actor_id: userIds[author]!,
          post_id: postIds[i]!,
          comment_id: id,
          group_id: null,
          mention_count: 1,
          seen: at < now - 30 * DAY ? 1 : 0,
          created_at: at,
        });
      }
    }
    for (let c = 0; c < k; c++) {
      if (likesOf[c]! > 0) {
        for (const u of distinct(rand, nUsers, likesOf[c]!)) {
          await w.add('comment_likes', { comment_id: ids[c]!, user_id: userIds[u]!, created_at: Math.min(now, times[c]! + 60_000) });
          commentLikes++;
        }
      }
    }
    for (const [c, id] of ids.entries()) {
      if (likesOf[c]! > 0) commentLikeUpdates.push([id, Math.min(likesOf[c]!, nUsers)]);
      if (replies[c]! > 0) replyUpdates.push([id, replies[c]!]);
    }
    countUpdates.push([postIds[i]!, k]);
    comments += k;
    if (countUpdates.length + commentLikeUpdates.length + replyUpdates.length >= 5000) {
      await applyCommentCounters();
      progress.tick(comments);
    }
  }
  await applyCommentCounters();
  progress.tick(comments);
  progress.stop();

  // Post notifications (mentions, replies) collected above.
  progress.start('notifications', notes.length);
  for (const [n, note] of notes.entries()) {
    await w.add('notifications', {
      id: seededId(rand, note.at),
      user_id: userIds[note.user]!,
      type: note.type,
      actor_id: userIds[note.actor]!,
      post_id: postIds[note.post]!,
      comment_id: null,
      group_id: null,
      mention_count: 1,
      seen: note.at < now - 30 * DAY ? 1 : 0,
      created_at: note.at,
    });
    if (n % 2000 === 0) progress.tick(n);
  }
  await w.flush();
  progress.tick(notes.length);
  progress.stop();

  // Each account's counts and last post, as the writes through the app keep them.
  progress.start('account counts', 1);
  await countEveryAccount(db);
  progress.tick(1);
  progress.stop();

  // Planner statistics, as a database that grew to this size would have; on PostgreSQL also the
  // dead rows of the seed's own updates cleared, as autovacuum would have done long since, so that
  // counting by index need not visit the table.
  // On SQLite exact counts (a full ANALYZE, as an operator might run once) without the per-value
  // samples the server drops (db/sqlite-statistics.ts).
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  else {
    await sql`analyze`.execute(db);
    await dropValueSamples(db);
    await sql`pragma synchronous = normal`.execute(db);
  }
  const notifications = await countRows(db, 'notifications');
  return {
    users: nUsers,
    follows,
    groups: nGroups,
    groupMembers: memberRows,
    posts: nPosts,
    postLikes: likes,
    comments,
    commentLikes,
    notifications,
    heavyFollowerId: userIds[0]!,
    bigGroupId: groupIds[0]!,
    hotPostId: postIds[hot]!,
    ms: performance.now() - started,
  };
}

/** Sets one counter column on many rows in one statement (a VALUES list joined by id). */
async function setCounters(db: Db, table: 'posts' | 'comments', column: 'likes' | 'comments' | 'replies', values: [string, number][]): Promise<void> {
  for (let i = 0; i < values.length; i += 1000) {
    const chunk = values.slice(i, i + 1000);
    const cases = sql.join(chunk.map(([id, n]) => sql`when ${id} then cast(${n} as integer)`), sql` `);
    const ids = chunk.map(([id]) => id);
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = case id ${cases} end where id in (${sql.join(ids)})`.execute(db);
  }
}

async function countRows(db: Db, table: Tables): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the database already holds users (seeding refuses to mix with existing data). */
export async function isEmpty(db: Db): Promise<boolean> {
  return (await countRows(db, 'users')) === 0;
}

/** A random secret the server and the benchmark share (the server reads DATA_DIR/jwt-secret). */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Who writes and what they write on in the write benchmarks: 50 seeded users (not the heavy
 * follower, whose feed is read) and the 1,000 newest posts in no group, ids only.
 */
export async function writeTargets(db: Db): Promise<{ writers: string[]; posts: string[] }> {
  const writers = await db.selectFrom('users').select('id').where('username_lower', '!=', SEED_NAMES.heavyFollower).orderBy('id').limit(50).execute();
  const posts = await db
    .selectFrom('posts')
    .leftJoin('post_groups', 'post_groups.post_id', 'posts.id')
    .select('posts.id')
    .where('post_groups.post_id', 'is', null)
    .orderBy('posts.created_at', 'desc')
    .limit(1000)
    .execute();
  return { writers: writers.map((row) => row.id), posts: posts.map((row) => row.id) };
}

/**
 * The readers and the post the read benchmarks ask for (npm run bench, bench:reads): the user
 * following 1,000, the post with the most comments and the user with the most notifications.
 */
export async function readTargets(db: Db): Promise<{ heavy: string; hot: { id: string; comments: number }; noticed: { userId: string; count: number } }> {
  const heavy = await db.selectFrom('users').select('id').where('username_lower', '=', SEED_NAMES.heavyFollower).executeTakeFirst();
  const hot = await db.selectFrom('posts').select(['id', 'comments']).orderBy('comments', 'desc').limit(1).executeTakeFirst();
  if (!heavy || !hot) throw new Error('The database holds no seeded data: run npm run seed first.');
  const noticed = await db
    .selectFrom('notifications')
    .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('user_id')
    .orderBy('n', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return { heavy: heavy.id, hot, noticed: { userId: noticed.user_id, count: Number(noticed.n) } };
}

/**
 * An access token of a fediverse app signed in as `userId`, stored as the server keeps its tokens
 * (an app's row, the token's hash): the client API's reads are measured with it.
 */
export async function appTokenFor(db: Db, userId: string): Promise<string> {
  // The server migrates its database as it starts; the token's tables are needed before that.
  await migrateToLatest(db);
  const now = Date.now();
  const appId = newId(now);
  const token = randomBytes(32).toString('base64url');
  await db.insertInto('client_apps').values({ id: appId, client_id: randomBytes(24).toString('base64url'), secret_hash: secretHash(randomBytes(24).toString('hex')), name: 'bench', website: null, redirect_uris: '["urn:ietf:wg:oauth:2.0:oob"]', scopes: '["read"]', created_at: now }).execute();
  await db.insertInto('oauth_tokens').values({ id: newId(now), token_hash: secretHash(token), refresh_hash: null, app_id: appId, user_id: userId, token_version: 0, scopes: '["read"]', created_at: now, expires_at: null, revoked_at: null, last_used_at: null }).execute();
  return token;
}

/** Runs a benchmark's main, its failure printed and the exit code set. */
export async function runMain(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  }
}

/** The configuration of an app a benchmark builds in its own process: silent, no job worker, a fresh secret. */
export function inProcessConfig(dataDir: string, url: string | undefined, scratch: string, more: Record<string, string> = {}) {
  return loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: url ?? '',
    JWT_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://127.0.0.1',
    WEB_DIR: join(scratch, 'none'),
    LOG_LEVEL: 'silent',
    RUN_WORKER: 'false',
    ...more,
  });
}

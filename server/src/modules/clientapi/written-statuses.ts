import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Status as StatusSchema, type Status } from '#core/api/client-entities';
import type { Post } from '#core/api/posts';
import equal from 'fast-deep-equal';
import { personAccount } from './account.mapper.js';
import type { PersonRow } from './clientapi.repository.js';
import { postStatus } from './status.mapper.js';

/** A status written as the JSON apps read, beside its id (a page's Link header names its ends by them). */
export interface WrittenStatus {
  id: string;
  json: string;
}

/**
 * A status as JSON, by the same compiler and schema Fastify writes a route's statuses with, so a
 * status written here reads exactly as one the route would have written: only the entity's fields,
 * in its types.
 */
const writeStatus = SerializerSelector()(undefined, undefined)({ schema: StatusSchema, method: 'GET', url: '/', httpStatus: '200' }) as (status: Status) => string;

export const writtenStatus = (status: Status): WrittenStatus => ({ id: status.id, json: writeStatus(status) });

/**
 * A string of JSON made anew in one piece. The serializer writes a status a field at a time, and V8
 * keeps such a string as the chain of its pieces: a status kept that way was walked piece by piece
 * each time a page joined it (about 7 µs a status), where one piece is copied at once.
 */
const inOnePiece = (json: string): string => Buffer.from(json).toString();

/** A post's status as last written for one reader, and everything it was made of. */
interface Kept {
  post: Post;
  author: PersonRow;
  origin: string;
  private: boolean;
  pinned: boolean | undefined;
  json: string;
}

/**
 * Statuses already written, by reader and post. An app reads the same posts again and again (every
 * refresh of every timeline they are on), and making a status and writing it out cost more than
 * reading its post. A kept status is used only when everything it was made of is the same again,
 * compared field by field (the post as its reader reads it, the author's row, the instance's
 * address, whether the post is private and pinned), so a like, an edit or a new follower of the
 * author writes it anew: nothing is ever stale, and a field added to a post later is compared too.
 * Kept per reader because a post reads differently to each (their like, whether it is theirs).
 */
const kept = new Map<string, Kept>();

/** How many are kept: a few thousand statuses of a kilobyte or two each. */
const STATUSES_KEPT = 4_000;

/** What a post's status depends on besides the post and its author's row. */
export interface PostStatusFacts {
  origin: string;
  /** Whether the post is in a private group. */
  private: boolean;
  /** Whether it is pinned where it is listed; undefined where pinning is not asked. */
  pinned?: boolean | undefined;
}

const sameInput = (was: Kept, post: Post, author: PersonRow, facts: PostStatusFacts) =>
  was.origin === facts.origin && was.private === facts.private && was.pinned === facts.pinned && equal(was.author, author) && equal(was.post, post);

/**
 * A post's status as JSON for `readerId` (null for a visitor), made as postStatus makes it with the
 * author's account from their row.
 */
export function writtenPostStatus(readerId: string | null, post: Post, author: PersonRow, facts: PostStatusFacts): WrittenStatus {
  const key = `${readerId ?? ''}:${post._id}`;
  const was = kept.get(key);
  if (was && sameInput(was, post, author, facts)) return { id: post._id, json: was.json };
  const { origin } = facts;
  const parts = { origin, accounts: new Map([[author.id, personAccount(origin, author)]]), privatePosts: new Set(facts.private ? [post._id] : []), repliedAuthors: new Map() };
  const json = inOnePiece(writeStatus(postStatus(post, parts, facts.pinned === undefined ? {} : { pinned: facts.pinned })));
  if (!was && kept.size >= STATUSES_KEPT) kept.clear();
  // Copies, so that nothing done to the page's objects after this changes what the status was made of.
  kept.set(key, { post: structuredClone(post), author: { ...author }, origin, private: facts.private, pinned: facts.pinned, json });
  return { id: post._id, json };
}

/** A page of written statuses as the JSON array it answers. */
export const statusArrayJson = (page: readonly WrittenStatus[]): string => `[${page.map((status) => status.json).join(',')}]`;

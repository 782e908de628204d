import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/schema.js';
import { PAGE_SIZES } from '#core/limits';
import { extractHashtags, normalizeHashtag } from '#core/text';
import type { UserListReply } from '#core/api/common';
import type { BlockStateReply, MutedTagsReply } from '#core/api/blocks';
import { userExists } from '../../db/users.js';
import { badRequest, notFound } from '../../lib/app-error.js';
import { type PageQuery, pageWindow, toPage } from '../../lib/paging.js';
import type { Viewer } from '../../plugins/auth.js';
import { endFollow } from '../follows/follows.service.js';
import { toUserListReply } from '../profiles/profiles.mapper.js';
import * as repo from './blocks.repository.js';

/**
 * Blocks and mutes. Setting a state that is already set succeeds and changes nothing, so an
 * offline client may send it again. Errors: the caller themself, 400 block_yourself or
 * mute_yourself; an unknown user, 404 user_not_found; a hashtag that is not one, 400 invalid_hashtag.
 */

async function requireOther(app: FastifyInstance, viewer: Viewer, userId: string, kind: repo.UserListKind): Promise<void> {
  if (userId === viewer.id) throw badRequest(kind === 'block' ? 'block_yourself' : 'mute_yourself');
  if (!(await userExists(app.db, userId))) throw notFound('user_not_found');
}

/** Blocks the user and ends the follows between the two, both ways, in one transaction. */
export async function block(app: FastifyInstance, viewer: Viewer, userId: string): Promise<void> {
  await requireOther(app, viewer, userId, 'block');
  await app.db.transaction().execute(async (trx) => {
    await repo.addToList(trx, 'block', viewer.id, userId, Date.now());
    await endFollow(trx, viewer.id, userId);
    await endFollow(trx, userId, viewer.id);
  });
}

/** Follows ended by a block are not restored: each side may follow again. */
export async function unblock(app: FastifyInstance, viewer: Viewer, userId: string): Promise<void> {
  await requireOther(app, viewer, userId, 'block');
  await repo.removeFromList(app.db, 'block', viewer.id, userId);
}

export async function mute(app: FastifyInstance, viewer: Viewer, userId: string): Promise<void> {
  await requireOther(app, viewer, userId, 'mute');
  await repo.addToList(app.db, 'mute', viewer.id, userId, Date.now());
}

export async function unmute(app: FastifyInstance, viewer: Viewer, userId: string): Promise<void> {
  await requireOther(app, viewer, userId, 'mute');
  await repo.removeFromList(app.db, 'mute', viewer.id, userId);
}

export async function state(app: FastifyInstance, viewer: Viewer, userId: string): Promise<BlockStateReply> {
  if (!(await userExists(app.db, userId))) throw notFound('user_not_found');
  if (userId === viewer.id) return { blocking: false, blockedBy: false, muting: false };
  const [blocking, blockedBy, muting] = await Promise.all([
    repo.isOnList(app.db, 'block', viewer.id, userId),
    repo.isOnList(app.db, 'block', userId, viewer.id),
    repo.isOnList(app.db, 'mute', viewer.id, userId),
  ]);
  return { blocking, blockedBy, muting };
}

export async function list(app: FastifyInstance, viewer: Viewer, kind: repo.UserListKind, query: PageQuery): Promise<UserListReply> {
  const window = pageWindow(query, PAGE_SIZES.users);
  const page = toPage(await repo.listPage(app.db, kind, viewer.id, query, window), window);
  return toUserListReply(app.db, page, viewer.id);
}

/** The user's blocked and muted people and muted hashtags, oldest first (the data export). */
export async function safetyListsOf(db: Executor, userId: string): Promise<{
  blocked: Array<{ id: string; username: string; since: number }>;
  muted: Array<{ id: string; username: string; since: number }>;
  mutedHashtags: Array<{ tag: string; since: number }>;
}> {
  const [blocked, muted, mutedHashtags] = await Promise.all([repo.wholeList(db, 'block', userId), repo.wholeList(db, 'mute', userId), repo.allMutedTags(db, userId)]);
  return { blocked, muted, mutedHashtags };
}

/** The hashtag as posts index it (lowercase, without #), or a refusal when it could not be one. */
function hashtagOf(raw: string): string {
  const tag = normalizeHashtag(raw.trim());
  if (extractHashtags(`#${tag}`)[0] !== tag) throw badRequest('invalid_hashtag');
  return tag;
}

export async function muteTag(app: FastifyInstance, viewer: Viewer, raw: string): Promise<void> {
  await repo.addTag(app.db, viewer.id, hashtagOf(raw), Date.now());
}

export async function unmuteTag(app: FastifyInstance, viewer: Viewer, raw: string): Promise<void> {
  await repo.removeTag(app.db, viewer.id, hashtagOf(raw));
}

export async function mutedTags(app: FastifyInstance, viewer: Viewer, query: PageQuery): Promise<MutedTagsReply> {
  const window = pageWindow(query, PAGE_SIZES.users);
  const page = toPage(await repo.tagPage(app.db, viewer.id, query, window), window);
  return { tags: page.items.map((row) => ({ tag: row.tag, createdAt: row.created_at })), hasMore: page.hasMore };
}

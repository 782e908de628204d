import type { Executor } from '../../db/schema.js';
import { PAGE_SIZES } from '#core/limits';
import { extractHashtags, normalizeHashtag } from '#core/text';
import type { UserListReply } from '#core/api/common';
import type { BlockStateReply, MutedTagsReply } from '#core/api/blocks';
import { userExists } from '../../db/users.js';
import { badRequest, notFound } from '../../lib/app-error.js';
import { type PageQuery, pageWindow, toPage } from '../../lib/paging.js';
import { publishEvent } from '../../lib/events/domain-events.js';
// Declares the events this module publishes.
import './blocks.events.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { endFollow } from '../follows/follows.service.js';
import { toUserListReply } from '../profiles/profiles.mapper.js';
import * as repo from './blocks.repository.js';

/**
 * Blocks and mutes. Setting a state that is already set succeeds and changes nothing, so an
 * offline client may send it again. Errors: the caller themself, 400 block_yourself or
 * mute_yourself; an unknown user, 404 user_not_found; a hashtag that is not one, 400 invalid_hashtag.
 */

async function requireOther(ctx: ServiceContext, viewer: Viewer, userId: string, kind: repo.UserListKind): Promise<void> {
  if (userId === viewer.id) throw badRequest(kind === 'block' ? 'block_yourself' : 'mute_yourself');
  if (!(await userExists(ctx.db, userId))) throw notFound('user_not_found');
}

/**
 * Blocks the user and ends the follows between the two, both ways, on the route's transaction; a
 * remote account's follow of the caller is its actor's (remote_follows).
 */
export async function block(ctx: ServiceContext, viewer: Viewer, userId: string): Promise<void> {
  await requireOther(ctx, viewer, userId, 'block');
  await repo.addToList(ctx.db, 'block', viewer.id, userId, Date.now());
  await endFollow(ctx.db, viewer.id, userId);
  await endFollow(ctx.db, userId, viewer.id);
  await publishEvent(ctx, 'block.created', { blockerId: viewer.id, blockedId: userId });
}

/** Follows ended by a block are not restored: each side may follow again. */
export async function unblock(ctx: ServiceContext, viewer: Viewer, userId: string): Promise<void> {
  await requireOther(ctx, viewer, userId, 'block');
  await repo.removeFromList(ctx.db, 'block', viewer.id, userId);
}

export async function mute(ctx: ServiceContext, viewer: Viewer, userId: string): Promise<void> {
  await requireOther(ctx, viewer, userId, 'mute');
  await repo.addToList(ctx.db, 'mute', viewer.id, userId, Date.now());
}

export async function unmute(ctx: ServiceContext, viewer: Viewer, userId: string): Promise<void> {
  await requireOther(ctx, viewer, userId, 'mute');
  await repo.removeFromList(ctx.db, 'mute', viewer.id, userId);
}

export async function state(ctx: ServiceContext, viewer: Viewer, userId: string): Promise<BlockStateReply> {
  if (!(await userExists(ctx.db, userId))) throw notFound('user_not_found');
  if (userId === viewer.id) return { blocking: false, blockedBy: false, muting: false };
  const [blocking, blockedBy, muting] = await Promise.all([
    repo.isOnList(ctx.db, 'block', viewer.id, userId),
    repo.isOnList(ctx.db, 'block', userId, viewer.id),
    repo.isOnList(ctx.db, 'mute', viewer.id, userId),
  ]);
  return { blocking, blockedBy, muting };
}

/** One page of the caller's blocked (kind block) or muted (kind mute) users. */
export async function list(ctx: ServiceContext, viewer: Viewer, input: { kind: repo.UserListKind; query: PageQuery }): Promise<UserListReply> {
  const { kind, query } = input;
  const window = pageWindow(query, PAGE_SIZES.users);
  const page = toPage(await repo.listPage(ctx.db, kind, viewer.id, query, window), window);
  return toUserListReply(ctx.db, page, viewer.id);
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

export async function muteTag(ctx: ServiceContext, viewer: Viewer, raw: string): Promise<void> {
  await repo.addTag(ctx.db, viewer.id, hashtagOf(raw), Date.now());
}

export async function unmuteTag(ctx: ServiceContext, viewer: Viewer, raw: string): Promise<void> {
  await repo.removeTag(ctx.db, viewer.id, hashtagOf(raw));
}

export async function mutedTags(ctx: ServiceContext, viewer: Viewer, query: PageQuery): Promise<MutedTagsReply> {
  const window = pageWindow(query, PAGE_SIZES.users);
  const page = toPage(await repo.tagPage(ctx.db, viewer.id, query, window), window);
  return { tags: page.items.map((row) => ({ tag: row.tag, createdAt: row.created_at })), hasMore: page.hasMore };
}

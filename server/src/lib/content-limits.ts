import { LIMITS, type RateLimits } from '#core/limits';
import type { Executor } from '../db/schema.js';
import { followersAmong } from '../db/users.js';
import { takeSlot } from './rate-limit.js';

/**
 * Abuse limits on what users write, counted in rate_events. Each is taken in the transaction of
 * the post or comment it counts, so a refused or failed write gives its slot back; deleting what
 * was written does not (the limit counts what was created, not what still exists).
 */
export type Rates = RateLimits & { commentsPerWindow: number };

export async function takePostSlot(trx: Executor, rates: Rates, authorId: string): Promise<void> {
  await takeSlot(trx, { key: `post:${authorId}`, max: rates.postsPerHour, windowMs: rates.windowMs }, 'post_limit');
}

export async function takeCommentSlot(trx: Executor, rates: Rates, authorId: string): Promise<void> {
  await takeSlot(trx, { key: `comment:${authorId}`, max: rates.commentsPerWindow, windowMs: LIMITS.commentWindowMs }, 'comment_limit');
}

/** Likes and unlikes of posts and comments share one count: see RATE_LIMIT_DEFAULTS.likesPerWindow. */
export async function takeLikeSlot(trx: Executor, rates: Rates, userId: string): Promise<void> {
  await takeSlot(trx, { key: `like:${userId}`, max: rates.likesPerWindow, windowMs: LIMITS.likeWindowMs }, 'like_limit');
}

/** Reports sent to the moderators, counted only once stored (a duplicate or a refusal takes none). */
export async function takeReportSlot(trx: Executor, rates: Rates, reporterId: string): Promise<void> {
  await takeSlot(trx, { key: `report:${reporterId}`, max: rates.reportsPerHour, windowMs: rates.windowMs }, 'report_limit');
}

/**
 * Mentioning someone notifies them, so mentions of people who do not follow the author (strangers)
 * are limited per (author, stranger) pair: nobody can be pinged over and over by someone they never
 * chose to hear from. Mentions of followers and of oneself are free.
 */
export async function takeStrangerMentionSlots(trx: Executor, rates: Rates, authorId: string, mentionedIds: Array<string | null>): Promise<void> {
  const mentioned = [...new Set(mentionedIds.filter((id): id is string => id !== null && id !== authorId))].sort();
  const followers = await followersAmong(trx, authorId, mentioned);
  for (const userId of mentioned) {
    if (followers.has(userId)) continue;
    const rule = { key: `mention:${authorId}:${userId}`, max: rates.strangerMentionsPerHour, windowMs: rates.windowMs };
    await takeSlot(trx, rule, 'mention_limit');
  }
}

/** The longest window any limit counts in: rate events older than this can be forgotten. */
export function longestRateWindow(rates: Rates): number {
  return Math.max(rates.windowMs, LIMITS.commentWindowMs, LIMITS.likeWindowMs);
}

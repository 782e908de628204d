import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import type { Config } from '../../src/config';
import { longestRateWindow, takeCommentSlot, takePostSlot, takeStrangerMentionSlots } from '../../src/lib/content-limits';
import { countRecent, purgeRateEvents } from '../../src/lib/rate-limit';
import { createFollow, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * The content limits one function at a time, on small limits: which key each counts on, in which
 * window, and which mentions are free (content-limits.test.ts shows them through the API).
 */
describe('content limit rules', () => {
  const t = useTestApp({ RATE_POSTS_PER_HOUR: '2', RATE_STRANGER_MENTIONS_PER_HOUR: '1', RATE_COMMENTS_PER_30_MIN: '2', RATE_WINDOW_MS: '7200000' });
  let rates: Config['rates'];
  beforeAll(async () => {
    rates = t.app.config.rates;
  });

  const refusal = (promise: Promise<void>) => promise.then(() => 'taken', (error: { statusCode: number; key: string }) => `${error.statusCode} ${error.key}`);

  it('counts posts per author within the configured window, refusing the one past the limit', async () => {
    const [author, other] = [await createUser(t.app), await createUser(t.app)];
    expect(await refusal(takePostSlot(t.app.db, rates, author.id))).toBe('taken');
    expect(await refusal(takePostSlot(t.app.db, rates, author.id))).toBe('taken');
    expect(await refusal(takePostSlot(t.app.db, rates, author.id))).toBe('429 post_limit');
    expect(await refusal(takePostSlot(t.app.db, rates, other.id))).toBe('taken');
    expect(await countRecent(t.app.db, `post:${author.id}`, rates.windowMs)).toBe(2);
  });

  it('counts comments per author within the comment window, apart from posts', async () => {
    const author = await createUser(t.app);
    await takePostSlot(t.app.db, rates, author.id);
    await takePostSlot(t.app.db, rates, author.id);
    expect(await refusal(takeCommentSlot(t.app.db, rates, author.id))).toBe('taken');
    expect(await refusal(takeCommentSlot(t.app.db, rates, author.id))).toBe('taken');
    expect(await refusal(takeCommentSlot(t.app.db, rates, author.id))).toBe('429 comment_limit');
    expect(await countRecent(t.app.db, `comment:${author.id}`, LIMITS.commentWindowMs)).toBe(2);
    // The comment window is its own: comments taken just before it began no longer count.
    const later = Date.now() + LIMITS.commentWindowMs + 1;
    expect(await countRecent(t.app.db, `comment:${author.id}`, LIMITS.commentWindowMs, later)).toBe(0);
  });

  it('counts mentions per (author, stranger), once per stranger however often named', async () => {
    const [author, stranger, other] = [await createUser(t.app), await createUser(t.app), await createUser(t.app)];
    await takeStrangerMentionSlots(t.app.db, rates, author.id, [stranger.id, stranger.id, null]);
    expect(await countRecent(t.app.db, `mention:${author.id}:${stranger.id}`, rates.windowMs)).toBe(1);
    expect(await refusal(takeStrangerMentionSlots(t.app.db, rates, author.id, [stranger.id]))).toBe('429 mention_limit');
    expect(await refusal(takeStrangerMentionSlots(t.app.db, rates, author.id, [other.id]))).toBe('taken');
    expect(await refusal(takeStrangerMentionSlots(t.app.db, rates, other.id, [stranger.id]))).toBe('taken');
  });

  it('leaves mentions of oneself and of followers free', async () => {
    const [author, fan] = [await createUser(t.app), await createUser(t.app)];
    await createFollow(t.app, fan, author);
    for (let i = 0; i < 3; i++) {
      expect(await refusal(takeStrangerMentionSlots(t.app.db, rates, author.id, [author.id, fan.id]))).toBe('taken');
    }
    expect(await countRecent(t.app.db, `mention:${author.id}:${author.id}`, rates.windowMs)).toBe(0);
    expect(await countRecent(t.app.db, `mention:${author.id}:${fan.id}`, rates.windowMs)).toBe(0);
  });

  it('takes the longest window of any limit as the one to keep events for', () => {
    expect(longestRateWindow({ ...rates, windowMs: LIMITS.commentWindowMs + 1 })).toBe(LIMITS.commentWindowMs + 1);
    expect(longestRateWindow({ ...rates, windowMs: LIMITS.commentWindowMs - 1 })).toBe(LIMITS.commentWindowMs);
  });

  it('purges events older than the longest window and keeps one exactly at its edge', async () => {
    const now = 50_000_000;
    await t.app.db
      .insertInto('rate_events')
      .values([
        { key: 'test:edge', created_at: now - 1000 - 1 },
        { key: 'test:edge', created_at: now - 1000 },
      ])
      .execute();
    await purgeRateEvents(t.app.db, 1000, now);
    expect(await countRecent(t.app.db, 'test:edge', 10_000, now)).toBe(1);
  });
});

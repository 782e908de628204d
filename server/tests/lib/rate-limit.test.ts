import { describe, expect, it } from 'vitest';
import { countRecent, purgeRateEvents, takeSlot, tryTakeSlot } from '../../src/lib/rate-limit';
import { AppError } from '../../src/lib/app-error';
import { useTestApp } from '../helpers/test-app';

describe('database-kept rate limits', () => {
  const t = useTestApp();

  it('takes slots up to the limit within the window, then refuses until the oldest leaves it', async () => {
    const rule = { key: 'test:window', max: 3, windowMs: 1000 };
    const start = 1_000_000;
    expect(await tryTakeSlot(t.app.db, rule, start)).toBe(true);
    expect(await tryTakeSlot(t.app.db, rule, start + 10)).toBe(true);
    expect(await tryTakeSlot(t.app.db, rule, start + 20)).toBe(true);
    expect(await tryTakeSlot(t.app.db, rule, start + 30)).toBe(false);
    // A refused attempt is not recorded, so it does not push the window further out.
    expect(await countRecent(t.app.db, rule.key, rule.windowMs, start + 30)).toBe(3);
    // At exactly one window after the first, that one no longer counts.
    expect(await tryTakeSlot(t.app.db, rule, start + 1000)).toBe(true);
    expect(await tryTakeSlot(t.app.db, rule, start + 1001)).toBe(false);
  });

  it('keeps keys apart', async () => {
    const now = 2_000_000;
    expect(await tryTakeSlot(t.app.db, { key: 'test:a', max: 1, windowMs: 1000 }, now)).toBe(true);
    expect(await tryTakeSlot(t.app.db, { key: 'test:b', max: 1, windowMs: 1000 }, now)).toBe(true);
    expect(await tryTakeSlot(t.app.db, { key: 'test:a', max: 1, windowMs: 1000 }, now)).toBe(false);
  });

  it('refuses with 429 and the given key', async () => {
    const rule = { key: 'test:refuse', max: 1, windowMs: 60_000 };
    await takeSlot(t.app.db, rule, 'post_limit');
    const error = await takeSlot(t.app.db, rule, 'post_limit').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 429, key: 'post_limit' });
  });

  it('lets exactly the limit through a parallel burst', async () => {
    const rule = { key: 'test:burst', max: 5, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 40 }, () => tryTakeSlot(t.app.db, rule)));
    expect(results.filter(Boolean)).toHaveLength(5);
    expect(await countRecent(t.app.db, rule.key, rule.windowMs)).toBe(5);
  });

  it('rolls a slot back with the transaction that took it', async () => {
    const rule = { key: 'test:rollback', max: 1, windowMs: 60_000 };
    await t.app.db
      .transaction()
      .execute(async (trx) => {
        await takeSlot(trx, rule, 'post_limit');
        throw new Error('refused later');
      })
      .catch(() => undefined);
    expect(await tryTakeSlot(t.app.db, rule)).toBe(true);
  });

  it('purges actions older than the longest window', async () => {
    await tryTakeSlot(t.app.db, { key: 'test:old', max: 9, windowMs: 10 }, 5);
    await purgeRateEvents(t.app.db, 1000, 10_000);
    expect(await countRecent(t.app.db, 'test:old', 1_000_000, 10_000)).toBe(0);
  });
});

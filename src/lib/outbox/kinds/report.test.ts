import '../../../test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockFetch, setOnline, startOnline } from '../../../test/local-first';
import { getDb } from '../../db/db';
import { getToasts } from '../../toast';
import { outboxHandlers } from '../handlers';
import { cancelScheduledSend, kickOutbox } from '../outbox';
import { queueReport } from './report';

beforeEach(async () => {
  await startOnline('u1');
});
afterEach(() => cancelScheduledSend());

const newToasts = (before: number) => getToasts().slice(before).map((t) => [t.kind, t.message]);

describe('a report in the outbox', () => {
  it('is queued once per reported item while it waits; another item or kind gets its own row', async () => {
    setOnline(false);
    await queueReport({ kind: 'post', id: 'p1', reason: 'spam' });
    await queueReport({ kind: 'post', id: 'p1', reason: 'spam again' });
    await queueReport({ kind: 'comment', id: 'p1', reason: 'rude' });
    await queueReport({ kind: 'post', id: 'p2', reason: 'spam' });
    const rows = await getDb().outbox.toArray();
    expect(rows.map((r) => [r.kind, r.target, r.status, r.payload])).toEqual([
      ['report', 'report:post:p1', 'pending', { kind: 'post', id: 'p1', reason: 'spam' }],
      ['report', 'report:comment:p1', 'pending', { kind: 'comment', id: 'p1', reason: 'rude' }],
      ['report', 'report:post:p2', 'pending', { kind: 'post', id: 'p2', reason: 'spam' }],
    ]);
  });

  it('is sent with what was reported and its key, and the reporter is told it arrived', async () => {
    const { calls } = mockFetch(() => ({ body: { message: 'info/report_sent' } }));
    const before = getToasts().length;
    await queueReport({ kind: 'user', id: 'u2', reason: 'impersonation' });
    await kickOutbox();
    const [row] = calls;
    expect(calls).toHaveLength(1);
    expect(row).toMatchObject({ method: 'POST', path: '/api/report', body: { kind: 'user', id: 'u2', reason: 'impersonation' } });
    expect(row!.headers['Idempotency-Key']).toMatch(/.{8,}/);
    expect(newToasts(before)).toEqual([['info', 'info/report_received']]);
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('can be sent again once the first report of the same item has gone', async () => {
    const { calls } = mockFetch(() => ({ body: { message: 'info/report_sent' } }));
    await queueReport({ kind: 'post', id: 'p1', reason: 'spam' });
    await kickOutbox();
    await queueReport({ kind: 'post', id: 'p1', reason: 'still spam' });
    await kickOutbox();
    expect(calls.map((c) => (c.body as { reason: string }).reason)).toEqual(['spam', 'still spam']);
  });

  it('a refusal says why, and nothing is kept or given back', async () => {
    mockFetch(() => ({ status: 409, body: { message: 'error/already_reported' } }));
    const before = getToasts().length;
    await queueReport({ kind: 'post', id: 'p1', reason: 'spam' });
    await kickOutbox();
    expect(newToasts(before)).toEqual([['error', 'error/already_reported']]);
    expect(await getDb().outbox.count()).toBe(0);
    expect(await getDb().drafts.count()).toBe(0);
  });

  it('a refusal without a reason is shown as an invalid report', async () => {
    expect(outboxHandlers.report.refusedFallback).toBe('invalid_report');
    mockFetch(() => ({ status: 400, body: {} }));
    const before = getToasts().length;
    await queueReport({ kind: 'comment', id: 'c1', reason: 'rude' });
    await kickOutbox();
    expect(newToasts(before)).toEqual([['error', 'error/invalid_report']]);
  });
});

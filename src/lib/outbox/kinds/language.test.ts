import '../../../test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '#core/api/account';
import { mockFetch, setOnline, startOnline } from '../../../test/local-first';
import { getDb } from '../../db/db';
import { readStoredAccount, storeAccount } from '../../stored-account';
import { getToasts } from '../../toast';
import { cancelScheduledSend, kickOutbox } from '../outbox';
import { queueLanguage } from './language';

const account = { _id: 'u1', username: 'alice', email: 'a@example.com', bio: '', language: 'en', notificationSettings: [] } as unknown as Account;

beforeEach(async () => {
  await startOnline('u1');
  await storeAccount(getDb(), account);
});
afterEach(() => cancelScheduledSend());

describe('the account language in the outbox', () => {
  it('is kept while offline, folded to the last choice, and shown on the stored account at once', async () => {
    setOnline(false);
    await queueLanguage('cs');
    expect((await readStoredAccount(getDb()))?.language).toBe('cs');
    await queueLanguage('en');
    // Back to what the server holds: nothing left to send.
    expect(await getDb().outbox.count()).toBe(0);
    await queueLanguage('cs');
    const rows = await getDb().outbox.toArray();
    expect(rows.map((r) => [r.kind, r.status, r.payload])).toEqual([['language', 'pending', { language: 'cs', from: 'en' }]]);
  });

  it('is sent with its key when the connection is back', async () => {
    setOnline(false);
    await queueLanguage('cs');
    const { calls } = mockFetch(() => ({ body: { message: 'info/language_changed', language: 'cs' } }));
    setOnline(true);
    await kickOutbox();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'PATCH', path: '/api/account/language', body: { language: 'cs' } });
    expect(calls[0]!.headers['Idempotency-Key']).toMatch(/.{8,}/);
    expect(await getDb().outbox.count()).toBe(0);
    expect((await readStoredAccount(getDb()))?.language).toBe('cs');
  });

  it('a refusal is shown and the stored account goes back to the server language', async () => {
    mockFetch(() => ({ status: 400, body: { message: 'error/invalid_settings' } }));
    const before = getToasts().length;
    await queueLanguage('cs');
    await kickOutbox();
    expect(getToasts().slice(before).map((t) => [t.kind, t.message])).toEqual([['error', 'error/invalid_settings']]);
    expect((await readStoredAccount(getDb()))?.language).toBe('en');
    expect(await getDb().outbox.count()).toBe(0);
  });
});

import '../../test/setup';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiPost, useCloneableBlobs } from '../../test/local-first';
import type { Post } from '../api/types';
import { type OutboxRow, clearLocalData, getDb } from '../db/db';
import { loadDraft } from '../drafts/drafts';
import { handlerOf, outboxHandlers } from './handlers';
import { newId } from './queue';

beforeEach(async () => {
  useCloneableBlobs();
  await clearLocalData();
});

function row(fields: { kind: OutboxRow['kind']; payload: unknown } & Record<string, unknown>): OutboxRow {
  return {
    seq: 1,
    idempotencyKey: newId(),
    clientId: 'client-1',
    status: 'sending',
    attempts: 1,
    nextAttemptAt: 0,
    createdAt: 1,
    images: [],
    ...fields,
  } as OutboxRow;
}

const post = (extra: Record<string, unknown> = {}) =>
  row({ kind: 'post', draftKey: 'post', payload: { text: 'refused', mentions: [], groups: [{ query: 'cats', id: 'g1' }], replyingTo: null }, ...extra });
const comment = (extra: Record<string, unknown> = {}) =>
  row({ kind: 'comment', draftKey: 'comment:pA', payload: { text: 'refused', parent: 'pA', postId: 'pA', mentions: [] }, ...extra });
const like = () => row({ kind: 'like', target: 'post:p1', payload: { target: 'post', id: 'p1', liked: true, from: false } });
const edit = () =>
  row({
    kind: 'edit',
    target: 'edit:p1',
    payload: { postId: 'p1', text: 'new words', mentions: [{ query: 'bob', id: 'u2' }], previous: { text: 'old words', mentions: [], contentWarning: null, editedAt: null } },
  });

/** What a refusal leaves behind, run as the drain runs it: in one transaction with the drafts and posts. */
async function giveBack(item: OutboxRow) {
  const db = getDb();
  await db.transaction('rw', db.outbox, db.drafts, db.posts, db.meta, () => handlerOf(item).giveBack(db, item, 'banned'));
}

describe('outbox handlers', () => {
  it('has one handler for each kind of item, found by the kind of the row', () => {
    expect(Object.keys(outboxHandlers).sort()).toEqual(['comment', 'edit', 'language', 'like', 'post', 'report', 'safety']);
    expect(handlerOf(edit())).toBe(outboxHandlers.edit);
    expect(handlerOf(post())).toBe(outboxHandlers.post);
    expect(handlerOf(comment())).toBe(outboxHandlers.comment);
    expect(handlerOf(like())).toBe(outboxHandlers.like);
    expect(handlerOf(row({ kind: 'safety', target: 'safety:block:u1', payload: { action: 'block', subject: 'u1', on: true, from: false } }))).toBe(outboxHandlers.safety);
  });

  it('falls back to "posting failed" for a post and to a server error for the others', () => {
    expect(outboxHandlers.post.refusedFallback).toBe('posting_failed');
    expect(outboxHandlers.comment.refusedFallback).toBe('server_error');
    expect(outboxHandlers.like.refusedFallback).toBe('server_error');
    expect(outboxHandlers.edit.refusedFallback).toBe('server_error');
  });

  it('gives a refused post back to its composer with its groups, and a comment to its box without any', async () => {
    await giveBack(post());
    await giveBack(comment());
    expect(await loadDraft('post')).toMatchObject({ text: 'refused', groups: [{ query: 'cats', id: 'g1' }], returnedError: 'banned' });
    expect(await loadDraft('comment:pA')).toMatchObject({ text: 'refused', groups: [], returnedError: 'banned' });
  });

  it('gives a refused post back with its content warning, also one switched on but not written yet', async () => {
    await giveBack(post({ payload: { text: 'refused', mentions: [], groups: [], replyingTo: null, contentWarning: 'spoilers' } }));
    await giveBack(post({ draftKey: 'post:rep=p9', payload: { text: 'refused', mentions: [], groups: [], replyingTo: 'p9', contentWarning: '' } }));
    expect(await loadDraft('post')).toMatchObject({ text: 'refused', contentWarning: 'spoilers', returnedError: 'banned' });
    expect(await loadDraft('post:rep=p9')).toMatchObject({ text: 'refused', contentWarning: '', returnedError: 'banned' });
  });

  it('never returns an item the server already created, so it cannot be posted twice', async () => {
    await giveBack(post({ createdId: 'p'.padEnd(24, '1') }));
    await giveBack(comment({ createdId: 'c'.padEnd(24, '1') }));
    expect(await getDb().drafts.count()).toBe(0);
  });

  it('leaves nothing behind for a refused like: removing its row reverts it', async () => {
    await giveBack(like());
    expect(await getDb().drafts.count()).toBe(0);
  });

  it('puts the post of a refused edit back as it was and the text into its editor; a post showing other words stays', async () => {
    const db = getDb();
    await db.posts.put({ ...(apiPost('p1', { text: 'new words', editedAt: 5 }) as Post), cachedAt: 1 });
    await giveBack(edit());
    expect(await db.posts.get('p1')).toMatchObject({ text: 'old words', editedAt: null, mentions: [] });
    // An edit changes only the text: its editor gets neither groups nor images back.
    expect(await loadDraft('edit:p1')).toMatchObject({ text: 'new words', mentions: [{ query: 'bob', id: 'u2' }], groups: [], images: [], returnedError: 'banned' });

    await db.posts.put({ ...(apiPost('p1', { text: 'a later version', editedAt: 9 }) as Post), cachedAt: 1 });
    await giveBack(edit());
    expect(await db.posts.get('p1')).toMatchObject({ text: 'a later version', editedAt: 9 });
  });
});

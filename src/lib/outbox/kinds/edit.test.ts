import '../../../test/setup';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiPost, mockFetch, setOnline, setUpLocalFirst, startOnline } from '../../../test/local-first';
import type { Post } from '../../api/types';
import { getDb } from '../../db/db';
import { loadDraft } from '../../drafts/store';
import { getToasts } from '../../toast';
import { kickOutbox } from '../outbox';
import { queueEdit } from './edit';
import { usePendingEdit } from '../useOutbox';
import { editTarget } from './edit';

const ID = 'b'.repeat(24);
const stored = (extra: Partial<Post> = {}) =>
  ({ ...(apiPost(ID, { text: 'before', itsme: true, mentions: [{ _id: 'u2', username: 'bob' }], contentWarning: 'old warning', editedAt: null, ...extra }) as Post), cachedAt: 1 });

setUpLocalFirst(() => startOnline('u1'));

describe('the edit of a post in the outbox', () => {
  it('changes the stored post at once and keeps the copy as it was on the row', async () => {
    setOnline(false);
    await getDb().posts.put(stored());
    await queueEdit({ postId: ID, text: 'after', mentions: [{ query: 'carol', id: 'u3' }, { query: 'dana', id: null }] });
    const post = await getDb().posts.get(ID);
    expect(post).toMatchObject({ text: 'after', mentions: [{ _id: 'u3', username: 'carol' }, { _id: null, username: 'dana' }], contentWarning: null });
    expect(post!.editedAt).toEqual(expect.any(Number));
    const [row] = await getDb().outbox.toArray();
    expect(row).toMatchObject({
      kind: 'edit',
      target: editTarget(ID),
      status: 'pending',
      payload: { postId: ID, text: 'after', previous: { text: 'before', mentions: [{ _id: 'u2', username: 'bob' }], contentWarning: 'old warning', editedAt: null } },
    });
    expect(row!.idempotencyKey).toMatch(/.{8,}/);
  });

  it('sends the text, the mentions as the API takes them and the warning (null for none), with its key; the answer is stored', async () => {
    const { calls } = mockFetch((call) => ({ body: { ...apiPost(ID, { text: (call.body as { text: string }).text, editedAt: 77 }) } }));
    await getDb().posts.put(stored());
    await queueEdit({ postId: ID, text: 'after', mentions: [{ query: 'carol', id: 'u3' }, { query: ' dana ', id: null }, { query: ' ', id: null }], contentWarning: 'spoilers' });
    await queueEdit({ postId: ID, text: 'after again', mentions: [], contentWarning: '  ' });
    await queueEdit({ postId: ID, text: 'no warning', mentions: [] });
    await kickOutbox();
    const edits = calls.filter((c) => c.method === 'PATCH');
    expect(edits.map((c) => [c.path, c.body])).toEqual([
      [`/api/post/${ID}`, { text: 'after', mentions: ['u3', 'dana'], contentWarning: 'spoilers' }],
      [`/api/post/${ID}`, { text: 'after again', mentions: [], contentWarning: null }],
      [`/api/post/${ID}`, { text: 'no warning', mentions: [], contentWarning: null }],
    ]);
    expect(edits[0]!.headers['Idempotency-Key']).not.toBe(edits[1]!.headers['Idempotency-Key']);
    expect(await getDb().outbox.count()).toBe(0);
    expect(await getDb().posts.get(ID)).toMatchObject({ text: 'no warning', editedAt: 77 });
  });

  it("takes the edit's own fields from the answer and keeps the likes and replies the app holds", async () => {
    // A like queued after the edit shows at once, and an answer replayed after a reload is the post
    // as it was at the edit: neither may put the counts or the reader's like back.
    mockFetch((call) => ({ body: apiPost(ID, { text: (call.body as { text: string }).text, editedAt: 77, likes: 0, liked: false, comments: 0 }) }));
    await getDb().posts.put(stored({ likes: 3, liked: true, comments: 2 }));
    await queueEdit({ postId: ID, text: 'after', mentions: [{ query: 'carol', id: 'u3' }], contentWarning: 'spoilers' });
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    expect(await getDb().posts.get(ID)).toMatchObject({ text: 'after', editedAt: 77, likes: 3, liked: true, comments: 2 });
  });

  it('a refusal says why, puts the post back and the text into the edit draft', async () => {
    mockFetch(() => ({ status: 403, body: { message: 'error/not_author' } }));
    const before = getToasts().length;
    await getDb().posts.put(stored());
    await queueEdit({ postId: ID, text: 'after', mentions: [], contentWarning: 'new warning' });
    await kickOutbox();
    expect(await getDb().outbox.count()).toBe(0);
    expect(await getDb().posts.get(ID)).toMatchObject({ text: 'before', mentions: [{ _id: 'u2', username: 'bob' }], contentWarning: 'old warning', editedAt: null });
    expect(await loadDraft(`edit:${ID}`)).toMatchObject({ text: 'after', contentWarning: 'new warning', returnedError: 'not_author' });
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'error', message: 'error/not_author' })]);
  });

  it('a blank warning leaves the stored post without one at once', async () => {
    setOnline(false);
    await getDb().posts.put(stored());
    await queueEdit({ postId: ID, text: 'after', mentions: [], contentWarning: '   ' });
    expect(await getDb().posts.get(ID)).toMatchObject({ text: 'after', contentWarning: null });
  });

  it('a refusal puts back the time of an earlier edit too', async () => {
    mockFetch(() => ({ status: 403, body: { message: 'error/not_author' } }));
    await getDb().posts.put(stored({ editedAt: 1234 }));
    await queueEdit({ postId: ID, text: 'after', mentions: [] });
    await kickOutbox();
    expect(await getDb().posts.get(ID)).toMatchObject({ text: 'before', editedAt: 1234 });
  });

  it('a waiting edit shows over the stored post, the latest one when there are several', async () => {
    setOnline(false);
    const server = stored({ editedAt: 5 }) as Post;
    const { result } = renderHook(() => usePendingEdit(server));
    expect(result.current).toBe(server);
    await queueEdit({ postId: ID, text: 'one', mentions: [] });
    await queueEdit({ postId: ID, text: 'two', mentions: [{ query: 'eve', id: 'u5' }], contentWarning: ' careful ' });
    await waitFor(() => expect(result.current.text).toBe('two'));
    expect(result.current).toMatchObject({ mentions: [{ _id: 'u5', username: 'eve' }], contentWarning: 'careful' });
    expect(result.current.editedAt).toBeGreaterThan(5);
    // Other posts are not touched by it.
    const other = renderHook(() => usePendingEdit(apiPost('c'.repeat(24)) as Post));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(other.result.current.text).toBe(`post ${'c'.repeat(24)}`);
  });
});

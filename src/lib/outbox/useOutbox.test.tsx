import '../../test/setup';
import { renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiComment, apiPost, startOffline, useCloneableBlobs } from '../../test/local-first';
import { getDb } from '../db/db';
import { clearSession } from '../session';
import { type PendingCommentRow, pendingCommentView, queueComment } from './kinds/comment';
import { queueLike } from './kinds/like';
import { type PendingPostRow, pendingPostView, queuePost } from './kinds/post';
import { useLikeState, usePendingPosts, usePendingRows } from './useOutbox';

const post = (text: string) => ({ text, mentions: [], groups: [], replyingTo: null, images: [] });

beforeEach(async () => {
  useCloneableBlobs();
  // Offline: what is queued stays in the outbox for the hooks to read.
  await startOffline();
});

describe('usePendingPosts', () => {
  it('lists the posts not created on the server yet, oldest first, and nothing else', async () => {
    const first = await queuePost(post('first'));
    await queueComment({ text: 'a comment', parent: 'pA', postId: 'pA', mentions: [], images: [] });
    await queueLike('post', 'pA', true, false);
    const created = await queuePost(post('created, images uploading'));
    await getDb().outbox.update(created.seq!, { createdId: 'p'.padEnd(24, '9') });
    await queuePost(post('second'));
    await getDb().outbox.update(first.seq!, { status: 'failed', attempts: 1 });

    const { result } = renderHook(() => usePendingPosts());
    await waitFor(() => expect(result.current.map((r) => r.payload.text)).toEqual(['first', 'second']));
  });

  it('shows no pending post before the outbox is read', () => {
    const { result } = renderHook(() => usePendingPosts());
    expect(result.current).toEqual([]);
  });

  it('lists pending comments newest first when asked, and re-reads when the filter changes', async () => {
    const comment = (text: string, postId: string) => queueComment({ text, parent: postId, postId, mentions: [], images: [] });
    await comment('one', 'pA');
    await comment('two', 'pB');
    await comment('three', 'pA');
    const { result, rerender } = renderHook(({ postId }) =>
      usePendingRows('comment', { keep: (row) => row.payload.postId === postId, deps: [postId], newestFirst: true }), { initialProps: { postId: 'pA' } });
    await waitFor(() => expect(result.current.map((r) => r.payload.text)).toEqual(['three', 'one']));
    rerender({ postId: 'pB' });
    await waitFor(() => expect(result.current.map((r) => r.payload.text)).toEqual(['two']));
  });

  it('applies the filter it is given, and the new one when it changes', async () => {
    await queuePost(post('keep'));
    await queuePost({ ...post('a reply'), replyingTo: 'pR' });
    const onlyReplies = (row: PendingPostRow) => row.payload.replyingTo === 'pR';
    const noReplies = (row: PendingPostRow) => row.payload.replyingTo === null;
    const { result, rerender } = renderHook(({ filter }) => usePendingPosts(filter), { initialProps: { filter: onlyReplies } });
    await waitFor(() => expect(result.current.map((r) => r.payload.text)).toEqual(['a reply']));
    rerender({ filter: noReplies });
    await waitFor(() => expect(result.current.map((r) => r.payload.text)).toEqual(['keep']));
  });
});

describe('pendingPostView', () => {
  it('shows a pending post as the author will see it once sent, with its slots as names', async () => {
    const row = (await queuePost({
      ...post('soon'),
      replyingTo: 'pR',
      mentions: [{ query: 'bob', id: 'u2' }],
      groups: [{ query: 'cats', id: 'g1' }],
    })) as PendingPostRow;
    expect(pendingPostView(row)).toEqual(
      apiPost(row.clientId, {
        text: 'soon',
        author: { username: 'alice', pfp: 'u1', pfpUrl: '' },
        createdAt: row.createdAt,
        replyingTo: 'pR',
        groups: [{ _id: 'g1', name: 'cats' }],
        mentions: [{ _id: 'u2', username: 'bob' }],
        itsme: true,
        canReply: false,
        alts: [],
        contentWarning: null,
      }),
    );
  });

  it('carries the content warning and the descriptions of the images written with it', async () => {
    const row = (await queuePost({
      ...post('careful'),
      contentWarning: ' spiders ',
      images: [{ blob: new Blob(['x']), name: 'a.png', alt: ' A spider ' }, { blob: new Blob(['y']), name: 'b.png' }],
    })) as PendingPostRow;
    expect(pendingPostView(row)).toMatchObject({ contentWarning: 'spiders', images: 2, alts: ['A spider', ''] });
  });

  it('shows an empty author name when the session has none', async () => {
    const row = (await queuePost(post('orphan'))) as PendingPostRow;
    clearSession();
    expect(pendingPostView(row).author).toEqual({ username: '', pfp: '', pfpUrl: '' });
  });
});

describe('pendingCommentView', () => {
  it('shows a pending reply as the author will see it once sent, with its mentions as names', async () => {
    const row = (await queueComment({
      text: 'hi',
      parent: 'c1',
      postId: 'pA',
      mentions: [{ query: 'bob', id: 'u2' }],
      images: [],
    })) as PendingCommentRow;
    expect(pendingCommentView(row)).toEqual(
      apiComment(row.clientId, 'pA', {
        text: 'hi',
        parent: { _id: 'c1', author: { username: '' }, directParent: false },
        author: { username: 'alice', pfp: 'u1', pfpUrl: '' },
        createdAt: row.createdAt,
        mentions: [{ _id: 'u2', username: 'bob' }],
        itsme: true,
        alts: [],
      }),
    );
  });
});

describe('pendingCommentView without a session', () => {
  it('shows an empty author name and no id', async () => {
    const row = (await queueComment({ text: 'hi', parent: 'pA', postId: 'pA', mentions: [], images: [] })) as PendingCommentRow;
    clearSession();
    expect(pendingCommentView(row).author).toEqual({ username: '', pfp: null, pfpUrl: '' });
    expect(pendingCommentView(row).parent.directParent).toBe(true);
  });
});

describe('useLikeState', () => {
  it("shows the server's state while no like of the target waits", async () => {
    await queueLike('comment', 'x1', true, false);
    const { result } = renderHook(() => useLikeState('post', 'x1', { liked: false, likes: 3 }));
    await waitFor(() => expect(getDb().outbox.count()).resolves.toBe(1));
    expect(result.current).toEqual({ liked: false, likes: 3, pending: false });
  });

  it('counts a waiting like in, and a waiting unlike out', async () => {
    await queueLike('post', 'p1', true, false);
    await queueLike('post', 'p2', false, true);
    const liked = renderHook(() => useLikeState('post', 'p1', { liked: false, likes: 3 }));
    const unliked = renderHook(() => useLikeState('post', 'p2', { liked: true, likes: 3 }));
    await waitFor(() => expect(liked.result.current).toEqual({ liked: true, likes: 4, pending: true }));
    await waitFor(() => expect(unliked.result.current).toEqual({ liked: false, likes: 2, pending: true }));
  });

  it('never shows a negative count', async () => {
    await queueLike('post', 'p1', false, true);
    const { result } = renderHook(() => useLikeState('post', 'p1', { liked: true, likes: 0 }));
    await waitFor(() => expect(result.current).toEqual({ liked: false, likes: 0, pending: true }));
  });

  it('shows the latest of a like being sent and a toggle made since', async () => {
    await queueLike('post', 'p1', true, false);
    await getDb().outbox.where('target').equals('post:p1').modify({ status: 'sending' });
    await queueLike('post', 'p1', false, false);
    const { result } = renderHook(() => useLikeState('post', 'p1', { liked: false, likes: 1 }));
    await waitFor(() => expect(result.current).toEqual({ liked: false, likes: 1, pending: true }));
  });
});

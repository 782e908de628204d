import '../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DELETED } from '#core/limits';
import { getDb, clearLocalData } from '../../lib/db/db';
import { clearSession, storeSession } from '../../lib/session';
import { getToasts } from '../../lib/toast';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { apiPost, mockFetch, setOnline, useCloneableBlobs } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import { PostCard } from './PostCard';
import type { Post } from '../../lib/api/types';

const post = (extra: Partial<Post> = {}) =>
  apiPost('p1', {
    text: 'Hello #Cats and more',
    author: { username: 'alice', pfp: 'u1' },
    createdAt: Date.now() - 5 * 60_000,
    likes: 2,
    comments: 3,
    groups: [{ _id: 'g1', name: 'cats' }, { _id: null, name: 'gone' }],
    mentions: [{ _id: 'u2', username: 'bob' }, { _id: null, username: 'ghost' }],
    media: ['/media/p10.webp'],
    ...extra,
  }) as Post;

beforeEach(async () => {
  useCloneableBlobs();
  setOnline(false);
  storeSession('t1', 'me', 'u9');
  await clearLocalData();
});
afterEach(() => cancelScheduledSend());

describe('PostCard', () => {
  it('shows the author, time, tags, hashtag links, images and counts', () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post()} />);
    expect(screen.getByRole('link', { name: 'alice' })).toHaveAttribute('href', '/u/alice');
    expect(screen.getByRole('img', { name: /alice/ })).toHaveAttribute('src', '/media/pfp/u1.jpeg');
    expect(screen.getByText('5 minutes ago')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '&cats' })).toHaveAttribute('href', '/g/cats');
    expect(screen.queryByRole('link', { name: '&gone' })).toBeNull();
    expect(screen.getByText('&gone')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '@bob' })).toHaveAttribute('href', '/u/bob');
    expect(screen.getByText('@ghost').closest('a')).toBeNull();
    expect(screen.getByRole('link', { name: '#Cats' })).toHaveAttribute('href', '/h/cats');
    expect(screen.getByRole('img', { name: 'Image 1 of the post' })).toHaveAttribute('src', '/media/p10.webp');
    expect(screen.getByRole('link', { name: '3 comments' })).toHaveAttribute('href', '/p/p1');
    expect(screen.getByRole('button', { name: 'Like' })).toHaveTextContent('2 likes');
  });

  it('likes through the outbox and shows it at once', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Like' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Unlike' })).toHaveTextContent('3 likes'));
    const rows = await getDb().outbox.toArray();
    expect(rows).toEqual([expect.objectContaining({ kind: 'like', target: 'post:p1', payload: expect.objectContaining({ liked: true }) })]);
    fireEvent.click(screen.getByRole('button', { name: 'Unlike' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Like' })).toHaveTextContent('2 likes'));
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('sends visitors to login instead of liking', async () => {
    clearSession();
    mockFetch(() => ({ body: {} }));
    const { router } = renderWithApp(<PostCard post={post()} />, { routes: [{ path: '/login', element: <p>login page</p> }] });
    fireEvent.click(screen.getByRole('button', { name: 'Like' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('copies the share link', async () => {
    mockFetch(() => ({ body: {} }));
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderWithApp(<PostCard post={post()} />);
    const before = getToasts().length;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
    expect(writeText).toHaveBeenCalledWith(`${location.origin}/#/p/p1`);
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'info', message: 'post:share_copied' })]);

    writeText.mockRejectedValueOnce(new Error('denied'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
    expect(getToasts().at(-1)).toEqual(expect.objectContaining({ kind: 'error', message: 'post:share_failed' }));
  });

  it('lets the author delete after confirming', async () => {
    setOnline(true);
    const { calls } = mockFetch(() => ({ body: { message: 'info/post_deleted' } }));
    await getDb().posts.put({ ...post({ itsme: true }), cachedAt: 1 });
    renderWithApp(<PostCard post={post({ itsme: true })} />);
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete post' }));
    const dialog = screen.getByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete post' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toEqual([expect.objectContaining({ method: 'DELETE', path: '/api/post/p1' })]));
    await waitFor(async () => expect(await getDb().posts.get('p1')).toBeUndefined());
  });

  it('has no delete for other people’s posts', () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post({ itsme: false, canReply: true })} />);
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    expect(screen.queryByRole('menuitem', { name: 'Delete post' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Reply with a post' })).toHaveAttribute('href', '/post?author=alice&rep=p1');
  });

  it('shows a pending badge and no actions for an outbox post', () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post()} pending={{ status: 'pending', images: [] }} />);
    expect(screen.getByRole('status')).toHaveTextContent('Waiting to send');
    expect(screen.queryByRole('button', { name: 'Like' })).toBeNull();
  });

  it('quotes the original of a reply, or says it was deleted', async () => {
    setOnline(true);
    mockFetch((call) => (call.path === '/api/post/orig' ? { body: apiPost('orig', { text: 'the original' }) } : { status: 404, body: { message: 'error/invalid_post' } }));
    const { unmount } = renderWithApp(<PostCard post={post({ replyingTo: 'orig' })} />);
    expect(await screen.findByText('the original')).toBeInTheDocument();
    unmount();
    renderWithApp(<PostCard post={post({ replyingTo: DELETED })} />);
    expect(screen.getByText(/deleted/i)).toBeInTheDocument();
  });

  it('speaks Czech', () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post()} />, { lng: 'cs' });
    expect(screen.getByText('před 5 minutami')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '3 komentáře' })).toBeInTheDocument();
  });
});

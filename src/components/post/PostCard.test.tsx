import '../../test/setup';
import { readFileSync } from 'node:fs';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DELETED } from '#core/limits';
import { getDb } from '../../lib/db/db';
import { clearSession } from '../../lib/session';
import { getToasts } from '../../lib/toast';
import { queueComment } from '../../lib/outbox/kinds/comment';
import { queryKeys } from '../../lib/query/keys';
import { apiComment, apiPost, mockFetch, setOnline, setUpLocalFirst, startOffline } from '../../test/local-first';
import { chooseFromMenu, openMenu } from '../../test/menu';
import { renderWithApp } from '../../test/render';
import { PostCard } from './PostCard';
import type { ImagePriority } from './PostImages';
import type { Post } from '../../lib/api/types';
import { loadPostMenuPanel } from './PostMenu';

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

// The stylesheets as written: the unit tests render no CSS, so they read the rules that keep the boxes.
const stylesheet = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');
const postCardCss = stylesheet('./post-card.css');
const quotedPostCss = stylesheet('./quoted-post.css');

// The menu's entries come in their own chunk, which a page loads once idle after its first cards.
beforeAll(async () => {
  await loadPostMenuPanel();
});

setUpLocalFirst(() => startOffline('me', 'u9'));

describe('PostCard', () => {
  it('opens the post from anywhere on the card but its links and buttons', async () => {
    mockFetch(() => ({ body: {} }));
    const { router } = renderWithApp(<PostCard post={post()} />, { route: '/feed' });
    fireEvent.click(screen.getByRole('button', { name: /show content|image/i }));
    fireEvent.click(screen.getByRole('link', { name: 'alice' }), { button: 1 });
    expect(router.state.location.pathname).toBe('/feed');
    fireEvent.click(screen.getByText(/Hello/));
    await waitFor(() => expect(router.state.location.pathname).toBe('/p/p1'));
  });

  it('leaves the post\'s own page and a post being answered where they are', () => {
    mockFetch(() => ({ body: {} }));
    const { router } = renderWithApp(<PostCard post={post({ media: [] })} quoted />, { route: '/post' });
    fireEvent.click(screen.getByText(/Hello/));
    expect(router.state.location.pathname).toBe('/post');
  });

  it('shows the author\'s avatar under the versioned URL the server gave', () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post({ author: { username: 'alice', pfp: 'u1', pfpUrl: '/media/pfp/u1.jpeg?v=42' } })} />);
    expect(screen.getByRole('img', { name: /alice/ })).toHaveAttribute('src', '/media/pfp/u1.jpeg?v=42');
  });

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
    expect(screen.getByRole('button', { name: 'Like' }).nextElementSibling).toHaveTextContent('2 likes');
  });

  it('counts a comment written here at once: while queued, then once sent', async () => {
    mockFetch(() => ({ body: {} }));
    const cachedAt = Date.now() - 60_000;
    renderWithApp(<PostCard post={{ ...post(), cachedAt } as Post} />);
    expect(screen.getByRole('link', { name: '3 comments' })).toBeInTheDocument();
    await queueComment({ text: 'hi', parent: 'p1', postId: 'p1', mentions: [], images: [] });
    expect(await screen.findByRole('link', { name: '4 comments' })).toBeInTheDocument();
    await getDb().outbox.clear();
    await getDb().comments.put({ ...apiComment('c1', 'p1', { createdAt: Date.now() }), cachedAt: Date.now() });
    expect(await screen.findByRole('link', { name: '4 comments' })).toBeInTheDocument();
    await getDb().comments.put({ ...apiComment('c0', 'p1', { createdAt: cachedAt - 1000 }), cachedAt: Date.now() });
    expect(screen.getByRole('link', { name: '4 comments' })).toBeInTheDocument();
  });

  it.each([
    ['the author', '/u/alice', 'alice'],
    ['a group tag', '/g/cats', '&cats'],
    ['a mention', '/u/bob', '@bob'],
    ['a hashtag', '/h/cats', '#Cats'],
    ['the comment count', '/p/p1', '3 comments'],
  ])('does nothing for %s when its page is already showing, and leaves a ctrl click to the browser', (_what, route, name) => {
    mockFetch(() => ({ body: {} }));
    const { router } = renderWithApp(<PostCard post={post()} />, { route, path: '*' });
    const click = (init: MouseEventInit) => {
      const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
      screen.getByRole('link', { name }).dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(click({})).toBe(true);
    expect(router.state.historyAction).toBe('POP');
    expect(click({ ctrlKey: true })).toBe(false);
  });

  it('likes through the outbox and shows it at once', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post()} />);
    expect(screen.queryByRole('status')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Like' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Unlike' }).nextElementSibling).toHaveTextContent('3 likes'));
    // Not sent yet (offline): marked as waiting, by an icon drawn like the others (no font needed).
    expect(screen.getByRole('status')).toHaveTextContent('Waiting to send');
    expect(screen.getByRole('status').querySelector('svg[data-icon="pending"]')).not.toBeNull();
    expect(screen.getByRole('status')).not.toHaveTextContent('⏱');
    const rows = await getDb().outbox.toArray();
    expect(rows).toEqual([expect.objectContaining({ kind: 'like', target: 'post:p1', payload: expect.objectContaining({ liked: true }) })]);
    fireEvent.click(screen.getByRole('button', { name: 'Unlike' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Like' }).nextElementSibling).toHaveTextContent('2 likes'));
    expect(await getDb().outbox.count()).toBe(0);
    // Back to the server's state: nothing waits.
    expect(screen.queryByRole('status')).toBeNull();
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
    expect(writeText).toHaveBeenCalledWith(`${location.origin}/p/p1`);
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'info', message: 'post:share_copied' })]);

    writeText.mockRejectedValueOnce(new Error('denied'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
    expect(getToasts().at(-1)).toEqual(expect.objectContaining({ kind: 'error', message: 'post:share_failed' }));
  });

  it('lets the author delete after confirming', async () => {
    setOnline(true);
    const { calls } = mockFetch((call) =>
      call.method === 'DELETE' ? { body: { message: 'info/post_deleted' } } : { status: 404, body: { message: 'error/didnt_find_post' } },
    );
    await getDb().posts.put({ ...post({ itsme: true }), cachedAt: 1 });
    renderWithApp(<PostCard post={post({ itsme: true })} />);
    await chooseFromMenu('More actions', 'Delete post');
    const dialog = screen.getByRole('alertdialog', { name: 'Do you really want to delete this post?' });
    expect(dialog).toHaveTextContent('Do you really want to delete this post?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls).toHaveLength(0);

    await chooseFromMenu('More actions', 'Delete post');
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete post' }));
    // Reloaded whatever the outcome: the post is asked for again.
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/post/p1', 'GET /api/post/p1']));
    await waitFor(async () => expect(await getDb().posts.get('p1')).toBeUndefined());
  });

  it('has no delete for other people’s posts', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post({ itsme: false, canReply: true })} />);
    await openMenu('More actions');
    expect(screen.queryByRole('menuitem', { name: 'Delete post' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Reply with a post' })).toHaveAttribute('href', '/post?author=alice&rep=p1');
  });

  it('closes the menu with Escape, giving the focus back to its button, and with a click elsewhere', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post({ itsme: true })} />);
    const button = screen.getByRole('button', { name: 'More actions' });
    const menu = await openMenu(button);
    fireEvent.keyDown(within(menu).getByRole('menuitem', { name: 'Delete post' }), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    expect(await openMenu(button)).toBeInTheDocument();
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  describe('group-admin actions', () => {
    const groups = [{ _id: 'g1', name: 'cats' }, { _id: 'g2', name: 'dogs' }, { _id: null, name: 'gone' }];
    const openPostMenu = () => openMenu('More actions');
    const inGroup = (name: string) => within(screen.getByRole('group', { name: `Admin actions in &${name}` }));
    const ok = (message: string) => ({ body: { message } });
    const fresh = (extra: Partial<Post> = {}) => post({ groups, canReply: false, ...extra });
    let errors: ReturnType<typeof vi.spyOn>;

    beforeEach(() => {
      setOnline(true);
      errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    });
    afterEach(() => errors.mockRestore());

    it('appear only for the groups where the caller is an admin', async () => {
      mockFetch(() => ({ body: {} }));
      const { unmount } = renderWithApp(<PostCard post={fresh({ adminGroups: [1] })} />);
      await openPostMenu();
      expect(screen.queryByRole('group', { name: 'Admin actions in &cats' })).toBeNull();
      expect(inGroup('dogs').getByRole('menuitem', { name: 'Remove from the group' })).toBeInTheDocument();
      expect(inGroup('dogs').getByRole('menuitem', { name: 'Pin in the group' })).toBeInTheDocument();
      expect(inGroup('dogs').getByRole('menuitem', { name: 'Ban alice in the group' })).toBeInTheDocument();
      unmount();

      // Without admin groups, someone else's post offers the report, muting and blocking its author.
      renderWithApp(<PostCard post={fresh({ adminGroups: [] })} />);
      await openPostMenu();
      expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Report post', 'Mute @alice', 'Block @alice']);
    });

    it('are grouped per group, with unpin and unban where the post is pinned or the author banned', async () => {
      mockFetch(() => ({ body: {} }));
      renderWithApp(<PostCard post={fresh({ adminGroups: [0, 1], pinnedGroups: [0], bannedGroups: [1] })} />);
      await openPostMenu();
      expect(screen.getAllByRole('group').map((g) => g.getAttribute('aria-label'))).toEqual(['Admin actions in &cats', 'Admin actions in &dogs']);
      expect(inGroup('cats').getAllByRole('menuitem').map((b) => b.textContent)).toEqual([
        'Remove from the group',
        'Unpin in the group',
        'Ban alice in the group',
      ]);
      expect(inGroup('dogs').getAllByRole('menuitem').map((b) => b.textContent)).toEqual([
        'Remove from the group',
        'Pin in the group',
        'Unban alice in the group',
      ]);
    });

    it('removes the post from the group after confirming, and cancelling makes no call', async () => {
      const { calls } = mockFetch((call) =>
        call.method === 'DELETE' ? ok('info/post_removed') : { status: 404, body: { message: 'error/invalid_post' } },
      );
      await getDb().posts.put({ ...fresh({ adminGroups: [1] }), cachedAt: 1 });
      renderWithApp(<PostCard post={fresh({ adminGroups: [1] })} />);
      await openPostMenu();
      fireEvent.click(inGroup('dogs').getByRole('menuitem', { name: 'Remove from the group' }));
      const dialog = screen.getByRole('alertdialog');
      expect(dialog).toHaveTextContent('Remove the post from &dogs?');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(calls).toHaveLength(0);

      const before = getToasts().length;
      await openPostMenu();
      fireEvent.click(inGroup('dogs').getByRole('menuitem', { name: 'Remove from the group' }));
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove post' }));
      await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/group/g2/p/p1', 'GET /api/post/p1']));
      expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'info', message: 'info/post_removed' })]);
      // Removed from a private group the post is gone: the stored copy goes too.
      await waitFor(async () => expect(await getDb().posts.get('p1')).toBeUndefined());
    });

    it('logs a failed removal, translated, without a toast, and still reloads the post', async () => {
      const { calls } = mockFetch((call) =>
        call.method === 'DELETE' ? { status: 403, body: { message: 'error/need_admin' } } : { body: fresh() },
      );
      renderWithApp(<PostCard post={fresh({ adminGroups: [0] })} />);
      const before = getToasts().length;
      await openPostMenu();
      fireEvent.click(inGroup('cats').getByRole('menuitem', { name: 'Remove from the group' }));
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove post' }));
      await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/group/g1/p/p1', 'GET /api/post/p1']));
      expect(errors).toHaveBeenCalledWith(expect.any(String), 'Only a group admin can do this.');
      expect(getToasts().slice(before)).toEqual([]);
    });

    it('pins and unpins by group name, then reloads the post and the group page', async () => {
      const { calls } = mockFetch((call) => (call.method === 'PUT' ? ok('info/post_pinned') : { body: fresh({ adminGroups: [0], pinnedGroups: [0] }) }));
      const { queryClient } = renderWithApp(<PostCard post={fresh({ adminGroups: [0] })} />);
      const groupKey = queryKeys.group(getDb().name, 'Cats');
      queryClient.setQueryData(groupKey, { pinnedPost: null });
      await openPostMenu();
      fireEvent.click(inGroup('cats').getByRole('menuitem', { name: 'Pin in the group' }));
      await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /api/group/cats/pin/p1', 'GET /api/post/p1']));
      await waitFor(async () => expect((await getDb().posts.get('p1'))?.pinnedGroups).toEqual([0]));
      expect(queryClient.getQueryState(groupKey)?.isInvalidated).toBe(true);
      expect(screen.queryByRole('menu')).toBeNull();

      calls.length = 0;
      renderWithApp(<PostCard post={fresh({ _id: 'p2', adminGroups: [0], pinnedGroups: [0] })} />);
      await openMenu(screen.getAllByRole('button', { name: 'More actions' })[1]!);
      fireEvent.click(inGroup('cats').getByRole('menuitem', { name: 'Unpin in the group' }));
      await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /api/group/cats/unpin', 'GET /api/post/p2']));
    });

    it('only logs a failed pin', async () => {
      const { calls } = mockFetch((call) => (call.method === 'PUT' ? { status: 403, body: { message: 'error/admin_pin' } } : { body: fresh() }));
      renderWithApp(<PostCard post={fresh({ adminGroups: [0] })} />);
      const before = getToasts().length;
      await openPostMenu();
      fireEvent.click(inGroup('cats').getByRole('menuitem', { name: 'Pin in the group' }));
      await waitFor(() => expect(calls).toHaveLength(2));
      expect(errors).toHaveBeenCalledWith(expect.any(String), 'Only an admin can pin posts.');
      expect(getToasts().slice(before)).toEqual([]);
    });

    it('bans and unbans the author by user id, with a toast', async () => {
      const { calls } = mockFetch((call) =>
        call.method === 'PUT' ? ok(call.path.includes('/unban/') ? 'info/user_unbanned' : 'info/user_banned') : { body: fresh() },
      );
      renderWithApp(<PostCard post={fresh({ adminGroups: [0, 1], bannedGroups: [1] })} />);
      const before = getToasts().length;
      await openPostMenu();
      fireEvent.click(inGroup('cats').getByRole('menuitem', { name: 'Ban alice in the group' }));
      // A ban asks first; an unban does not.
      expect(screen.getByText('Ban alice from &cats?')).toBeInTheDocument();
      expect(calls).toEqual([]);
      fireEvent.click(screen.getByRole('button', { name: 'Ban alice' }));
      await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /api/group/cats/ban/u1', 'GET /api/post/p1']));
      await openPostMenu();
      fireEvent.click(inGroup('dogs').getByRole('menuitem', { name: 'Unban alice in the group' }));
      await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`).slice(2)).toEqual(['PUT /api/group/dogs/unban/u1', 'GET /api/post/p1']));
      expect(getToasts().slice(before)).toEqual([
        expect.objectContaining({ kind: 'info', message: 'info/user_banned' }),
        expect.objectContaining({ kind: 'info', message: 'info/user_unbanned' }),
      ]);
    });

    it('offers no ban on a post of the group owner, and shows the refusal when the server knows better', async () => {
      mockFetch(() => ({ body: {} }));
      const { unmount } = renderWithApp(<PostCard post={fresh({ itsme: true, adminGroups: [0], ownedGroups: [0] })} />);
      await openPostMenu();
      expect(inGroup('cats').getAllByRole('menuitem').map((b) => b.textContent)).toEqual(['Remove from the group', 'Pin in the group']);
      unmount();

      // An admin viewing the owner's post: only the server knows who owns the group.
      const { calls } = mockFetch((call) => (call.method === 'PUT' ? { status: 403, body: { message: 'error/ban_owner' } } : { body: fresh() }));
      renderWithApp(<PostCard post={fresh({ adminGroups: [0] })} />);
      const before = getToasts().length;
      await openPostMenu();
      fireEvent.click(inGroup('cats').getByRole('menuitem', { name: 'Ban alice in the group' }));
      fireEvent.click(screen.getByRole('button', { name: 'Ban alice' }));
      await waitFor(() => expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'error', message: 'error/ban_owner' })]));
      expect(calls[0]).toEqual(expect.objectContaining({ method: 'PUT', path: '/api/group/cats/ban/u1' }));
    });

    it('speaks Czech', async () => {
      mockFetch(() => ({ body: {} }));
      renderWithApp(<PostCard post={fresh({ adminGroups: [0] })} />, { lng: 'cs' });
      await openMenu('Další akce');
      const group = within(screen.getByRole('group', { name: 'Správa ve skupině &cats' }));
      expect(group.getAllByRole('menuitem').map((b) => b.textContent)).toEqual([
        'Odebrat ze skupiny',
        'Připnout ve skupině',
        'Zablokovat uživatele alice ve skupině',
      ]);
    });
  });

  it('shows the pinned banner only when shown as the pinned post', () => {
    mockFetch(() => ({ body: {} }));
    const { unmount } = renderWithApp(<PostCard post={post()} />);
    expect(screen.queryByText('Pinned')).toBeNull();
    unmount();
    renderWithApp(<PostCard post={post()} pinned />);
    expect(screen.getByText('Pinned')).toBeInTheDocument();
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

  describe('keeps its height while things load', () => {
    it('reserves the pictures\' box before they load: 4:3 for one, two squares for two, cropped to fill', () => {
      mockFetch(() => ({ body: {} }));
      const { unmount } = renderWithApp(<PostCard post={post()} />);
      const one = screen.getByRole('img', { name: 'Image 1 of the post' });
      expect(one.closest('.post-images')).toHaveStyle({ aspectRatio: '4 / 3' });
      expect(one).toHaveAttribute('width', '800');
      expect(one).toHaveAttribute('height', '600');
      unmount();
      renderWithApp(<PostCard post={post({ media: ['/media/a.webp', '/media/b.webp'] })} />);
      const two = screen.getAllByRole('img', { name: /Image \d of the post/ });
      expect(two).toHaveLength(2);
      expect(two[0]!.closest('.post-images')).toHaveStyle({ aspectRatio: '2 / 1' });
      for (const img of two) {
        expect(img).toHaveAttribute('width', '400');
        expect(img).toHaveAttribute('height', '400');
      }
      expect(postCardCss).toMatch(/\.post-image img \{[^}]*object-fit: cover/);
      expect(postCardCss).toMatch(/\.post-images \{[^}]*min-height: 0/);
    });

    it('loads its pictures lazily, unless asked for them at once or ahead of everything else', () => {
      mockFetch(() => ({ body: {} }));
      const two = { media: ['/media/a.webp', '/media/b.webp'] };
      const seen = (pictures?: ImagePriority) => {
        const { unmount } = renderWithApp(<PostCard post={post(two)} pictures={pictures} />);
        const imgs = screen.getAllByRole('img', { name: /Image \d of the post/ });
        const attributes = imgs.map((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority')]);
        unmount();
        return attributes;
      };
      expect(seen('high')).toEqual([['eager', 'high'], ['eager', null]]);
      expect(seen('eager')).toEqual([['eager', null], ['eager', null]]);
      expect(seen('lazy')).toEqual([['lazy', null], ['lazy', null]]);
      expect(seen(undefined)).toEqual([['lazy', null], ['lazy', null]]);
    });

    it('quotes the original in one fixed-height box while loading and once loaded, with no full-size pictures', async () => {
      setOnline(true);
      let answer: (() => void) | undefined;
      const arrived = new Promise<void>((done) => (answer = done));
      mockFetch(async (call) => {
        if (call.path !== '/api/post/orig') return { body: {} };
        await arrived;
        return { body: apiPost('orig', { text: 'the original', author: { username: 'carol', pfp: 'u3' }, media: ['/media/o1.webp', '/media/o2.webp'] }) };
      });
      const { container } = renderWithApp(<PostCard post={post({ replyingTo: 'orig', media: [] })} />);
      const loading = container.querySelector('.post-quoted');
      expect(loading).toHaveTextContent('Loading the original post');
      answer!();
      expect(await screen.findByText('the original')).toBeInTheDocument();
      const quote = screen.getByText('the original').closest('.post-quoted')!;
      expect(quote).toHaveAttribute('href', '/p/orig');
      expect(quote).toHaveTextContent('carol');
      expect(within(quote as HTMLElement).queryByRole('img', { name: /Image 2/ })).toBeNull();
      expect(quote.querySelector('.post-images, .post-card')).toBeNull();
      const thumb = within(quote as HTMLElement).getByRole('img', { name: 'Image 1 of the post' });
      expect(thumb).toHaveClass('post-quoted-thumb');
      expect(Number(thumb.getAttribute('width'))).toBeLessThanOrEqual(64);
      expect(Number(thumb.getAttribute('height'))).toBeLessThanOrEqual(64);
      // The one class both states share is the one with a fixed height and nothing overflowing it.
      const rule = /(?:^|\n)\.post-quoted \{([^}]*)\}/.exec(quotedPostCss)?.[1] ?? '';
      expect(rule).toMatch(/\bheight: \d/);
      expect(rule).toMatch(/overflow: hidden/);
      expect(quotedPostCss).toMatch(/\.post-quoted-text \{[^}]*line-clamp: 2/);
    });
  });

  it('speaks Czech', () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post()} />, { lng: 'cs' });
    expect(screen.getByText('před 5 minutami')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '3 komentáře' })).toBeInTheDocument();
  });
});

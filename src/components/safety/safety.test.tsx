import '../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CachedComment, type KruhDb, getDb } from '../../lib/db/db';
import { cancelScheduledSend, kickOutbox } from '../../lib/outbox/outbox';
import { queueSafety } from '../../lib/outbox/kinds/safety';
import { getToasts } from '../../lib/toast';
import type { Post } from '../../lib/api/types';
import { apiComment, apiPost, mockFetch, setOnline, startOffline } from '../../test/local-first';
import { chooseFromMenu, openMenu } from '../../test/menu';
import { renderWithApp } from '../../test/render';
import { PostCard } from '../post/PostCard';
import { MuteTagButton } from './MuteTagButton';
import { SafetyMenu } from './SafetyMenu';
import { loadPostMenuPanel } from '../post/PostMenu';

const bob = { username: 'bob', pfp: 'u2', pfpUrl: '/media/pfp/u2.jpeg' };
const bobsPost = apiPost('p1', { text: 'hello #cats', author: bob }) as Post;
const othersPost = apiPost('p2', { text: 'other words', author: { username: 'carol', pfp: 'u3', pfpUrl: '/media/pfp/u3.jpeg' } }) as Post;

/** Stored pages as a feed, a profile and a hashtag page left them. */
async function storePages(db: KruhDb) {
  const now = Date.now();
  await db.posts.bulkPut([bobsPost, othersPost].map((p) => ({ ...p, cachedAt: now })));
  await db.comments.put({ ...(apiComment('c1', 'p2', { author: bob }) as unknown as CachedComment), cachedAt: now });
  const page = (feedKey: string, ids: string[]) => ({ feedKey, page: 1, ids, hasMore: false, fetchedAt: now });
  await db.feedPages.bulkPut([
    page('explore|sort=newest|time=all', ['p1', 'p2']),
    page('profile:bob|sort=newest|time=all', ['p1']),
    page('hash:cats|sort=newest|time=all', ['p1']),
    page('comments:p2|sort=popular|time=all|pinned=', ['c1']),
  ]);
}

const idsOf = async (feedKey: string) => (await getDb().feedPages.get([`${feedKey}|sort=newest|time=all`, 1]))?.ids;

const openPostMenu = () => openMenu('More actions');

// The menu's entries come in their own chunk, which a page loads once idle after its first cards.
beforeAll(async () => {
  await loadPostMenuPanel();
});

beforeEach(async () => {
  await startOffline('me', 'u9');
  await storePages(getDb());
});
afterEach(() => cancelScheduledSend());

describe("a post's menu: muting and blocking its author", () => {
  it('blocks after a confirmation, offline: queued once, and the author leaves every stored page at once', async () => {
    const { calls } = mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={bobsPost} />);
    await chooseFromMenu('More actions', 'Block @bob');
    expect(screen.getByText('Block @bob?')).toBeInTheDocument();
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Block @bob' }));
    await waitFor(async () => expect(await idsOf('explore')).toEqual(['p2']));
    expect(await idsOf('profile:bob')).toEqual([]);
    expect(await idsOf('hash:cats')).toEqual([]);
    expect(await getDb().posts.get('p1')).toBeUndefined();
    expect(await getDb().comments.get('c1')).toBeUndefined();
    const rows = await getDb().outbox.toArray();
    expect(rows).toEqual([expect.objectContaining({ kind: 'safety', target: 'safety:block:u2', payload: expect.objectContaining({ action: 'block', subject: 'u2', on: true, from: false }) })]);
    expect(calls).toEqual([]);
  });

  it('cancelling the confirmation blocks nobody', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={bobsPost} />);
    await chooseFromMenu('More actions', 'Block @bob');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await getDb().outbox.count()).toBe(0);
    expect(await idsOf('explore')).toEqual(['p1', 'p2']);
  });

  it('mutes without asking: the author leaves the feeds, not their profile; the menu then offers unmuting', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={bobsPost} />);
    await chooseFromMenu('More actions', 'Mute @bob');
    await waitFor(() => expect(getToasts()).toContainEqual(expect.objectContaining({ kind: 'info', message: 'safety:muted_toast', values: { username: 'bob' } })));
    await waitFor(async () => expect(await idsOf('explore')).toEqual(['p2']));
    expect(await idsOf('profile:bob')).toEqual(['p1']);
    expect(await idsOf('hash:cats')).toEqual([]);
    await openPostMenu();
    expect(await screen.findByRole('menuitem', { name: 'Unmute @bob' })).toBeInTheDocument();
  });

  it('offers neither on the reader\'s own post', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={{ ...bobsPost, itsme: true, author: { username: 'me', pfp: 'u9', pfpUrl: '' } }} />);
    await openPostMenu();
    expect(screen.queryByRole('menuitem', { name: /Mute|Block/ })).toBeNull();
  });
});

describe('the outbox of blocks and mutes', () => {
  it('folds changes not sent yet: muting and unmuting again leaves nothing to send', async () => {
    await queueSafety('mute', 'u2', true);
    await queueSafety('mute', 'u2', false);
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('sends once when online, with its Idempotency-Key', async () => {
    const { calls } = mockFetch(() => ({ body: { message: 'info/user_blocked' } }));
    await queueSafety('block', 'u2', true);
    const key = (await getDb().outbox.toArray())[0]!.idempotencyKey;
    setOnline(true);
    await act(() => kickOutbox());
    expect(calls.map((c) => [c.method, c.path, c.headers['Idempotency-Key']])).toEqual([['PUT', '/api/block/u2', key]]);
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('a refusal is shown and puts the state back', async () => {
    mockFetch(() => ({ status: 400, body: { message: 'error/mute_yourself' } }));
    const before = getToasts().length;
    await queueSafety('mute', 'u9', true);
    setOnline(true);
    await act(() => kickOutbox());
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'error', message: 'error/mute_yourself' })]);
    expect((await getDb().meta.get('safety:mute:u9'))?.value).toBe(false);
    expect(await getDb().outbox.count()).toBe(0);
  });
});

describe('muting a hashtag from its page', () => {
  it('takes its posts out of the feeds but its own page, and offers unmuting', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<MuteTagButton tag="cats" />);
    fireEvent.click(screen.getByRole('button', { name: 'Mute #cats' }));
    await waitFor(async () => expect(await idsOf('explore')).toEqual(['p2']));
    expect(await idsOf('hash:cats')).toEqual(['p1']);
    expect(await idsOf('profile:bob')).toEqual(['p1']);
    expect(await screen.findByRole('button', { name: 'Unmute #cats' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Posts with #cats are left out of your feeds.')).toBeInTheDocument();
  });
});

describe("the profile's menu", () => {
  it('says when the user has blocked the reader, from the server\'s answer', async () => {
    setOnline(true);
    mockFetch((call) => (call.path === '/api/block/u2' ? { body: { blocking: false, blockedBy: true, muting: true } } : { body: {} }));
    renderWithApp(<SafetyMenu userId="u2" username="bob" />);
    expect(await screen.findByText('@bob has blocked you.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'More about @bob' }));
    expect(await screen.findByRole('menuitem', { name: 'Unmute @bob' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Block @bob' })).toBeInTheDocument();
  });

  it('shows a muted user as muted, with an unmute that says it worked', async () => {
    setOnline(true);
    mockFetch((call) => (call.path === '/api/block/u2' ? { body: { blocking: false, blockedBy: false, muting: true } } : { body: {} }));
    renderWithApp(<SafetyMenu userId="u2" username="bob" />);
    expect(await screen.findByText('Muted')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Unmute @bob' }));
    await waitFor(() => expect(screen.queryByText('Muted')).not.toBeInTheDocument());
    expect(getToasts()).toContainEqual(expect.objectContaining({ kind: 'info', message: 'safety:unmuted_toast', values: { username: 'bob' } }));
  });
});

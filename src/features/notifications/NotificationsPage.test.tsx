import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb, logoutAndClear } from '../../lib/db/db';
import { announceNotificationsArrived, onNotificationsChanged } from '../../lib/notification-signals';
import { storeSession } from '../../lib/session';
import { getToasts, dismissToast } from '../../lib/toast';
import { type FetchCall, mockFetch } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import NotificationsPage from './NotificationsPage';
import type { Notification } from './notifications.api';

const hex = (n: number) => n.toString(16).padStart(24, '0');
const HOUR = 3_600_000;

function note(n: number, extra: Partial<Notification> = {}): Notification {
  return {
    _id: hex(n),
    type: 'NEW_FOLLOWER',
    author: 'alice',
    seen: false,
    reply: null,
    context: { post: null, comment: null, count: 1 },
    username: 'alice',
    groupname: null,
    pfp: hex(900),
    gp: null,
    pfpUrl: `/media/pfp/${hex(900)}.jpeg`,
    gpUrl: null,
    groups: [],
    createdAt: Date.now() - n * HOUR,
    ...extra,
  };
}

const texts = () => screen.queryAllByRole('article').map((a) => a.querySelector('.notification__text')?.textContent);
const pathOf = (call: FetchCall) => `${call.method} ${call.path}`;
const pageOf = (call: FetchCall) => new URL(call.url, 'http://x').searchParams.get('page');

/** Answers the list from `pages` (1-based) and records everything else with an empty reply. */
function serve(pages: Notification[][], other: (call: FetchCall) => { status?: number; body?: unknown } | undefined = () => undefined) {
  return mockFetch((call) => {
    if (call.method === 'GET' && call.path === '/api/notification/') {
      const page = Number(pageOf(call));
      expect(new URL(call.url, 'http://x').searchParams.get('limit')).toBe('6');
      return { body: { notifications: pages[page - 1] ?? [], hasMore: page < pages.length } };
    }
    return other(call) ?? { body: { message: 'info/account_updated', count: 0 } };
  });
}

const render = () => renderWithApp(<NotificationsPage />, { route: '/notifications', path: '/notifications' });

beforeEach(async () => {
  storeSession('tok', 'me', hex(777));
  await logoutAndClear();
  storeSession('tok', 'me', hex(777));
  vi.stubGlobal('IntersectionObserver', undefined);
  for (const t of getToasts()) dismissToast(t.id);
});
afterEach(() => vi.unstubAllGlobals());

describe('NotificationsPage', () => {
  it('renders each type with its label, links and avatar, and marks all seen', async () => {
    const items = [
      note(1),
      note(2, { type: 'NEW_REPLY', reply: 'nice one', context: { post: hex(50), comment: null, count: 1 } }),
      note(3, { type: 'NEW_REPLY', reply: 'a comment', context: { post: hex(50), comment: hex(60), count: 1 } }),
      note(7, { type: 'NEW_REPLY', reply: 'an answer', context: { post: hex(50), comment: hex(61), parentComment: hex(60), count: 1 }, createdAt: Date.now() - 3.5 * HOUR }),
      note(4, { type: 'MENTION', context: { post: hex(51), comment: null, count: 3 }, reply: 'hi @me @me @me' }),
      note(5, { type: 'GROUP_JOIN_REQUEST', groupname: 'cats', gp: hex(70) }),
      note(6, { type: 'GROUP_POST', groupname: 'cats', groups: ['cats'], context: { post: hex(52), comment: null, count: 1 } }),
    ];
    const { calls } = serve([items]);
    const events = vi.fn();
    const offChanged = onNotificationsChanged(events);
    render();
    await waitFor(() =>
      expect(texts()).toEqual([
        'alice started following you',
        'alice replied to your post',
        'alice commented on your post',
        'alice replied to your comment',
        // A mention counted more than once (an older row) still says it once: a post names a person once.
        'alice mentioned you in a post',
        'alice asks to join cats',
        'alice posted in cats',
      ]),
    );
    const [follow, reply, comment, answer, , request] = screen.getAllByRole('article');
    expect(within(follow!).getByRole('link', { name: 'alice' })).toHaveAttribute('href', '/u/alice');
    expect(follow!.querySelector('img')).toHaveAttribute('src', `/media/pfp/${hex(900)}.jpeg`);
    expect(within(follow!).getByText('1 hour ago')).toBeInTheDocument();
    expect(within(reply!).getByRole('link', { name: 'nice one' })).toHaveAttribute('href', `/p/${hex(50)}`);
    expect(within(comment!).getByRole('link', { name: 'a comment' })).toHaveAttribute('href', `/p/${hex(50)}?c=${hex(60)}`);
    expect(within(answer!).getByRole('link', { name: 'an answer' })).toHaveAttribute('href', `/p/${hex(50)}?c=${hex(61)}`);
    expect(within(request!).getByRole('link', { name: 'cats' })).toHaveAttribute('href', '/g/cats');
    expect(within(request!).getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(within(follow!).queryByRole('button', { name: 'Accept' })).toBeNull();
    await waitFor(() => expect(calls.map(pathOf)).toContain('PATCH /api/notification/seen'));
    await waitFor(() => expect(events).toHaveBeenCalled());
    offChanged();
  });

  it('shows what arrives while it is open, and marks it seen', async () => {
    const pages: Notification[][] = [[]];
    const { calls } = serve(pages);
    render();
    await screen.findByText('No notifications yet.');
    const seen = () => calls.filter((call) => pathOf(call) === 'PATCH /api/notification/seen').length;
    await waitFor(() => expect(seen()).toBe(1));
    pages[0] = [note(1)];
    announceNotificationsArrived();
    await waitFor(() => expect(texts()).toEqual(['alice started following you']));
    await waitFor(() => expect(seen()).toBe(2));
  });

  it('labels the group and account types, a single mention and a deleted actor', async () => {
    serve([
      [
        note(1, { type: 'NEW_MEMBER', groupname: 'cats' }),
        note(2, { type: 'GROUP_JOIN_ACCEPT', groupname: 'cats' }),
        note(3, { type: 'GROUP_JOIN_DENY', groupname: 'dogs' }),
        note(4, { type: 'MADE_ADMIN', groupname: 'cats' }),
        note(5, { type: 'REVOKED_ADMIN', groupname: 'cats' }),
        note(6, { type: 'NEW_POST', username: '<deleted>', author: '<deleted>', pfp: null, context: { post: hex(5), comment: null, count: 1 } }),
      ],
      [
        note(7, { type: 'MENTION', context: { post: hex(5), comment: null, count: 1 } }),
        note(8, { type: 'COMMENT_MENTION', context: { post: hex(5), comment: hex(6), count: 1 } }),
      ],
    ]);
    render();
    await waitFor(() => expect(texts()).toHaveLength(6));
    expect(texts()).toEqual([
      'alice joined cats',
      'Your request to join cats was accepted',
      'Your request to join dogs was denied',
      'You are now an admin of cats',
      'You are no longer an admin of cats',
      'Deleted account published a new post',
    ]);
    expect(screen.getByRole('link', { name: 'Open the post' })).toHaveAttribute('href', `/p/${hex(5)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(texts()).toHaveLength(8));
    expect(texts().slice(6)).toEqual(['alice mentioned you in a post', 'alice mentioned you in a comment']);
  });

  it('labels MADE_OWNER with a link to the group', async () => {
    serve([[note(1, { type: 'MADE_OWNER', groupname: 'cats', gp: hex(40) })]]);
    render();
    await waitFor(() => expect(texts()).toEqual(['You are now the owner of cats']));
    expect(screen.getByRole('link', { name: 'cats' })).toHaveAttribute('href', '/g/cats');
  });

  it('loads the next page when the last item scrolls into view, de-duplicating by id', async () => {
    const observed: Element[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly callback: (entries: Array<{ isIntersecting: boolean }>) => void) {}
        observe(el: Element) {
          observed.push(el);
          queueMicrotask(() => this.callback([{ isIntersecting: true }]));
        }
        disconnect() {}
      },
    );
    const page1 = [1, 2, 3, 4, 5, 6].map((n) => note(n));
    // The second page repeats the last item of the first (a new one arrived meanwhile).
    const page2 = [note(6), note(7), note(8)];
    const { calls } = serve([page1, page2]);
    render();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(8));
    const pages = calls.filter((c) => c.path === '/api/notification/').map(pageOf);
    expect(pages).toEqual(['1', '2']);
    expect(observed.length).toBeGreaterThan(0);
    expect(await getDb().notifications.count()).toBe(8);
  });

  it('paints the stored list offline and drops stored items the server no longer has', async () => {
    await getDb().notifications.bulkPut([note(1), note(2)].map((n) => ({ _id: n._id, data: n, cachedAt: 1 })));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    mockFetch(async (call) => {
      if (call.path !== '/api/notification/') return { body: { count: 0 } };
      await gate;
      return { body: { notifications: [note(1)], hasMore: false } };
    });
    render();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    release();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(await getDb().notifications.get(hex(2))).toBeUndefined();
  });

  it('says offline that no notifications are stored here, not that there are none', async () => {
    mockFetch(() => new TypeError('Failed to fetch'));
    render();
    expect(await screen.findByText('You are offline, and this is not saved on this device.')).toBeInTheDocument();
    expect(screen.queryByText('No notifications yet.')).not.toBeInTheDocument();
    expect(getToasts()).toHaveLength(0);
  });

  it('shows error/while_loading when the list fails', async () => {
    mockFetch(() => ({ status: 500, body: { message: 'error/server_error' } }));
    render();
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('error/while_loading'));
  });

  it('deletes one item and clears all', async () => {
    const { calls } = serve([[note(1), note(2), note(3)]]);
    render();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    fireEvent.click(within(screen.getAllByRole('article')[1]!).getByRole('button', { name: 'Delete notification' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(calls.map(pathOf)).toContain(`DELETE /api/notification/${hex(2)}`);
    // Asked first: cancelling keeps every item.
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete all your notifications?' });
    expect(dialog).toHaveTextContent('Delete all your notifications?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.map(pathOf)).not.toContain('DELETE /api/notification/all');
    expect(screen.getAllByRole('article')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete all notifications' }));
    await waitFor(() => expect(screen.queryAllByRole('article')).toHaveLength(0));
    expect(calls.map(pathOf)).toContain('DELETE /api/notification/all');
    expect(await getDb().notifications.count()).toBe(0);
    expect(screen.getByText('No notifications yet.')).toBeInTheDocument();
  });

  it('accepts and denies join requests, reloading the list after each decision', async () => {
    let decided = new Set<string>();
    const request = (n: number, user: string) =>
      note(n, { type: 'GROUP_JOIN_REQUEST', username: user, author: user, pfp: hex(100 + n), groupname: 'cats' });
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/notification/') {
        return { body: { notifications: [request(1, 'bob'), request(2, 'carol')].filter((n) => !decided.has(n.pfp!)), hasMore: false } };
      }
      const match = /^\/api\/group\/cats\/(accept|deny)\/(\w+)$/.exec(call.path);
      if (match && call.method === 'POST') {
        decided = new Set([...decided, match[2]!]);
        return { body: { message: match[1] === 'accept' ? 'info/request_accepted' : 'info/request_denied' } };
      }
      return { body: { count: 0 } };
    });
    render();
    await waitFor(() => expect(texts()).toEqual(['bob asks to join cats', 'carol asks to join cats']));
    fireEvent.click(within(screen.getAllByRole('article')[0]!).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(texts()).toEqual(['carol asks to join cats']));
    expect(calls.map(pathOf)).toContain(`POST /api/group/cats/accept/${hex(101)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(texts()).toEqual([]));
    expect(calls.map(pathOf)).toContain(`POST /api/group/cats/deny/${hex(102)}`);
    expect(calls.filter((c) => c.path === '/api/notification/').length).toBeGreaterThanOrEqual(3);
    expect(getToasts().map((t) => t.message)).toEqual(expect.arrayContaining(['info/request_accepted', 'info/request_denied']));
  });

  it('speaks Czech', async () => {
    serve([[note(1, { type: 'MENTION', context: { post: hex(5), comment: null, count: 2 } })]]);
    renderWithApp(<NotificationsPage />, { route: '/notifications', path: '/notifications', lng: 'cs' });
    await waitFor(() => expect(texts()).toEqual(['Uživatel alice vás zmínil v příspěvku']));
    expect(screen.getByRole('button', { name: 'Smazat vše' })).toBeInTheDocument();
  });
});

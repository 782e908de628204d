import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../lib/db/db';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { type FetchCall, mockFetch, setOnline, startOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import SafetyListsPage from './SafetyListsPage';

const user = (id: string, username: string) => ({ _id: id, pfp: id, pfpUrl: `/media/pfp/${id}.jpeg`, username, follows: false, notify: false });

function serve(extra: (call: FetchCall) => { status?: number; body?: unknown } | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.path === '/api/block') return { body: { userList: [user('u2', 'bob')], logged: true, hasMore: false, group: null } };
    if (call.path === '/api/mute') return { body: { userList: [user('u3', 'carol')], logged: true, hasMore: false, group: null } };
    if (call.path === '/api/mute/tag') return { body: { tags: [{ tag: 'noise', createdAt: 1 }], hasMore: false } };
    return { body: { message: 'info/user_unblocked' } };
  });
}

const render = () => renderWithApp(<SafetyListsPage />, { route: '/account/safety', path: '/account/safety' });

beforeEach(() => startOnline('u9'));
afterEach(() => cancelScheduledSend());

describe('the lists of blocked and muted users and muted hashtags', () => {
  it('shows each list under its heading', async () => {
    serve();
    render();
    expect(await screen.findByRole('link', { name: /bob/ })).toHaveAttribute('href', '/u/bob');
    expect(await screen.findByRole('link', { name: /carol/ })).toBeInTheDocument();
    expect(await screen.findByText('#noise')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Blocked users' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Muted users' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Muted hashtags' })).toBeInTheDocument();
  });

  it('says when a list is empty', async () => {
    serve((call) => (call.path === '/api/block' ? { body: { userList: [], logged: true, hasMore: false, group: null } } : undefined));
    render();
    expect(await screen.findByText('You have not blocked anyone.')).toBeInTheDocument();
  });

  it('unblocks, unmutes and unmutes a hashtag: each leaves its list at once and is sent', async () => {
    const { calls } = serve();
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Unblock @bob' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Unmute @carol' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Unmute #noise' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Unblock|Unmute/ })).toBeNull());
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/block/u2', '/api/mute/u3', '/api/mute/tag/noise']),
    );
  });

  it('offline, the lists read from the device and an unblock waits in the outbox', async () => {
    serve();
    const first = render();
    await screen.findByRole('link', { name: /bob/ });
    first.unmount();
    setOnline(false);
    const { calls } = mockFetch(() => new Error('offline'));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Unblock @bob' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Unblock @bob' })).toBeNull());
    expect(await getDb().outbox.toArray()).toEqual([expect.objectContaining({ kind: 'safety', payload: expect.objectContaining({ action: 'block', subject: 'u2', on: false }) })]);
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
  });
});

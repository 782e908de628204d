import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalData, getDb } from '../../lib/db/db';
import { clearSession, storeSession } from '../../lib/session';
import { getToasts } from '../../lib/toast';
import { type FetchCall, apiGroup, apiPost, mockFetch, setOnline } from '../../test/local-first';
import { expectLinks, renderWithApp } from '../../test/render';
import GroupPage from './GroupPage';

const GROUP_ID = '9'.repeat(24);
const ME = 'a'.repeat(24);

const group = (extra: Record<string, unknown> = {}) => apiGroup(GROUP_ID, extra);

type Answer = { status?: number; body?: unknown } | undefined;

/** The group (possibly changing after a call), empty post lists, and whatever `more` answers. */
function serve(current: () => Record<string, unknown>, more: (call: FetchCall) => Answer = () => undefined) {
  return mockFetch((call) => {
    const extra = more(call);
    if (extra) return extra;
    if (call.path === '/api/group/birds') return { body: { group: current() } };
    if (call.path === '/api/group/birds/posts') return { body: { posts: [], hasMore: false } };
    return { status: 404, body: { message: 'error/server_error' } };
  });
}

/** An action the server accepts with `message`; what it serves afterwards may depend on `done`. */
function accepted(path: string, message: string) {
  const action = {
    done: false,
    answer(call: FetchCall): Answer {
      if (call.path !== path) return undefined;
      action.done = true;
      return { body: { message } };
    },
  };
  return action;
}

function renderGroup(route = '/g/birds') {
  return renderWithApp(<GroupPage />, { route, path: '/g/:groupname/:show?' });
}

const lastToast = () => getToasts().at(-1);

beforeEach(async () => {
  setOnline(true);
  await clearLocalData();
});

describe('group page', () => {
  it('shows the group, caches it and lists its posts', async () => {
    storeSession('token-1', 'alice', ME);
    const { calls } = serve(() => group(), (call) =>
      call.path === '/api/group/birds/posts' ? { body: { posts: [apiPost('p'.repeat(24), { text: 'a heron' })], hasMore: false } } : undefined,
    );
    renderGroup();
    expect(await screen.findByRole('heading', { name: 'birds' })).toBeInTheDocument();
    expect(screen.getByText('All about birds')).toBeInTheDocument();
    expect(screen.getByText('Created January 2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '7 members' })).toHaveAttribute('href', '/g/birds/members');
    expect(screen.queryByRole('link', { name: /banned/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Post' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Group settings' })).not.toBeInTheDocument();
    expect(await screen.findByText('a heron')).toBeInTheDocument();
    const posts = new URL(calls.find((c) => c.path === '/api/group/birds/posts')!.url, 'http://localhost').searchParams;
    expect(Object.fromEntries(posts)).toMatchObject({ page: '1', limit: '4' });
    expect((await getDb().groups.get('birds'))?.data).toMatchObject({ _id: GROUP_ID });
  });

  it('shows the owner the settings gear, the post button and the banned count, without a join control', async () => {
    storeSession('token-1', 'alice', ME);
    serve(() => group({ owner: true, admin: true, member: true, canUserPost: true, bans: 2, notification: 0 }));
    renderGroup();
    await screen.findByRole('link', { name: 'Group settings' });
    expectLinks({ 'Group settings': '/g/birds/settings', Post: '/post?g=birds', '2 banned': '/g/birds/banned' });
    for (const name of ['Join', 'Leave', 'Request to join']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  it.each([
    { title: 'lets a member leave, then loads the group again', before: { member: true, notification: 0 }, action: 'leave', message: 'info/you_left', method: 'DELETE', from: 'Leave', to: 'Join' },
    { title: 'lets anyone join an open group, then loads it again', before: { member: false }, action: 'join', message: 'info/joined_group', method: 'PUT', from: 'Join', to: 'Leave' },
  ])('$title', async ({ before, action, message, method, from, to }) => {
    storeSession('token-1', 'alice', ME);
    const act = accepted(`/api/group/birds/${action}`, message);
    const { calls } = serve(() => group({ ...before, member: before.member !== act.done }), act.answer);
    renderGroup();
    fireEvent.click(await screen.findByRole('button', { name: from }));
    expect(await screen.findByRole('button', { name: to })).toBeInTheDocument();
    expect(calls.find((c) => c.path === `/api/group/birds/${action}`)?.method).toBe(method);
    expect(calls.filter((c) => c.path === '/api/group/birds').length).toBeGreaterThanOrEqual(2);
  });

  it('says joining needs approval, sends a request to join with an info toast, and withdraws it', async () => {
    storeSession('token-1', 'alice', ME);
    const withdrawn = accepted('/api/group/birds/request', 'info/request_withdrawn');
    const { calls } = serve(
      () => group({ requestJoin: true }),
      (call) => (call.method === 'DELETE' ? withdrawn.answer(call) : accepted('/api/group/birds/request', 'info/request_send').answer(call)),
    );
    renderGroup();
    expect(await screen.findByText(/Joining needs an admin's approval/)).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Request to join' }));
    expect(await screen.findByRole('button', { name: 'Request sent' })).toBeDisabled();
    expect(calls.find((c) => c.path === '/api/group/birds/request')?.method).toBe('POST');
    expect(lastToast()).toMatchObject({ kind: 'info', message: 'info/request_send' });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw request' }));
    expect(await screen.findByRole('button', { name: 'Request to join' })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/group/birds/request').map((c) => c.method)).toEqual(['POST', 'DELETE']);
    expect(lastToast()).toMatchObject({ kind: 'info', message: 'info/request_withdrawn' });
  });

  it('shows a banned user a label and a visitor a login link', async () => {
    storeSession('token-1', 'alice', ME);
    serve(() => group({ banned: true }));
    const first = renderGroup();
    expect(await screen.findByText('Banned')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join' })).not.toBeInTheDocument();
    first.unmount();
    clearSession();
    serve(() => group({ logged: false }));
    renderGroup();
    expect(await screen.findByRole('link', { name: 'Log in to join' })).toHaveAttribute('href', '/login?next=%2Fg%2Fbirds');
  });

  it('asks a non-member of a private group to join instead of loading posts', async () => {
    storeSession('token-1', 'alice', ME);
    const { calls } = serve(() => group({ private: true, requestJoin: true }));
    renderGroup();
    expect(await screen.findByText('You need to join this group to see its posts.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/group/birds/posts')).toBe(false);
  });

  it('shows the pinned post at the top', async () => {
    const pinned = 'f'.repeat(24);
    const { calls } = serve(() => group({ pinnedPost: pinned, logged: false }), (call) =>
      call.path === '/api/group/birds/pinned' ? { body: apiPost(pinned, { text: 'read the rules' }) } : undefined,
    );
    const view = renderGroup();
    expect(await screen.findByText('read the rules')).toBeInTheDocument();
    expect(screen.getByText('Pinned', { exact: false })).toBeInTheDocument();
    expect(calls.some((c) => c.path === `/api/post/${pinned}`)).toBe(false);
    view.unmount();

    // Seen once, it shows offline.
    mockFetch(() => new TypeError('Failed to fetch'));
    renderGroup();
    expect(await screen.findByText('read the rules')).toBeInTheDocument();
  });

  it('says a deleted group was deleted and an unknown one was not found', async () => {
    const { calls } = mockFetch(() => ({ status: 404, body: { message: 'error/didnt_find_group' } }));
    const first = renderWithApp(<GroupPage />, { route: '/g/%3Cdeleted%3E', path: '/g/:groupname' });
    expect(await screen.findByText('This group was deleted')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    first.unmount();
    renderGroup('/g/nothing');
    expect(await screen.findByRole('heading', { name: 'Group not found.' })).toBeInTheDocument();
  });

  it('changes the member\u2019s notification level', async () => {
    storeSession('token-1', 'alice', ME);
    const { calls } = serve(() => group({ member: true, notification: 0 }), (call) =>
      call.path === `/api/group/${GROUP_ID}/notification` ? { body: { notification: 1 } } : undefined,
    );
    renderGroup();
    const select = await screen.findByRole('combobox', { name: 'Notifications' });
    expect(select).toHaveValue('0');
    fireEvent.change(select, { target: { value: '1' } });
    await waitFor(() => expect(calls.find((c) => c.path === `/api/group/${GROUP_ID}/notification`)).toMatchObject({ method: 'PATCH', body: { notification: 1 } }));
    expect(screen.getByRole('option', { name: 'Essential' })).toBeInTheDocument();
  });
});

describe('members view', () => {
  const user = (name: string, extra: Record<string, unknown> = {}) => ({
    _id: name.padEnd(24, '0'),
    pfp: name.padEnd(24, '0'),
    username: name,
    admin: false,
    owner: false,
    banned: false,
    ...extra,
  });
  const reply = (userList: unknown[]) => ({
    body: { userList, logged: true, hasMore: false, group: { _id: GROUP_ID, name: 'birds', admin: true, owner: true } },
  });

  it('lets an admin promote, demote and ban, a ban taking the user off the list and counting them as banned at once', async () => {
    storeSession('token-1', 'alice', ME);
    const carol = user('carol');
    const dave = user('dave', { admin: true });
    const ban = accepted(`/api/group/birds/ban/${carol.pfp}`, 'info/user_banned');
    const { calls } = serve(() => group({ owner: true, admin: true, member: true, members: ban.done ? 2 : 3, bans: ban.done ? 1 : 0 }), (call) => {
      if (call.path === '/api/group/birds/members') return reply([user('alice', { owner: true, _id: ME, pfp: ME }), ...(ban.done ? [] : [carol]), dave]);
      if (call.path === `/api/group/birds/admin/${carol.pfp}`) return { body: { message: 'info/made_admin' } };
      if (call.path === `/api/group/birds/deadmin/${dave.pfp}`) return { body: { message: 'info/revoked_admin' } };
      return ban.answer(call);
    });
    renderGroup('/g/birds/members');
    expect(await screen.findByRole('link', { name: 'carol' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '3 members' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ban alice' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Make admin: carol' }));
    expect(await screen.findByRole('button', { name: 'Remove admin: carol' })).toBeInTheDocument();
    expect(calls.find((c) => c.path.includes('/admin/'))?.method).toBe('PATCH');
    expect(lastToast()).toMatchObject({ kind: 'info', message: 'info/made_admin' });

    fireEvent.click(screen.getByRole('button', { name: 'Remove admin: dave' }));
    expect(await screen.findByRole('button', { name: 'Make admin: dave' })).toBeInTheDocument();
    expect(calls.find((c) => c.path.includes('/deadmin/'))?.method).toBe('PATCH');
    expect(lastToast()).toMatchObject({ message: 'info/revoked_admin' });

    fireEvent.click(screen.getByRole('button', { name: 'Ban carol' }));
    // A ban asks first: cancelled, nothing is sent.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.path.includes('/ban/'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Ban carol' }));
    expect(screen.getByText('Ban carol from &birds?')).toBeInTheDocument();
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Ban carol' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'carol' })).not.toBeInTheDocument());
    expect(calls.find((c) => c.path.includes('/ban/'))?.method).toBe('PUT');
    expect(lastToast()).toMatchObject({ message: 'info/user_banned' });
    expectLinks({ '2 members': '/g/birds/members', '1 banned': '/g/birds/banned' });
    expect((await getDb().groups.get('birds'))?.data).toMatchObject({ members: 2, bans: 1 });
  });

  it('shows members without actions to a member', async () => {
    storeSession('token-1', 'alice', ME);
    serve(() => group({ member: true, notification: 0 }), (call) =>
      call.path === '/api/group/birds/members'
        ? { body: { userList: [user('carol')], logged: true, hasMore: false, group: { _id: GROUP_ID, name: 'birds', admin: false, owner: false } } }
        : undefined,
    );
    renderGroup('/g/birds/members');
    expect(await screen.findByRole('link', { name: 'carol' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ban carol' })).not.toBeInTheDocument();
  });

  it('lets an admin unban from the banned view, the banned count and link going at once', async () => {
    storeSession('token-1', 'alice', ME);
    const eve = user('eve', { banned: true });
    const unban = accepted(`/api/group/birds/unban/${eve.pfp}`, 'info/user_unbanned');
    const { calls } = serve(() => group({ admin: true, member: true, bans: unban.done ? 0 : 1 }), (call) =>
      call.path === '/api/group/birds/banned' ? reply(unban.done ? [] : [eve]) : unban.answer(call),
    );
    renderGroup('/g/birds/banned');
    expect(await screen.findByRole('link', { name: '1 banned' })).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Unban eve' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'eve' })).not.toBeInTheDocument());
    expect(calls.find((c) => c.path.includes('/unban/'))?.method).toBe('PUT');
    expect(lastToast()).toMatchObject({ message: 'info/user_unbanned' });
    await waitFor(() => expect(screen.queryByRole('link', { name: '1 banned' })).not.toBeInTheDocument());
  });

  it.each([
    { action: 'ban', view: 'members', name: 'carol', extra: {}, bans: 0, button: 'Ban carol', message: 'error/admin_ban' },
    { action: 'unban', view: 'banned', name: 'eve', extra: { banned: true }, bans: 1, button: 'Unban eve', message: 'error/need_admin' },
  ])('toasts the server\u2019s message when $action fails and keeps the user', async ({ action, view, name, extra, bans, button, message }) => {
    storeSession('token-1', 'alice', ME);
    const target = user(name, extra);
    serve(() => group({ admin: true, member: true, bans }), (call) => {
      if (call.path === `/api/group/birds/${view}`) return reply([target]);
      if (call.path === `/api/group/birds/${action}/${target.pfp}`) return { status: 403, body: { message } };
      return undefined;
    });
    renderGroup(`/g/birds/${view}`);
    fireEvent.click(await screen.findByRole('button', { name: button }));
    if (action === 'ban') fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: button }));
    await waitFor(() => expect(lastToast()).toMatchObject({ kind: 'error', message }));
    expect(screen.getByRole('link', { name })).toBeInTheDocument();
  });

  it('keeps the banned view from non-admins', async () => {
    storeSession('token-1', 'alice', ME);
    const { calls } = serve(() => group({ member: true, bans: 1, notification: 0 }));
    renderGroup('/g/birds/banned');
    expect(await screen.findByText('Only a group admin can do this.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/group/birds/banned')).toBe(false);
  });
});

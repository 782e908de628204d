import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalData, getDb } from '../../lib/db/db';
import { clearSession, storeSession } from '../../lib/session';
import { getToasts } from '../../lib/toast';
import { type FetchCall, apiPost, mockFetch, setOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import GroupPage from './GroupPage';

configure({ asyncUtilTimeout: 5000 });

const GROUP_ID = '9'.repeat(24);
const ME = 'a'.repeat(24);

function group(extra: Record<string, unknown> = {}) {
  return {
    _id: GROUP_ID,
    name: 'birds',
    description: 'All about birds',
    gp: GROUP_ID,
    private: false,
    requestJoin: false,
    everyoneCanPost: true,
    members: 7,
    bans: 0,
    pinnedPost: null,
    member: false,
    banned: false,
    owner: false,
    admin: false,
    logged: true,
    canUserPost: false,
    requested: false,
    createdAt: Date.UTC(2026, 0, 10),
    notification: null,
    ...extra,
  };
}

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
    expect(await screen.findByRole('link', { name: 'Group settings' })).toHaveAttribute('href', '/g/birds/settings');
    expect(screen.getByRole('link', { name: 'Post' })).toHaveAttribute('href', '/post?g=birds');
    expect(screen.getByRole('link', { name: '2 banned' })).toHaveAttribute('href', '/g/birds/banned');
    for (const name of ['Join', 'Leave', 'Request to join']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  it('lets a member leave, then loads the group again', async () => {
    storeSession('token-1', 'alice', ME);
    let member = true;
    const { calls } = serve(() => group({ member, notification: 0 }), (call) => {
      if (call.path === '/api/group/birds/leave') {
        member = false;
        return { body: { message: 'info/you_left' } };
      }
      return undefined;
    });
    renderGroup();
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('button', { name: 'Join' })).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/group/birds/leave')?.method).toBe('DELETE');
    expect(calls.filter((c) => c.path === '/api/group/birds').length).toBeGreaterThanOrEqual(2);
  });

  it('lets anyone join an open group, then loads it again', async () => {
    storeSession('token-1', 'alice', ME);
    let member = false;
    const { calls } = serve(() => group({ member }), (call) => {
      if (call.path === '/api/group/birds/join') {
        member = true;
        return { body: { message: 'info/joined_group' } };
      }
      return undefined;
    });
    renderGroup();
    fireEvent.click(await screen.findByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('button', { name: 'Leave' })).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/group/birds/join')?.method).toBe('PUT');
  });

  it('sends a request to join with an info toast', async () => {
    storeSession('token-1', 'alice', ME);
    const { calls } = serve(() => group({ requestJoin: true }), (call) =>
      call.path === '/api/group/birds/request' ? { body: { message: 'info/request_send' } } : undefined,
    );
    renderGroup();
    fireEvent.click(await screen.findByRole('button', { name: 'Request to join' }));
    expect(await screen.findByRole('button', { name: 'Request sent' })).toBeDisabled();
    expect(calls.find((c) => c.path === '/api/group/birds/request')?.method).toBe('POST');
    expect(lastToast()).toMatchObject({ kind: 'info', message: 'info/request_send' });
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
    expect(await screen.findByRole('link', { name: 'Log in to join' })).toHaveAttribute('href', '/login');
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
    serve(() => group({ pinnedPost: pinned, logged: false }), (call) =>
      call.path === `/api/post/${pinned}` ? { body: apiPost(pinned, { text: 'read the rules' }) } : undefined,
    );
    renderGroup();
    expect(await screen.findByText('read the rules')).toBeInTheDocument();
    expect(screen.getByText('Pinned', { exact: false })).toBeInTheDocument();
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

  it('lets an admin promote, demote and ban, a ban taking the user off the list', async () => {
    storeSession('token-1', 'alice', ME);
    const carol = user('carol');
    const dave = user('dave', { admin: true });
    const { calls } = serve(() => group({ owner: true, admin: true, member: true }), (call) => {
      if (call.path === '/api/group/birds/members') return reply([user('alice', { owner: true, _id: ME, pfp: ME }), carol, dave]);
      if (call.path === `/api/group/birds/admin/${carol.pfp}`) return { body: { message: 'info/made_admin' } };
      if (call.path === `/api/group/birds/deadmin/${dave.pfp}`) return { body: { message: 'info/revoked_admin' } };
      if (call.path === `/api/group/birds/ban/${carol.pfp}`) return { body: { message: 'info/user_banned' } };
      return undefined;
    });
    renderGroup('/g/birds/members');
    expect(await screen.findByRole('link', { name: 'carol' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ban alice' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Make carol an admin' }));
    expect(await screen.findByRole('button', { name: 'Remove admin rights of carol' })).toBeInTheDocument();
    expect(calls.find((c) => c.path.includes('/admin/'))?.method).toBe('PATCH');
    expect(lastToast()).toMatchObject({ kind: 'info', message: 'info/made_admin' });

    fireEvent.click(screen.getByRole('button', { name: 'Remove admin rights of dave' }));
    expect(await screen.findByRole('button', { name: 'Make dave an admin' })).toBeInTheDocument();
    expect(calls.find((c) => c.path.includes('/deadmin/'))?.method).toBe('PATCH');
    expect(lastToast()).toMatchObject({ message: 'info/revoked_admin' });

    fireEvent.click(screen.getByRole('button', { name: 'Ban carol' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'carol' })).not.toBeInTheDocument());
    expect(calls.find((c) => c.path.includes('/ban/'))?.method).toBe('PUT');
    expect(lastToast()).toMatchObject({ message: 'info/user_banned' });
  });

  it('toasts the server\u2019s message when a ban fails and keeps the user', async () => {
    storeSession('token-1', 'alice', ME);
    const carol = user('carol');
    serve(() => group({ admin: true, member: true }), (call) => {
      if (call.path === '/api/group/birds/members') return reply([carol]);
      if (call.path === `/api/group/birds/ban/${carol.pfp}`) return { status: 403, body: { message: 'error/admin_ban' } };
      return undefined;
    });
    renderGroup('/g/birds/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Ban carol' }));
    await waitFor(() => expect(lastToast()).toMatchObject({ kind: 'error', message: 'error/admin_ban' }));
    expect(screen.getByRole('link', { name: 'carol' })).toBeInTheDocument();
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

  it('lets an admin unban from the banned view', async () => {
    storeSession('token-1', 'alice', ME);
    const eve = user('eve', { banned: true });
    const { calls } = serve(() => group({ admin: true, member: true, bans: 1 }), (call) => {
      if (call.path === '/api/group/birds/banned') return reply([eve]);
      if (call.path === `/api/group/birds/unban/${eve.pfp}`) return { body: { message: 'info/user_unbanned' } };
      return undefined;
    });
    renderGroup('/g/birds/banned');
    fireEvent.click(await screen.findByRole('button', { name: 'Unban eve' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'eve' })).not.toBeInTheDocument());
    expect(calls.find((c) => c.path.includes('/unban/'))?.method).toBe('PUT');
    expect(lastToast()).toMatchObject({ message: 'info/user_unbanned' });
  });

  it('keeps the banned view from non-admins', async () => {
    storeSession('token-1', 'alice', ME);
    const { calls } = serve(() => group({ member: true, bans: 1, notification: 0 }));
    renderGroup('/g/birds/banned');
    expect(await screen.findByText('Only a group admin can do this.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/group/birds/banned')).toBe(false);
  });
});

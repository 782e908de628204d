import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getToasts } from '../../lib/toast';
import { apiGroup, mockFetch, startOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import CreateGroupPage from './CreateGroupPage';
import GroupSettingsPage from './GroupSettingsPage';

const GROUP_ID = '9'.repeat(24);
const ME = 'a'.repeat(24);
const lastToast = () => getToasts().at(-1);
const feedRoute = { path: '/feed', element: <p>feed page</p> };
const groupRoute = { path: '/g/:groupname', element: <p>group page</p> };

/** The group as its owner sees it: the settings' starting values. */
const group = (extra: Record<string, unknown> = {}) =>
  apiGroup(GROUP_ID, {
    requestJoin: true,
    everyoneCanPost: false,
    member: true,
    owner: true,
    admin: true,
    canUserPost: true,
    notification: 0,
    ...extra,
  });

beforeEach(() => startOnline(ME));

describe('create group', () => {
  it('shows validation errors as toasts without calling the server', async () => {
    const { calls } = mockFetch(() => ({ status: 500, body: { message: 'error/server_error' } }));
    renderWithApp(<CreateGroupPage />, { route: '/create-group', path: '/create-group' });
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(lastToast()).toMatchObject({ kind: 'error', message: 'error/min_groupname_length' });
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'a&b group' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(lastToast()).toMatchObject({ kind: 'error', message: 'error/group_and' });
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'birds' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'a\n'.repeat(40) } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(lastToast()).toMatchObject({ kind: 'error', message: 'error/max_desc_lines' });
    expect(calls).toHaveLength(0);
  });

  it('takes back the validation toast once the corrected group is created', async () => {
    mockFetch((call) =>
      call.path === '/api/group'
        ? { status: 201, body: { group: { _id: GROUP_ID, name: 'birds' }, message: 'info/created_group' } }
        : { status: 404, body: { message: 'error/server_error' } },
    );
    renderWithApp(<CreateGroupPage />, { route: '/create-group', path: '/create-group', routes: [groupRoute] });
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(lastToast()).toMatchObject({ kind: 'error', message: 'error/min_groupname_length' });
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'birds' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('group page')).toBeInTheDocument();
    expect(getToasts().map((t) => t.message)).not.toContain('error/min_groupname_length');
    expect(lastToast()).toMatchObject({ kind: 'info', message: 'info/created_group' });
  });

  it('turns the description counter red past 100 characters and refuses to send, rather than cutting the text', async () => {
    const { calls } = mockFetch(() => ({ status: 201, body: { group: { _id: GROUP_ID, name: 'birds' }, message: 'info/created_group' } }));
    renderWithApp(<CreateGroupPage />, { route: '/create-group', path: '/create-group', routes: [groupRoute] });
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'birds' } });
    const description = screen.getByLabelText('Description');
    // Measured as stored: the spaces around do not count.
    fireEvent.change(description, { target: { value: ` ${'x'.repeat(100)} ` } });
    expect(screen.getByText('100 / 100')).not.toHaveClass('field__hint--over');
    expect(description).not.toHaveAttribute('aria-invalid');
    fireEvent.change(description, { target: { value: `${'x'.repeat(95)} words` } });
    expect(screen.getByText('101 / 100')).toHaveClass('field__hint--over');
    expect(description).toHaveAttribute('aria-invalid', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(lastToast()).toMatchObject({ kind: 'error', message: 'error/max_desc_length' });
    expect(calls).toEqual([]);
    expect(description).toHaveValue(`${'x'.repeat(95)} words`);
  });

  it('creates the group, then uploads the avatar with its id, then opens it', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/group') return { status: 201, body: { group: { _id: GROUP_ID, name: 'birds' }, message: 'info/created_group' } };
      if (call.path === `/api/upload/gp/${GROUP_ID}`) return { status: 201, body: { message: 'info/image_uploaded', url: '/media/gp/x.jpeg' } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    const { router } = renderWithApp(<CreateGroupPage />, { route: '/create-group', path: '/create-group', routes: [groupRoute] });
    expect(screen.getByLabelText('Group name')).toHaveAttribute('maxLength', '32');
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: ' birds ' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'x'.repeat(100) } });
    const yes = screen.getAllByRole('radio', { name: 'Yes' });
    fireEvent.click(yes[0]!); // private
    fireEvent.click(yes[2]!); // request to join
    const file = new File(['img'], 'bird.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Group picture'), { target: { files: [file] } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('group page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/g/birds');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/group', `POST /api/upload/gp/${GROUP_ID}`]);
    expect(calls[0]!.body).toEqual({ name: 'birds', description: 'x'.repeat(100), isPrivate: true, everyoneCanPost: true, requestJoin: true });
    expect(calls[0]!.headers['Idempotency-Key']).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect((calls[1]!.body as FormData).get('gp')).toBeInstanceOf(File);
  });

  it.each([
    { refusal: { status: 413, body: { message: 'error/image_too_large' } }, message: 'error/image_too_large' },
    { refusal: { status: 502 }, message: 'common:upload_failed' },
  ])('still opens the created group when its picture is refused, saying why ($message)', async ({ refusal, message }) => {
    mockFetch((call) => {
      if (call.path === '/api/group') return { status: 201, body: { group: { _id: GROUP_ID, name: 'birds' }, message: 'info/created_group' } };
      if (call.path === `/api/upload/gp/${GROUP_ID}`) return refusal;
      return { status: 404, body: { message: 'error/server_error' } };
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithApp(<CreateGroupPage />, { route: '/create-group', path: '/create-group', routes: [groupRoute] });
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'birds' } });
    fireEvent.change(screen.getByLabelText('Group picture'), { target: { files: [new File(['img'], 'bird.png', { type: 'image/png' })] } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('group page')).toBeInTheDocument();
    expect(getToasts()).toContainEqual(expect.objectContaining({ kind: 'error', message }));
  });

  it('creates without an upload when no avatar was chosen and toasts a refusal', async () => {
    let taken = true;
    const { calls } = mockFetch((call) => {
      if (call.path !== '/api/group') return { status: 404, body: { message: 'error/server_error' } };
      if (taken) return { status: 409, body: { message: 'error/groupname_taken' } };
      return { status: 201, body: { group: { _id: GROUP_ID, name: 'birds' }, message: 'info/created_group' } };
    });
    renderWithApp(<CreateGroupPage />, { route: '/create-group', path: '/create-group', routes: [groupRoute] });
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'birds' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(lastToast()).toMatchObject({ kind: 'error', message: 'error/groupname_taken' }));
    taken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('group page')).toBeInTheDocument();
    expect(calls.every((c) => c.path === '/api/group')).toBe(true);
  });
});

describe('group settings', () => {
  it('says no_group without a group name', async () => {
    const { calls } = mockFetch(() => ({ status: 404 }));
    renderWithApp(<GroupSettingsPage />, { route: '/settings', path: '/settings' });
    expect(await screen.findByRole('heading', { name: 'No group given.' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('updates the group with the form filled in', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/group/birds') return { body: { group: group() } };
      if (call.path === `/api/group/${GROUP_ID}/update`) return { body: { group: { _id: GROUP_ID, name: 'herons' }, message: 'info/group_updated' } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    const { router } = renderWithApp(<GroupSettingsPage />, { route: '/g/birds/settings', path: '/g/:groupname/settings', routes: [groupRoute] });
    const name = await screen.findByLabelText('Group name');
    expect(name).toHaveValue('birds');
    expect(screen.getByLabelText('Description')).toHaveValue('All about birds');
    fireEvent.change(name, { target: { value: 'herons' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('group page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/g/herons');
    const update = calls.find((c) => c.path.endsWith('/update'))!;
    expect(update.method).toBe('PATCH');
    expect(update.body).toEqual({ name: 'herons', description: 'All about birds', isPrivate: false, requestJoin: true, everyoneCanPost: false });
    expect(lastToast()).toMatchObject({ kind: 'info', message: 'info/group_updated' });
  });

  it('deletes the group only after confirmation, then goes to the feed', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/api/group/birds') return { body: { group: group() } };
      if (call.path === `/api/group/${GROUP_ID}`) return { body: { message: 'info/group_deleted' } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    const { router } = renderWithApp(<GroupSettingsPage />, { route: '/g/birds/settings', path: '/g/:groupname/settings', routes: [feedRoute] });
    expect(await screen.findByRole('button', { name: 'Transfer ownership' })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete group' }));
    expect(screen.getByRole('alertdialog', { name: 'Do you really want to delete this group?' })).toHaveTextContent('Do you really want to delete this group?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete group' }));
    fireEvent.mouseDown(document.querySelector('.overlay')!);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete group' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete group' }));
    expect(await screen.findByText('feed page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/feed');
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/api/group/${GROUP_ID}`);
  });

  it('goes to the feed even when the delete fails', async () => {
    mockFetch((call) => {
      if (call.path === '/api/group/birds') return { body: { group: group() } };
      return { status: 403, body: { message: 'error/owner_delete' } };
    });
    const original = console.error;
    console.error = () => undefined;
    try {
      renderWithApp(<GroupSettingsPage />, { route: '/g/birds/settings', path: '/g/:groupname/settings', routes: [feedRoute] });
      fireEvent.click(await screen.findByRole('button', { name: 'Delete group' }));
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete group' }));
      expect(await screen.findByText('feed page')).toBeInTheDocument();
    } finally {
      console.error = original;
    }
  });

  /** The settings of the private group birds, whose update answers as the server does (then the group page). */
  function openPrivateGroupSettings() {
    const fetched = mockFetch((call) => {
      if (call.path === '/api/group/birds') return { body: { group: group({ private: true }) } };
      if (call.path === `/api/group/${GROUP_ID}/update`) return { body: { group: { _id: GROUP_ID, name: 'birds' }, message: 'info/group_updated' } };
      return { status: 404, body: { message: 'error/server_error' } };
    });
    renderWithApp(<GroupSettingsPage />, { route: '/g/birds/settings', path: '/g/:groupname/settings', routes: [groupRoute] });
    return fetched;
  }

  it('asks before making a private group public, and saves only when confirmed', async () => {
    const { calls } = openPrivateGroupSettings();
    await screen.findByLabelText('Group name');
    const updates = () => calls.filter((c) => c.path.endsWith('/update'));
    // Other changes of a private group are saved without a question.
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Only birds' } });
    fireEvent.click(screen.getAllByRole('radio', { name: 'No' })[0]!);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alertdialog', { name: 'Make this group public?' })).toHaveTextContent('Make this group public?');
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Everything posted in it so far becomes readable by everyone.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(updates()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(screen.getByRole('button', { name: 'Make the group public' }));
    expect(await screen.findByText('group page')).toBeInTheDocument();
    expect(updates()).toHaveLength(1);
    expect(updates()[0]!.body).toMatchObject({ isPrivate: false, description: 'Only birds' });
  });

  it('saves a private group that stays private without asking', async () => {
    const { calls } = openPrivateGroupSettings();
    fireEvent.change(await screen.findByLabelText('Description'), { target: { value: 'Only birds' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('group page')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.find((c) => c.path.endsWith('/update'))!.body).toMatchObject({ isPrivate: true });
  });

  it('leaves privacy to the owner: an admin sees the choice locked, and no transfer or delete', async () => {
    mockFetch(() => ({ body: { group: group({ owner: false, admin: true, private: true }) } }));
    renderWithApp(<GroupSettingsPage />, { route: '/g/birds/settings', path: '/g/:groupname/settings' });
    await screen.findByLabelText('Group name');
    const [privateYes, privateNo] = screen.getAllByRole('radio');
    expect(privateYes).toBeDisabled();
    expect(privateNo).toBeDisabled();
    expect(screen.getByText('Only the owner can change whether the group is private.')).toBeInTheDocument();
    expect(screen.getAllByRole('radio', { name: 'No' })[1]).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Transfer ownership' })).not.toBeInTheDocument();
    // An admin moderates the group's reports from here.
    expect(screen.getByRole('link', { name: 'Reports and moderation log' })).toHaveAttribute('href', '/g/birds/reports');
  });

  it('keeps the settings from someone who is not an admin', async () => {
    mockFetch(() => ({ body: { group: group({ owner: false, admin: false }) } }));
    renderWithApp(<GroupSettingsPage />, { route: '/g/birds/settings', path: '/g/:groupname/settings' });
    expect(await screen.findByRole('heading', { name: 'Only a group admin can do this.' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Group name')).not.toBeInTheDocument();
  });
});

describe('transfer ownership', () => {
  const BOB = 'b'.repeat(24);
  const CAROL = 'c'.repeat(24);
  const member = (pfp: string, username: string, extra: Record<string, unknown> = {}) => ({ _id: pfp, pfp, username, admin: false, owner: false, banned: false, ...extra });

  function serve(transfer: () => { status?: number; body?: unknown }) {
    let owner = true;
    const mock = mockFetch((call) => {
      if (call.path === '/api/group/birds') return { body: { group: group({ owner }) } };
      if (call.path === '/api/group/birds/members') {
        const query = new URL(call.url, 'http://x').searchParams.get('query');
        const users = [member(ME, 'alice', { admin: true, owner: true }), member(BOB, 'bob'), member(CAROL, 'carol', { admin: true })];
        return { body: { userList: users.filter((u) => !query || u.username.includes(query)), logged: true, hasMore: false, group: { _id: GROUP_ID, name: 'birds', admin: true, owner } } };
      }
      if (call.method === 'PATCH' && call.path.startsWith('/api/group/birds/owner/')) {
        const answer = transfer();
        if ((answer.status ?? 200) < 300) owner = false;
        return answer;
      }
      return { status: 404, body: { message: 'error/server_error' } };
    });
    renderWithApp(<GroupSettingsPage />, { route: '/g/birds/settings', path: '/g/:groupname/settings' });
    return mock.calls;
  }

  it('picks a member, asks, hands the group over and toasts the translated info', async () => {
    const calls = serve(() => ({ body: { message: 'info/owner_transferred' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Transfer ownership' }));
    expect(await screen.findByRole('radio', { name: 'bob' })).toBeInTheDocument();
    // The owner is not offered to themself.
    expect(screen.getByRole('radio', { name: 'carol' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'alice' })).not.toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Transfer' });
    expect(submit).toBeDisabled();

    fireEvent.change(screen.getByLabelText('Find a member'), { target: { value: 'bo' } });
    await waitFor(() => expect(screen.queryByRole('radio', { name: 'carol' })).not.toBeInTheDocument());
    expect(calls.some((c) => c.path === '/api/group/birds/members' && c.url.includes('query=bo'))).toBe(true);
    fireEvent.click(await screen.findByRole('radio', { name: 'bob' }));
    expect(screen.queryByRole('radio', { name: 'carol' })).not.toBeInTheDocument();
    fireEvent.click(submit);
    expect(screen.getByRole('alertdialog', { name: 'Make bob the owner of this group?' })).toHaveTextContent('Make bob the owner of this group?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    fireEvent.click(submit);
    fireEvent.click(screen.getByRole('button', { name: 'Make bob the owner' }));
    await waitFor(() => expect(lastToast()).toMatchObject({ kind: 'info', message: 'info/owner_transferred' }));
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.path)).toEqual([`/api/group/birds/owner/${BOB}`]);
    // Reloaded: no longer the owner, so no owner-only controls.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Transfer ownership' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Delete group' })).not.toBeInTheDocument();
  });

  it('toasts the translated refusal and keeps the owner controls', async () => {
    serve(() => ({ status: 409, body: { message: 'error/admin_banned' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Transfer ownership' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'carol' }));
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    fireEvent.click(screen.getByRole('button', { name: 'Make carol the owner' }));
    await waitFor(() => expect(lastToast()).toMatchObject({ kind: 'error', message: 'error/admin_banned' }));
    expect(screen.getByRole('button', { name: 'Transfer ownership' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Transfer' })).toBeEnabled();
  });
});

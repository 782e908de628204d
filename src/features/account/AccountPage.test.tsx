import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type OutboxRow, getDb, logoutAndClear } from '../../lib/db/db';
import { getSession, storeSession } from '../../lib/session';
import { dismissToast, getToasts } from '../../lib/toast';
import { type FetchCall, mockFetch } from '../../test/local-first';
import { expectLinks, renderWithApp } from '../../test/render';
import AccountPage from './AccountPage';
import { reloadPage } from './session-actions';
import { ME, apiAccount } from './test-fixtures';

vi.mock('./session-actions', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./session-actions')>()),
  reloadPage: vi.fn(),
}));

const pathOf = (call: FetchCall) => `${call.method} ${call.path}`;

type Answer = { status?: number; body?: unknown } | undefined;

function serve(other: (call: FetchCall) => Answer | Promise<Answer> = () => undefined) {
  return mockFetch(async (call) => {
    const answer = await other(call);
    if (answer) return answer;
    if (call.path === '/api/account/get') return { body: { user: apiAccount() } };
    return { body: { message: 'info/account_updated' } };
  });
}

const render = (lng: 'en' | 'cs' = 'en') =>
  renderWithApp(<AccountPage />, {
    route: '/account',
    path: '/account',
    lng,
    routes: [
      { path: '/feed', element: <p>feed page</p> },
      { path: '/login', element: <p>login page</p> },
      { path: '/account/credentials', element: <p>credentials page</p> },
    ],
  });

beforeEach(async () => {
  storeSession('tok', 'me', ME);
  await logoutAndClear();
  storeSession('tok', 'me', ME);
  for (const t of getToasts()) dismissToast(t.id);
  vi.mocked(reloadPage).mockClear();
});
afterEach(() => vi.restoreAllMocks());

describe('AccountPage', () => {
  it('shows the account: email, join month and year, links', async () => {
    serve();
    render();
    expect(await screen.findByRole('heading', { name: 'me' })).toBeInTheDocument();
    expect(screen.getByText('me@example.com')).toBeInTheDocument();
    expect(screen.getByText('November 2025')).toBeInTheDocument();
    expectLinks({ 'Username, email and password': '/account/credentials', 'Notification settings': '/account/notification-settings' });
  });

  it('says quietly that the app works offline once a service worker controls the page', async () => {
    serve();
    const container = new EventTarget() as EventTarget & { controller: object | null };
    container.controller = null;
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
    try {
      render();
      await screen.findByRole('heading', { name: 'me' });
      expect(screen.queryByText('Kruh is ready to work offline.')).not.toBeInTheDocument();
      container.controller = {};
      container.dispatchEvent(new Event('controllerchange'));
      expect(await screen.findByText('Kruh is ready to work offline.')).toBeInTheDocument();
      expect(getToasts()).toEqual([]);
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker;
    }
  });

  it('links the moderation page for a moderator only', async () => {
    serve();
    const { unmount } = render();
    expect(await screen.findByRole('heading', { name: 'me' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Moderation' })).toBeNull();
    unmount();
    serve((call) => (call.path === '/api/account/get' ? { body: { user: apiAccount({ moderator: true }) } } : undefined));
    render();
    expect(await screen.findByRole('link', { name: 'Moderation' })).toHaveAttribute('href', '/moderation');
  });

  it("links a member's invite links only while the instance lets members invite", async () => {
    serve((call) => (call.path === '/api/registration' ? { body: { mode: 'invitation', membersInvite: false } } : undefined));
    const { unmount } = render();
    expect(await screen.findByRole('heading', { name: 'me' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Invite links' })).toBeNull();
    unmount();
    serve((call) => (call.path === '/api/registration' ? { body: { mode: 'invitation', membersInvite: true } } : undefined));
    render();
    expect(await screen.findByRole('link', { name: 'Invite links' })).toHaveAttribute('href', '/account/invites');
  });

  it('shows the bio update button only when the bio differs, and saves it', async () => {
    const { calls } = serve();
    render();
    const bio = await screen.findByRole('textbox', { name: 'Bio' });
    await waitFor(() => expect(bio).toHaveValue('hello there'));
    expect(screen.queryByRole('button', { name: 'Update bio' })).toBeNull();
    fireEvent.change(bio, { target: { value: 'hello there!' } });
    expect(screen.getByRole('button', { name: 'Update bio' })).toBeInTheDocument();
    fireEvent.change(bio, { target: { value: 'hello there' } });
    expect(screen.queryByRole('button', { name: 'Update bio' })).toBeNull();
    fireEvent.change(bio, { target: { value: 'new bio' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update bio' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Update bio' })).toBeNull());
    const call = calls.find((c) => c.path === '/api/account/changebio');
    expect(call).toMatchObject({ method: 'PATCH', body: { bio: 'new bio' } });
    expect(bio).toHaveValue('new bio');
  });

  it('asks before leaving with a bio edited and not saved, and stays when told to', async () => {
    serve();
    render();
    const bio = await screen.findByRole('textbox', { name: 'Bio' });
    await waitFor(() => expect(bio).toHaveValue('hello there'));
    fireEvent.change(bio, { target: { value: 'half a new bio' } });
    fireEvent.click(screen.getByRole('link', { name: 'Username, email and password' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving your bio?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Bio' })).toHaveValue('half a new bio');

    fireEvent.click(screen.getByRole('link', { name: 'Username, email and password' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByText('credentials page')).toBeInTheDocument();
  });

  it('checks the bio with the shared rules before sending', async () => {
    const { calls } = serve();
    render();
    const bio = await screen.findByRole('textbox', { name: 'Bio' });
    fireEvent.change(bio, { target: { value: 'x'.repeat(513) } });
    fireEvent.click(screen.getByRole('button', { name: 'Update bio' }));
    expect(await screen.findByText('Bio can be at most 512 characters long.')).toBeInTheDocument();
    expect(calls.map(pathOf)).not.toContain('PATCH /api/account/changebio');
  });

  it('switches the language at once and tells the server', async () => {
    const { calls } = serve();
    const { i18n } = render();
    fireEvent.click(await screen.findByRole('radio', { name: 'Čeština' }));
    await waitFor(() => expect(i18n.language).toBe('cs'));
    expect(await screen.findByText('Jazyk')).toBeInTheDocument();
    // Beside "Členem od": the month in the genitive.
    expect(screen.getByText('listopadu 2025')).toBeInTheDocument();
    await waitFor(() => expect(calls.find((c) => c.path === '/api/account/language')).toMatchObject({ method: 'PATCH', body: { language: 'cs' } }));
  });

  it('keeps the chosen theme on this device and shows it on the page at once', async () => {
    localStorage.removeItem('theme');
    document.documentElement.removeAttribute('data-theme');
    const { calls } = serve();
    const first = render();
    const system = await screen.findByRole('radio', { name: 'Same as the device' });
    expect(system).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    // The page's own reads (the account, the registration settings) are all it asks for: the theme stays on the device.
    expect(calls.map(pathOf).filter((c) => !c.endsWith('/api/account/get') && !c.endsWith('/api/registration'))).toEqual([]);
    first.unmount();

    // A later visit (and the entry's early module) reads it back.
    document.documentElement.removeAttribute('data-theme');
    const { applyTheme, storedTheme } = await import('../../components/theme');
    applyTheme(storedTheme());
    expect(document.documentElement.dataset.theme).toBe('dark');
    render();
    expect(await screen.findByRole('radio', { name: 'Dark' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    fireEvent.click(screen.getByRole('radio', { name: 'Same as the device' }));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem('theme')).toBeNull();
  });

  it('uploads a profile picture with its messages', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { calls } = serve(async (call) => {
      if (call.path !== '/api/upload/pfp') return undefined;
      await gate;
      return { status: 201, body: { message: 'info/image_uploaded', url: `/media/pfp/${ME}.jpeg?v=1700000000123` } };
    });
    render();
    await screen.findByRole('button', { name: 'Change profile picture' });
    const input = screen.getByTestId('pfp-input');
    expect(input).toHaveAttribute('accept', 'image/*');
    fireEvent.change(input, { target: { files: [new File(['x'], 'me.png', { type: 'image/png' })] } });
    expect(await screen.findByText('Uploading...')).toBeInTheDocument();
    release();
    expect(await screen.findByText('Profile picture uploaded!')).toBeInTheDocument();
    const upload = calls.find((c) => c.path === '/api/upload/pfp')!;
    expect(upload.method).toBe('POST');
    expect(upload.body).toBeInstanceOf(FormData);
    expect((upload.body as FormData).get('pfp')).toBeInstanceOf(File);
    // The versioned URL the server answered: a new address, so no cache shows the old picture.
    expect(screen.getByRole('button', { name: 'Change profile picture' }).querySelector('img')!.getAttribute('src')).toBe(
      `/media/pfp/${ME}.jpeg?v=1700000000123`,
    );
  });

  it('says why the upload failed, Upload failed when the server named no reason, and refuses files that are not images', async () => {
    let answer = { status: 413, body: { message: 'error/image_too_large' } as unknown };
    const { calls } = serve((call) => (call.path === '/api/upload/pfp' ? answer : undefined));
    render();
    const input = await screen.findByTestId('pfp-input');
    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByText('Only images are allowed.')).toBeInTheDocument();
    expect(calls.map(pathOf)).not.toContain('POST /api/upload/pfp');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fireEvent.change(input, { target: { files: [new File(['x'], 'me.png', { type: 'image/png' })] } });
    expect(await screen.findByText('The image is too large.')).toBeInTheDocument();
    answer = { status: 502, body: undefined };
    fireEvent.change(input, { target: { files: [new File(['x'], 'me.png', { type: 'image/png' })] } });
    expect(await screen.findByText('Upload failed')).toBeInTheDocument();
  });

  it('asks before deleting the account, saying what goes; cancelling makes no call', async () => {
    const { calls } = serve();
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Do you really want to delete this account?');
    expect(dialog).toHaveTextContent('Your posts and comments stay');
    expect(within(dialog).getByRole('button', { name: 'Download my data' })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete account' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.map(pathOf)).not.toContain('DELETE /api/account/delete');
    expect(getSession().token).toBe('tok');
  });

  it('deletes the account with its password, logs out and starts again on the screen that says so', async () => {
    const { calls } = serve((call) => (call.path === '/api/account/delete' ? { body: { message: 'info/account_deleted' } } : undefined));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('alertdialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'my secret' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(reloadPage).toHaveBeenCalledWith('/account-deleted'));
    expect(calls.find((call) => call.path === '/api/account/delete')).toMatchObject({ method: 'DELETE', body: { password: 'my secret' } });
    expect(getSession().token).toBeNull();
  });

  it('says a wrong password in the dialog and stays logged in', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve((call) => (call.path === '/api/account/delete' ? { status: 400, body: { message: 'error/wrong_password' } } : undefined));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('alertdialog');
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'not it' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText('That is not your password.')).toBeInTheDocument();
    expect(reloadPage).not.toHaveBeenCalled();
    expect(getSession().token).toBe('tok');
  });

  it('asks an account signed up with Google for its username instead', async () => {
    const { calls } = serve((call) => {
      if (call.path === '/api/account/get') return { body: { user: apiAccount({ isGoogle: true }) } };
      return call.path === '/api/account/delete' ? { body: { message: 'info/account_deleted' } } : undefined;
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).queryByLabelText('Your password')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Type your username (me) to confirm'), { target: { value: 'me' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(reloadPage).toHaveBeenCalledWith('/account-deleted'));
    expect(calls.find((call) => call.path === '/api/account/delete')).toMatchObject({ body: { username: 'me' } });
  });

  it('logs out to /feed, clearing the local database', async () => {
    serve();
    const { router } = render();
    await getDb().posts.put({ _id: 'p1' } as never);
    fireEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/feed'));
    expect(getSession().token).toBeNull();
    storeSession('tok', 'me', ME);
    expect(await getDb().posts.count()).toBe(0);
  });

  it('warns before logging out while the outbox still holds items', async () => {
    serve();
    const { router } = render();
    await getDb().outbox.add({ kind: 'post', status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 0, clientId: 'c1', idempotencyKey: 'k1', payload: { text: 'x', mentions: [], groups: [], replyingTo: null }, images: [] } as OutboxRow);
    fireEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    const dialog = await screen.findByRole('alertdialog', { name: /1 item is still waiting/ });
    expect(dialog).toHaveTextContent('1 item is still waiting');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(getSession().token).toBe('tok');
    expect(router.state.location.pathname).toBe('/account');
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Log out anyway' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/feed'));
    expect(getSession().token).toBeNull();
  });

  it('on a refused account load shows an error, logs out and goes to /login', async () => {
    serve((call) => (call.path === '/api/account/get' ? { status: 404, body: { message: 'error/user_not_found' } } : undefined));
    const { router } = render();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getToasts().map((t) => t.message)).toContain('error/user_not_found');
    expect(getSession().token).toBeNull();
  });

  it('keeps the stored account and the session, marked expired, when the server refuses the session', async () => {
    await getDb().meta.put({ key: 'account', value: apiAccount({ username: 'stored-me' }) });
    const before = getToasts().length;
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    const { router } = render();
    expect(await screen.findByRole('heading', { name: 'stored-me' })).toBeInTheDocument();
    await waitFor(() => expect(getSession().expired).toBe(true));
    expect(router.state.location.pathname).toBe('/account');
    expect(getSession().token).toBe('tok');
    expect(getToasts().slice(before)).toEqual([]);
  });

  it('lets the account stay out of other servers\' directories and search, one checkbox each, kept on the server', async () => {
    const { calls } = serve((call) =>
      call.path === '/api/account/discovery'
        ? { body: { message: 'info/settings_updated', discoverable: false, indexable: true } }
        : undefined,
    );
    render();
    const listed = await screen.findByRole('checkbox', { name: 'List me in the directories of other fediverse servers' });
    const searched = screen.getByRole('checkbox', { name: 'Let other fediverse servers search my posts' });
    // Both on for an account that never chose, as the server defaults them.
    expect(listed).toBeChecked();
    expect(searched).toBeChecked();
    expect(listed).toHaveAccessibleDescription(/suggest your profile/);
    fireEvent.click(listed);
    expect(listed).not.toBeChecked();
    await waitFor(() => expect(calls.find((c) => c.path === '/api/account/discovery')).toMatchObject({ method: 'PATCH', body: { discoverable: false } }));
    await waitFor(async () => expect(((await getDb().meta.get('account'))?.value as { discoverable?: boolean }).discoverable).toBe(false));
    expect(searched).toBeChecked();
  });

  it('shows the stored choice, and turns a checkbox back when the server refuses the change', async () => {
    serve((call) => {
      if (call.path === '/api/account/get') return { body: { user: apiAccount({ discoverable: true, indexable: false }) } };
      if (call.path === '/api/account/discovery') return { status: 500, body: { message: 'error/server_error' } };
      return undefined;
    });
    render('cs');
    const searched = await screen.findByRole('checkbox', { name: 'Dovolit jiným serverům fediverza vyhledávat v mých příspěvcích' });
    await waitFor(() => expect(searched).not.toBeChecked());
    fireEvent.click(searched);
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('error/server_error'));
    expect(searched).not.toBeChecked();
  });

  it('paints the stored account offline', async () => {
    await getDb().meta.put({ key: 'account', value: apiAccount({ username: 'stored-me' }) });
    mockFetch(() => new TypeError('Failed to fetch'));
    render();
    expect(await screen.findByRole('heading', { name: 'stored-me' })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 20));
    expect(getToasts()).toHaveLength(0);
    expect(getSession().token).toBe('tok');
  });
});

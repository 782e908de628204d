import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { logoutAndClear } from '../../lib/db/db';
import { storeSession } from '../../lib/session';
import { dismissToast, getToasts } from '../../lib/toast';
import { type FetchCall, mockFetch } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import NotificationSettingsPage from './NotificationSettingsPage';
import { ME } from './test-fixtures';

const LABELS = [
  'New followers',
  'Replies to your posts and comments',
  'New posts from people you follow',
  'Mentions in posts',
  'Mentions in comments',
  'New members of your groups',
];

/** The six switches of the notification types (the device's own switch stands apart, above them). */
const typeSwitches = () => screen.queryAllByRole('switch').filter((el) => el.closest('.settings-list'));

const render = () => renderWithApp(<NotificationSettingsPage />, { route: '/account/notification-settings', path: '/account/notification-settings' });

function serve(patch: (call: FetchCall) => { status?: number; body?: unknown } = (call) => ({ body: { notifications: (call.body as { newSettings: boolean[] }).newSettings } })) {
  return mockFetch((call) => {
    if (call.path === '/api/account/notifications' && call.method === 'POST') {
      return { body: { notifications: [true, false, true, true, false, true] } };
    }
    if (call.path === '/api/account/notifications' && call.method === 'PATCH') return patch(call);
    return { status: 404, body: { message: 'error/server_error' } };
  });
}

beforeEach(async () => {
  storeSession('tok', 'me', ME);
  await logoutAndClear();
  storeSession('tok', 'me', ME);
  for (const t of getToasts()) dismissToast(t.id);
});

describe('NotificationSettingsPage', () => {
  it('shows six switches with the stored settings', async () => {
    serve();
    render();
    await waitFor(() => expect(typeSwitches()).toHaveLength(6));
    expect(LABELS.map((name) => (screen.getByRole('switch', { name }) as HTMLInputElement).checked)).toEqual([true, false, true, true, false, true]);
  });

  it('saves all six booleans when a switch is toggled', async () => {
    const { calls } = serve();
    render();
    const reply = await screen.findByRole('switch', { name: 'Replies to your posts and comments' });
    fireEvent.click(reply);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ newSettings: [true, true, true, true, false, true] });
    await waitFor(() => expect(reply).toBeChecked());
    fireEvent.click(screen.getByRole('switch', { name: 'New followers' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PATCH')[1]!.body).toEqual({ newSettings: [false, true, true, true, false, true] });
  });

  it('puts the switch back and shows the message when saving fails', async () => {
    serve(() => ({ status: 400, body: { message: 'error/invalid_settings' } }));
    render();
    const follower = await screen.findByRole('switch', { name: 'New followers' });
    fireEvent.click(follower);
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('error/invalid_settings'));
    await waitFor(() => expect(follower).toBeChecked());
  });

  it('shows error/loading_failed when the settings cannot be loaded', async () => {
    mockFetch(() => ({ status: 500, body: undefined }));
    render();
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('error/loading_failed'));
    expect(typeSwitches()).toHaveLength(0);
  });

  it('shows the settings stored at the last visit offline, and says when none are stored', async () => {
    mockFetch(() => new TypeError('Failed to fetch'));
    const first = render();
    expect(await screen.findByText('You are offline, and this is not saved on this device.')).toBeInTheDocument();
    first.unmount();

    serve();
    const online = render();
    await waitFor(() => expect(typeSwitches()).toHaveLength(6));
    online.unmount();

    mockFetch(() => new TypeError('Failed to fetch'));
    render();
    await waitFor(() => expect(typeSwitches()).toHaveLength(6));
    expect(LABELS.map((name) => (screen.getByRole('switch', { name }) as HTMLInputElement).checked)).toEqual([true, false, true, true, false, true]);
    expect(getToasts()).toHaveLength(0);
  });
});

import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeSession } from '../../lib/session';
import { dismissToast, getToasts } from '../../lib/toast';
import { type FetchCall, mockFetch } from '../../test/local-first';
import { DEVICE_KEYS, type FakePush, installFakePush } from '../../test/push';
import { renderWithApp } from '../../test/render';
import { DevicePushSwitch } from './DevicePushSwitch';
import { ME } from './test-fixtures';

// A real VAPID public key's shape: 65 bytes, 0x04 first.
const KEY_BYTES = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i));
const KEY = btoa(String.fromCharCode(...KEY_BYTES)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const NAME = 'Notifications on this device';
const deviceSwitch = () => screen.findByRole('switch', { name: NAME }) as Promise<HTMLInputElement>;

function serve(subscribe: (call: FetchCall) => { status?: number; body?: unknown } = () => ({ body: { message: 'info/push_subscribed' } })) {
  return mockFetch((call) => {
    if (call.path === '/api/push/key') return { body: { key: KEY } };
    if (call.path === '/api/push/subscribe' && call.method === 'POST') return subscribe(call);
    if (call.path === '/api/push/subscribe' && call.method === 'DELETE') return { body: { message: 'info/push_unsubscribed' } };
    return { status: 404, body: { message: 'error/not_found' } };
  });
}

let push: FakePush | undefined;
const render = () => renderWithApp(<DevicePushSwitch />);

beforeEach(() => {
  storeSession('tok', 'me', ME);
  for (const t of getToasts()) dismissToast(t.id);
});
afterEach(() => {
  push?.uninstall();
  push = undefined;
});

describe('DevicePushSwitch', () => {
  it('says when the browser cannot show notifications while the app is closed, and stays off', async () => {
    serve();
    render();
    await screen.findByText(/cannot show notifications while Kruh is closed/);
    const input = await deviceSwitch();
    expect(input).not.toBeChecked();
    expect(input).toBeDisabled();
  });

  it('asks for the permission only when turned on, then subscribes with the server key and sends the subscription', async () => {
    push = installFakePush();
    const { calls } = serve();
    render();
    const input = await deviceSwitch();
    await waitFor(() => expect(input).toBeEnabled());
    expect(input).not.toBeChecked();
    expect(push.requestPermission).not.toHaveBeenCalled();

    fireEvent.click(input);
    await waitFor(() => expect(input).toBeChecked());
    expect(push.requestPermission).toHaveBeenCalledTimes(1);
    expect(push.subscribe).toHaveBeenCalledTimes(1);
    const options = push.subscribe.mock.calls[0]![0] as { userVisibleOnly: boolean; applicationServerKey: Uint8Array };
    expect(options.userVisibleOnly).toBe(true);
    expect([...options.applicationServerKey]).toEqual([...KEY_BYTES]);
    const sent = calls.filter((c) => c.path === '/api/push/subscribe');
    expect(sent.map((c) => [c.method, c.body])).toEqual([['POST', { endpoint: push.current!.endpoint, keys: DEVICE_KEYS }]]);
    expect(sent[0]!.headers.Authorization).toBe('Bearer tok');
  });

  it('says so and stays off when the permission is refused', async () => {
    push = installFakePush({ answer: 'denied' });
    const { calls } = serve();
    render();
    const input = await deviceSwitch();
    await waitFor(() => expect(input).toBeEnabled());
    fireEvent.click(input);
    await screen.findByText(/Notifications are blocked for Kruh in this browser/);
    expect(input).not.toBeChecked();
    expect(input).toBeDisabled();
    expect(push.subscribe).not.toHaveBeenCalled();
    expect(calls.filter((c) => c.path.startsWith('/api/push'))).toEqual([]);
  });

  it('shows the note at once when notifications were blocked before', async () => {
    push = installFakePush({ permission: 'denied' });
    serve();
    render();
    await screen.findByText(/Notifications are blocked for Kruh in this browser/);
    expect(await deviceSwitch()).toBeDisabled();
  });

  it('shows an existing subscription as on (sending it again), and turning off unsubscribes and removes it', async () => {
    push = installFakePush({ permission: 'granted' });
    push.subscribed('https://push.example.com/device/old', KEY_BYTES);
    const { calls } = serve();
    render();
    const input = await deviceSwitch();
    await waitFor(() => expect(input).toBeChecked());
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path === '/api/push/subscribe')).toHaveLength(1));

    fireEvent.click(input);
    await waitFor(() => expect(input).not.toBeChecked());
    expect(push.unsubscribe).toHaveBeenCalledTimes(1);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.body)).toEqual([{ endpoint: 'https://push.example.com/device/old' }]);
    expect(push.requestPermission).not.toHaveBeenCalled();
  });

  it("makes the subscription anew when it was made with another server key (the server's pair changed)", async () => {
    push = installFakePush({ permission: 'granted' });
    push.subscribed('https://push.example.com/device/stale', new Uint8Array(65).fill(9));
    const { calls } = serve();
    render();
    const input = await deviceSwitch();
    await waitFor(() => expect(push!.subscribe).toHaveBeenCalledTimes(1));
    expect(push.unsubscribe).toHaveBeenCalledTimes(1);
    expect([...(push.subscribe.mock.calls[0]![0] as { applicationServerKey: Uint8Array }).applicationServerKey]).toEqual([...KEY_BYTES]);
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path === '/api/push/subscribe')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ endpoint: push.current!.endpoint, keys: DEVICE_KEYS });
    expect(push.current!.endpoint).not.toBe('https://push.example.com/device/stale');
    expect(input).toBeChecked();
  });

  it("shows the server's refusal and stays off, leaving no subscription behind", async () => {
    push = installFakePush();
    serve(() => ({ status: 400, body: { message: 'error/invalid_subscription' } }));
    render();
    const input = await deviceSwitch();
    await waitFor(() => expect(input).toBeEnabled());
    fireEvent.click(input);
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('error/invalid_subscription'));
    await waitFor(() => expect(input).not.toBeChecked());
    expect(push.current).toBeNull();
  });
});

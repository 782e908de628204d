import '../../test/setup';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeSession } from '../session';
import { mockFetch } from '../../test/local-first';
import { type FakePush, installFakePush } from '../../test/push';
import { devicePushState, forgetDevicePush, keyBytes, pushSupported } from './device-push';

let push: FakePush | undefined;
beforeEach(() => storeSession('tok', 'me', 'u1'));
afterEach(() => {
  push?.uninstall();
  push = undefined;
});

describe('device push', () => {
  it('reads a base64url key as its bytes', () => {
    expect([...keyBytes('AQID_-8')]).toEqual([1, 2, 3, 255, 239]);
    expect([...keyBytes('BA')]).toEqual([4]);
  });

  it('is unsupported without the Push API (jsdom, iOS outside the installed app)', async () => {
    expect(pushSupported()).toBe(false);
    expect(await devicePushState()).toBe('unsupported');
  });

  it('knows its state from the permission and the subscription', async () => {
    push = installFakePush();
    expect(await devicePushState()).toBe('off');
    push.permission = 'granted';
    expect(await devicePushState()).toBe('off');
    push.subscribed('https://push.example.com/1', new Uint8Array(65));
    expect(await devicePushState()).toBe('on');
    push.permission = 'denied';
    expect(await devicePushState()).toBe('denied');
  });

  it('logging out unsubscribes the device and tells the server', async () => {
    push = installFakePush({ permission: 'granted' });
    push.subscribed('https://push.example.com/mine', new Uint8Array(65));
    const { calls } = mockFetch(() => ({ body: { message: 'info/push_unsubscribed' } }));
    await forgetDevicePush();
    expect(push.current).toBeNull();
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([['DELETE', '/api/push/subscribe', { endpoint: 'https://push.example.com/mine' }]]);
  });

  it('logging out offline still unsubscribes the device, and does not wait on the server', async () => {
    push = installFakePush({ permission: 'granted' });
    push.subscribed('https://push.example.com/mine', new Uint8Array(65));
    mockFetch(() => new TypeError('Failed to fetch'));
    await forgetDevicePush();
    expect(push.current).toBeNull();

    push.subscribed('https://push.example.com/again', new Uint8Array(65));
    mockFetch(() => new Promise(() => undefined));
    const started = Date.now();
    await forgetDevicePush(50);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

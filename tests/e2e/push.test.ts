import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findNotification, unreadCount } from '../../server/src/modules/notifications/notifications.service';
import { pushMessage } from '../../server/src/modules/notifications/push/push.message';
import { registrationIdOf, waitForServiceWorker } from './support/browser';
import { api, createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

interface Shown {
  title: string;
  body: string;
  tag: string;
  icon: string;
  data: unknown;
}

/** The notifications the app's service worker shows, read from the page. */
const shownNotifications = (page: Page): Promise<Shown[]> =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const list = await registration.getNotifications();
    return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, icon: n.icon, data: n.data as unknown }));
  });

/**
 * Web Push reaches the service worker: a push message (the one the server writes for a real
 * notification, here handed to the worker by DevTools, as a push service would) shows a system
 * notification with its text, the app's icon and the page to open.
 */
describe('web push', () => {
  const e2e = useE2eSuite({ browser: 'full' });

  it('shows the notification the server writes for a new follower', async () => {
    const bob = await createVerifiedUser(e2e.server);
    const alice = await createVerifiedUser(e2e.server);
    const origin = e2e.server.baseUrl;
    const page = await e2e.visit('/feed', { as: bob });
    await e2e.journey.context.grantPermissions(['notifications'], { origin });
    await waitForServiceWorker(page);
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');

    // Alice follows Bob; the server's worker makes Bob's notification, and its push message.
    expect((await api(e2e.server, 'POST', '/follow', { token: alice.token, body: { following: bob.id } })).status).toBe(201);
    const app = e2e.server.app;
    const notificationId = async () =>
      (await app.db.selectFrom('notifications').select('id').where('user_id', '=', bob.id).executeTakeFirst())?.id;
    await expect.poll(notificationId, { timeout: 10_000 }).toBeTruthy();
    const id = (await notificationId())!;
    const notification = await findNotification(app, bob.id, id);
    const message = pushMessage(notification!, 'en', await unreadCount(app, bob.id));
    expect(message).toMatchObject({ title: `${alice.username} started following you`, url: `/u/${alice.username}`, badge: 1 });

    const cdp = await e2e.journey.context.newCDPSession(page);
    const registrationId = await registrationIdOf(cdp, origin);
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(message) });

    await expect.poll(() => shownNotifications(page), { timeout: 15_000 }).toEqual([
      { title: message.title, body: '', tag: message.tag, icon: `${origin}/icons/icon-192.png`, data: { url: message.url } },
    ]);

    // A push that is not the server's JSON still shows something, leading to the notification list.
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: 'not json' });
    await expect
      .poll(async () => (await shownNotifications(page)).find((n) => n.title === 'Kruh'), { timeout: 15_000 })
      .toMatchObject({ data: { url: '/notifications' } });
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('offers the switch for this device in the notification settings, and says when notifications are blocked', async () => {
    const bob = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/account/notification-settings', { as: bob });
    const device = page.getByRole('switch', { name: 'Notifications on this device' });
    // Push is there (a secure origin with a service worker): on a first visit too, once it is active.
    await expect.poll(() => device.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await device.isChecked()).toBe(false);
    await page.getByText('Shows your notifications on this device while Kruh is closed.').waitFor();

    const blocked = await e2e.journey.context.newPage();
    await blocked.addInitScript(() => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }));
    await blocked.goto(`${e2e.server.baseUrl}/account/notification-settings`);
    await blocked.getByText(/Notifications are blocked for Kruh in this browser/).waitFor({ timeout: 20_000 });
    expect(await blocked.getByRole('switch', { name: 'Notifications on this device' }).isDisabled()).toBe(true);
  });
});

/**
 * The two signals between the unread badge (in the shell) and the notification list (a feature),
 * as window events so neither imports the other.
 */

/** The list changed here (seen, deleted, cleared): the badge asks the server again. */
const CHANGED = 'kruh:notifications-changed';
/** The server's unread count rose while the app is open: an open list fetches what arrived. */
const ARRIVED = 'kruh:notifications-arrived';

function on(name: string, listener: () => void): () => void {
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}

export const announceNotificationsChanged = (): void => void window.dispatchEvent(new Event(CHANGED));
export const announceNotificationsArrived = (): void => void window.dispatchEvent(new Event(ARRIVED));
export const onNotificationsChanged = (listener: () => void): (() => void) => on(CHANGED, listener);
export const onNotificationsArrived = (listener: () => void): (() => void) => on(ARRIVED, listener);

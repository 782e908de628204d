import type { Page } from 'playwright-core';
import { storedRows } from './stored';

/** Rows still waiting in the app's outbox (IndexedDB `kruh-<user id>`, store `outbox`). */
export function outboxSize(page: Page, userId: string): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const count = db.transaction('outbox', 'readonly').objectStore('outbox').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
    `kruh-${userId}`,
  );
}

/** How each waiting item of the outbox stands, in the order it goes. */
export interface OutboxState {
  kind: string;
  status: string;
  attempts: number;
  error?: string;
}

export async function outboxRows(page: Page, userId: string): Promise<OutboxState[]> {
  const rows = await storedRows<OutboxState & { seq: number }>(page, userId, 'outbox');
  return rows.sort((a, b) => a.seq - b.seq).map(({ kind, status, attempts, error }) => ({ kind, status, attempts, ...(error ? { error } : {}) }));
}

/**
 * Whether any tab or the service worker is sending the outbox or about to: the app sends only
 * while it holds this Web Lock of the origin (OUTBOX_LOCK in src/lib/outbox/outbox.ts).
 */
export function outboxBusy(page: Page): Promise<boolean> {
  return page.evaluate(async (lock) => {
    const { held = [], pending = [] } = await navigator.locks.query();
    return [...held, ...pending].some((one) => one.name === lock);
  }, 'kruh-outbox');
}

import type { Page } from 'playwright-core';

/** A picture kept in a row, as the test sees it: Blobs cannot leave the page. */
export interface StoredBlob {
  blob: string;
  size: number;
}

/**
 * Every row of one store of an account's database (IndexedDB `kruh-<user id>`), read in the page:
 * what the app has written, for a test to wait on (a draft saved, an item tried and kept).
 */
export async function storedRows<T>(page: Page, userId: string, store: string): Promise<T[]> {
  const json = await page.evaluate(
    ({ name, store }) =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction(store, 'readonly').objectStore(store).getAll();
          all.onsuccess = () => {
            db.close();
            resolve(JSON.stringify(all.result, (_, value: unknown) => (value instanceof Blob ? { blob: value.type, size: value.size } : value)));
          };
          all.onerror = () => reject(all.error);
        };
      }),
    { name: `kruh-${userId}`, store },
  );
  return JSON.parse(json) as T[];
}

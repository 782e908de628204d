import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, vi } from 'vitest';

/**
 * Files of the web project share a worker (see vitest.config.ts). Each starts as on a fresh page
 * load: the app's modules are evaluated again, so their page-lifetime state (the open database,
 * the toasts, what the auth guard already checked) starts empty, and so does IndexedDB. This runs
 * before setup.ts, which then loads the fresh modules.
 */
vi.resetModules();
globalThis.indexedDB = new IDBFactory();
Dexie.dependencies.indexedDB = globalThis.indexedDB;
// jsdom keeps navigator's properties on its prototype: what a file defined on the object itself
// (offline, a service worker, a clipboard) goes.
for (const name of Object.getOwnPropertyNames(navigator)) Reflect.deleteProperty(navigator, name);
sessionStorage.clear();
window.history.replaceState(null, '', '/');

// What a file replaced for its tests is put back before the next file starts.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

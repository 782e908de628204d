import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearSession } from '../lib/session';
import { provideAllLanguages } from './i18n';

// A full run loads lazy routes, IndexedDB and the router on a busy machine: the default 1 s of
// findBy* and waitFor is too short there, while a passing check still returns at once.
configure({ asyncUtilTimeout: 5000 });

// jsdom lays nothing out, so it has no scrolling into view; the app's calls of it do nothing here.
Element.prototype.scrollIntoView ??= () => undefined;

// The app fetches a language's texts when it is first used; tests have them all from the start.
provideAllLanguages();

afterEach(() => {
  cleanup();
  // Through the session module, so its cached copy is dropped too.
  clearSession();
  localStorage.clear();
});

import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearSession } from '../lib/session';

afterEach(() => {
  cleanup();
  // Through the session module, so its cached copy is dropped too.
  clearSession();
  localStorage.clear();
});

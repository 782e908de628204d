import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '../../lib/session';
import { renderWithApp, stubFetch } from '../../test/render';
import { NavBar } from './NavBar';
import { showAppBadge, useAppBadge } from './app-badge';

let setAppBadge: ReturnType<typeof vi.fn>;
let clearAppBadge: ReturnType<typeof vi.fn>;

function installBadge() {
  setAppBadge = vi.fn(async () => undefined);
  clearAppBadge = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'setAppBadge', { configurable: true, value: setAppBadge });
  Object.defineProperty(navigator, 'clearAppBadge', { configurable: true, value: clearAppBadge });
}

afterEach(() => {
  delete (navigator as { setAppBadge?: unknown }).setAppBadge;
  delete (navigator as { clearAppBadge?: unknown }).clearAppBadge;
  vi.unstubAllGlobals();
});

describe('the app badge', () => {
  beforeEach(installBadge);

  it('shows the count on the app icon and clears it at 0', () => {
    const { rerender } = renderHook(({ count }) => useAppBadge(count), { initialProps: { count: 3 } });
    expect(setAppBadge).toHaveBeenLastCalledWith(3);
    rerender({ count: 5 });
    expect(setAppBadge).toHaveBeenLastCalledWith(5);
    rerender({ count: 0 });
    expect(clearAppBadge).toHaveBeenCalledTimes(1);
    expect(setAppBadge).toHaveBeenCalledTimes(2);
  });

  it('ignores a refusal (an app that is not installed)', async () => {
    setAppBadge.mockRejectedValueOnce(new DOMException('not allowed', 'NotAllowedError'));
    expect(() => showAppBadge(2)).not.toThrow();
    await Promise.resolve();
  });

  it('follows the unread count of the navigation', async () => {
    vi.stubGlobal('fetch', stubFetch((url) => (url.pathname === '/api/notification/unread' ? { body: { count: 7 } } : undefined)).fetchMock);
    storeSession('tok', 'alice', 'aaaaaaaaaaaaaaaaaaaaaaaa');
    renderWithApp(<NavBar />, { route: '/feed' });
    await waitFor(() => expect(setAppBadge).toHaveBeenLastCalledWith(7));
  });
});

describe('without the Badging API (Firefox)', () => {
  it('does nothing', () => {
    expect('setAppBadge' in navigator).toBe(false);
    expect(() => showAppBadge(4)).not.toThrow();
    expect(() => showAppBadge(0)).not.toThrow();
  });
});

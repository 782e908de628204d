import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearHistory, loadHistory } from '../../lib/search-history';
import { storeSession } from '../../lib/session';
import { renderWithApp, stubFetch } from '../../test/render';
import { SearchBox } from './SearchBox';

const USERS = [
  { _id: 'a'.repeat(24), name: 'alice' },
  { _id: 'b'.repeat(24), name: 'alina' },
];

function setup() {
  const { fetchMock, calls } = stubFetch((url) =>
    url.pathname === '/api/search/users' ? { body: USERS.filter((u) => u.name.startsWith(url.searchParams.get('query') ?? '')) } : undefined,
  );
  vi.stubGlobal('fetch', fetchMock);
  const view = renderWithApp(<SearchBox />, {
    route: '/feed',
    routes: [],
  });
  const input = screen.getByRole('combobox', { name: 'Search' });
  const searchCalls = () => calls.filter((c) => c.url.pathname === '/api/search/users');
  return { ...view, input, searchCalls };
}

const flush = () => act(async () => {
  await vi.advanceTimersByTimeAsync(0);
});

describe('SearchBox', () => {
  beforeEach(async () => {
    await clearHistory(null);
    await clearHistory('u1');
    // Only the debounce timers: IndexedDB (fake-indexeddb) keeps its own scheduling.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks for suggestions only 300 ms after typing stops', async () => {
    const { input, searchCalls } = setup();
    fireEvent.change(input, { target: { value: 'a' } });
    await act(async () => vi.advanceTimersByTimeAsync(200));
    fireEvent.change(input, { target: { value: 'al' } });
    await act(async () => vi.advanceTimersByTimeAsync(299));
    expect(searchCalls()).toHaveLength(0);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    await flush();
    expect(searchCalls()).toHaveLength(1);
    expect(searchCalls()[0]!.url.searchParams.get('query')).toBe('al');
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['alice', 'alina']);
  });

  it('never asks for blank input', async () => {
    const { input, searchCalls } = setup();
    fireEvent.change(input, { target: { value: '   ' } });
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(searchCalls()).toHaveLength(0);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('Enter saves the text to the history and opens /search?q=', async () => {
    storeSession('tok', 'me', 'u1');
    const { input, router } = setup();
    fireEvent.change(input, { target: { value: 'kruh news' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await flush();
    expect(router.state.location.pathname).toBe('/search');
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('kruh news');
    vi.useRealTimers();
    await vi.waitFor(async () => expect(await loadHistory('u1')).toEqual([{ type: 'text', text: 'kruh news' }]));
    expect(input).toHaveValue('');
  });

  it('choosing a suggestion opens the profile and records the user', async () => {
    storeSession('tok', 'me', 'u1');
    const { input, router } = setup();
    fireEvent.change(input, { target: { value: 'ali' } });
    await act(async () => vi.advanceTimersByTimeAsync(300));
    await flush();
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(input, { key: 'Enter' });
    await flush();
    expect(router.state.location.pathname).toBe('/u/alina');
    vi.useRealTimers();
    await vi.waitFor(async () => expect(await loadHistory('u1')).toEqual([{ type: 'user', id: 'b'.repeat(24), name: 'alina' }]));
  });
});

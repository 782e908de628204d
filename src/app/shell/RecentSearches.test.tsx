import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '#core/limits';
import { addHistoryEntry, clearHistory, loadHistory } from '../../lib/search-history';
import { storeSession } from '../../lib/session';
import { renderWithApp, stubFetch } from '../../test/render';
import { RecentSearches } from './RecentSearches';

const ALICE = 'a'.repeat(24);
const GONE = 'f'.repeat(24);
const GROUP = 'c'.repeat(24);

describe('search history', () => {
  beforeEach(async () => {
    await clearHistory('u1');
    await clearHistory('u2');
  });

  it('keeps entries newest first, distinct, at most 30, per user', async () => {
    for (let i = 0; i < 35; i++) await addHistoryEntry('u1', { type: 'text', text: `q${i}` });
    await addHistoryEntry('u1', { type: 'text', text: 'q20' });
    const history = await loadHistory('u1');
    expect(history).toHaveLength(LIMITS.searchHistoryMax);
    expect(history[0]).toEqual({ type: 'text', text: 'q20' });
    expect(history[1]).toEqual({ type: 'text', text: 'q34' });
    expect(history.filter((e) => e.type === 'text' && e.text === 'q20')).toHaveLength(1);
    expect(await loadHistory('u2')).toEqual([]);
  });
});

describe('RecentSearches', () => {
  beforeEach(async () => {
    await clearHistory('u1');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('resolves names, marks failed lookups deleted and clears all', async () => {
    storeSession('tok', 'me', 'u1');
    await addHistoryEntry('u1', { type: 'user', id: GONE });
    await addHistoryEntry('u1', { type: 'group', id: GROUP });
    await addHistoryEntry('u1', { type: 'user', id: ALICE });
    await addHistoryEntry('u1', { type: 'text', text: 'cats' });
    vi.stubGlobal(
      'fetch',
      stubFetch((url) => {
        if (url.pathname === `/api/profile/${ALICE}/username`) return { body: { name: 'alice' } };
        if (url.pathname === `/api/group/${GROUP}/name`) return { body: { name: 'knitters' } };
        if (url.pathname === `/api/profile/${GONE}/username`) return { status: 404, body: { message: 'error/user_not_found' } };
        return undefined;
      }).fetchMock,
    );
    renderWithApp(<RecentSearches />);

    expect(await screen.findByRole('link', { name: 'cats' })).toHaveAttribute('href', '/search?q=cats');
    expect(await screen.findByRole('link', { name: 'alice' })).toHaveAttribute('href', '/u/alice');
    expect(await screen.findByRole('link', { name: '&knitters' })).toHaveAttribute('href', '/g/knitters');
    expect(await screen.findByText('Deleted')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(screen.getByText('Your recent searches will show up here.')).toBeInTheDocument());
    expect(await loadHistory('u1')).toEqual([]);
  });
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '#core/limits';
import { getDb } from '../../lib/db/db';
import { addHistoryEntry, clearHistory, loadHistory } from '../../lib/search-history';
import { storeSession } from '../../lib/session';
import { apiGroup, apiProfile, mockFetch, startOffline } from '../../test/local-first';
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

  it('offline, shows users and groups by the names they were stored with, never as deleted', async () => {
    await startOffline('me', 'u1');
    mockFetch(() => new TypeError('Failed to fetch'));
    const OLD_USER = 'd'.repeat(24);
    const OLD_GROUP = 'e'.repeat(24);
    // Entries saved before they carried their names: the stored profile and group still name them.
    await getDb().profiles.put({ username: 'dora', data: apiProfile(OLD_USER, 'dora'), cachedAt: 1 });
    await getDb().groups.put({ name: 'weavers', data: apiGroup(OLD_GROUP, { name: 'weavers' }), cachedAt: 1 });
    await addHistoryEntry('u1', { type: 'user', id: OLD_USER });
    await addHistoryEntry('u1', { type: 'group', id: OLD_GROUP });
    await addHistoryEntry('u1', { type: 'user', id: GONE });
    await addHistoryEntry('u1', { type: 'group', id: GROUP, name: 'knitters', avatar: '/media/gp/knitters-v2.jpeg' });
    await addHistoryEntry('u1', { type: 'user', id: ALICE, name: 'alice' });
    renderWithApp(<RecentSearches />);

    expect(await screen.findByRole('link', { name: 'alice' })).toHaveAttribute('href', '/u/alice');
    const knitters = await screen.findByRole('link', { name: '&knitters' });
    expect(knitters).toHaveAttribute('href', '/g/knitters');
    expect(knitters.querySelector('img')).toHaveAttribute('src', '/media/gp/knitters-v2.jpeg');
    expect(await screen.findByRole('link', { name: 'dora' })).toHaveAttribute('href', '/u/dora');
    expect(await screen.findByRole('link', { name: '&weavers' })).toHaveAttribute('href', '/g/weavers');
    // Nothing on this device names the last one: it is unavailable offline, not deleted.
    expect(await screen.findByText('Not available offline')).toBeInTheDocument();
    expect(screen.queryByText('Deleted')).not.toBeInTheDocument();
  });

  it('online, the current name from the server replaces the stored one', async () => {
    storeSession('tok', 'me', 'u1');
    await addHistoryEntry('u1', { type: 'user', id: ALICE, name: 'alice_old' });
    vi.stubGlobal(
      'fetch',
      stubFetch((url) => (url.pathname === `/api/profile/${ALICE}/username` ? { body: { name: 'alice' } } : undefined)).fetchMock,
    );
    renderWithApp(<RecentSearches />);
    expect(await screen.findByRole('link', { name: 'alice' })).toHaveAttribute('href', '/u/alice');
    expect(screen.queryByText('alice_old')).not.toBeInTheDocument();
  });
});

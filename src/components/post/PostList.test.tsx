import '../../test/setup';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalData } from '../../lib/db/db';
import { getToasts } from '../../lib/toast';
import { mockFetch, setOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import { ListingPosts } from './PostList';

beforeEach(async () => {
  setOnline(true);
  await clearLocalData();
});

describe.each([
  ['a profile', { profile: 'bob' }],
  ['a group', { group: 'cats', groupId: 'g1' }],
] as const)("the posts of %s", (_, source) => {
  it('report a failure to load as while_loading, once', async () => {
    const before = getToasts().length;
    mockFetch(() => ({ status: 500, body: { message: 'error/server_error' } }));
    renderWithApp(<ListingPosts source={source} emptyLabel="No posts" />);
    await waitFor(() => expect(getToasts().slice(before).map((t) => t.message)).toEqual(['error/while_loading']));
    expect(screen.queryByText(/You are offline/)).toBeNull();
  });

  it('say offline that they are not saved, not that there are none', async () => {
    mockFetch(() => new TypeError('Failed to fetch'));
    renderWithApp(<ListingPosts source={source} emptyLabel="No posts" />);
    expect(await screen.findByText('You are offline, and these posts are not saved on this device.')).toHaveAttribute('role', 'status');
    // Nothing is loading any more: the list waits for the network.
    expect(screen.queryByText('Loading posts…')).toBeNull();
    expect(screen.queryByText('No posts')).toBeNull();
  });
});

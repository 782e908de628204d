import '../../test/setup';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalData } from '../../lib/db/db';
import { getToasts } from '../../lib/toast';
import { apiPost, mockFetch, setOnline } from '../../test/local-first';
import type { Post } from '../../lib/api/types';
import { renderWithApp } from '../../test/render';
import { ListingPosts, PostList } from './PostList';

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

describe('a listing of posts', () => {
  const pictures = (container: HTMLElement) =>
    [...container.querySelectorAll<HTMLImageElement>('.post-images img')].map((img) => [
      img.getAttribute('src'),
      img.getAttribute('loading'),
      img.getAttribute('fetchpriority'),
    ]);
  const withPictures = (id: string) => apiPost(id, { media: [`/media/${id}1.webp`, `/media/${id}2.webp`] }) as Post;

  const withoutPictures = (id: string) => apiPost(id) as Post;

  it.each([
    [
      'loads the pictures of its first screen of cards at once, the very first ones first, and the rest as they scroll near',
      ['a', 'b', 'c', 'd'].map(withPictures),
      [
        ['/media/a1.webp', 'eager', 'high'],
        ['/media/a2.webp', 'eager', null],
        ['/media/b1.webp', 'eager', null],
        ['/media/b2.webp', 'eager', null],
        ['/media/c1.webp', 'eager', null],
        ['/media/c2.webp', 'eager', null],
        ['/media/d1.webp', 'lazy', null],
        ['/media/d2.webp', 'lazy', null],
      ],
    ],
    [
      'puts ahead the first pictures of the first screen even below cards without any',
      [withoutPictures('a'), withoutPictures('b'), withPictures('c'), withPictures('d')],
      [
        ['/media/c1.webp', 'eager', 'high'],
        ['/media/c2.webp', 'eager', null],
        ['/media/d1.webp', 'lazy', null],
        ['/media/d2.webp', 'lazy', null],
      ],
    ],
  ])('%s', (_name, posts, expected) => {
    mockFetch(() => ({ body: {} }));
    const { container } = renderWithApp(<PostList posts={posts} hasMore={false} loading={false} onMore={() => {}} />);
    expect(pictures(container)).toEqual(expected);
  });
});

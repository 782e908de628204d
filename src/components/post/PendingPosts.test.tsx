import '../../test/setup';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearLocalData } from '../../lib/db/db';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { queuePost } from '../../lib/outbox/kinds/post';
import { storeSession } from '../../lib/session';
import { mockFetch, setOnline, useCloneableBlobs } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import { ListingPosts } from './PostList';

const pending = (text: string, groups: Array<{ query: string; id: string | null }> = []) =>
  queuePost({ text, mentions: [], groups, replyingTo: null, images: [] });

beforeEach(async () => {
  useCloneableBlobs();
  setOnline(false);
  storeSession('t1', 'alice', 'u1');
  await clearLocalData();
  mockFetch(() => ({ body: { posts: [], hasMore: false } }));
  await pending('to nobody in particular');
  await pending('to the cats', [{ query: 'Cats', id: 'g1' }]);
  await pending('to the dogs', [{ query: 'dogs', id: 'g2' }]);
  await pending('to a group picked by name only', [{ query: 'cats', id: null }]);
});
afterEach(() => cancelScheduledSend());

describe('posts waiting in the outbox on the pages they belong to', () => {
  it("shows all of them, newest first, on the author's own profile", async () => {
    renderWithApp(<ListingPosts source={{ profile: 'Alice' }} emptyLabel="none" />);
    await screen.findByText('to nobody in particular');
    const texts = screen.getAllByRole('article').map((article) => /to (?:nobody|the|a group)[a-z ]*/.exec(article.textContent ?? '')?.[0]);
    expect(texts).toEqual(['to a group picked by name only', 'to the dogs', 'to the cats', 'to nobody in particular']);
    for (const article of screen.getAllByRole('article')) expect(within(article).getByRole('status')).toHaveTextContent('Waiting to send');
  });

  it("shows none on someone else's profile", async () => {
    renderWithApp(<ListingPosts source={{ profile: 'bob' }} emptyLabel="none" />);
    await screen.findByText('none');
    expect(screen.queryByText(/to the cats/)).toBeNull();
  });

  it('shows on a group page those tagged with the group, by id or by name', async () => {
    renderWithApp(<ListingPosts source={{ group: 'cats', groupId: 'g1' }} emptyLabel="none" />);
    await screen.findByText('to the cats');
    expect(screen.getByText('to a group picked by name only')).toBeInTheDocument();
    expect(screen.queryByText('to the dogs')).toBeNull();
    expect(screen.queryByText('to nobody in particular')).toBeNull();
  });
});

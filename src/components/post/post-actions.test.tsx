import '../../test/setup';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Post } from '../../lib/api/types';
import { apiPost, mockFetch, setUpLocalFirst, startOffline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import { PostCard } from './PostCard';

const post = apiPost('p1', { text: 'Hello', author: { username: 'alice', pfp: 'u1' }, likes: 2, comments: 3 }) as Post;

setUpLocalFirst(() => startOffline('me', 'u9'));

describe('the action bar of a post', () => {
  it('draws icons with names, no button holding visible text that its name does not say', () => {
    mockFetch(() => ({ body: {} }));
    const { container } = renderWithApp(<PostCard post={post} />);
    const bar = container.querySelector('.post-actions') as HTMLElement;

    // Like: named by its action alone, its count a sibling showing the number and saying the phrase.
    const like = within(bar).getByRole('button', { name: 'Like' });
    expect(like.textContent).toBe('');
    expect(like.querySelector('svg[data-icon="like"]')).not.toBeNull();
    const count = like.nextElementSibling as HTMLElement;
    expect(count.querySelector('[aria-hidden="true"]')).toHaveTextContent(/^2$/);
    expect(count.querySelector('.visually-hidden')).toHaveTextContent('2 likes');

    // Comments: a link whose name ("3 comments") contains the number it shows.
    const comments = within(bar).getByRole('link', { name: '3 comments' });
    expect(comments).toHaveAttribute('href', '/p/p1');
    expect(comments.querySelector('svg[data-icon="comment"]')).not.toBeNull();

    for (const name of ['Share', 'More actions']) {
      const button = within(bar).getByRole('button', { name });
      expect(button.textContent).toBe('');
      expect(button.querySelector('svg')).not.toBeNull();
    }
  });

  it('speaks Czech', () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={post} />, { lng: 'cs' });
    expect(screen.getByRole('link', { name: '3 komentáře' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sdílet' })).toBeInTheDocument();
  });
});

import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiPost, mockFetch, setUpLocalFirst, startOffline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import type { Post } from '../../lib/api/types';
import { PostCard } from './PostCard';

const post = (extra: Partial<Post> = {}) =>
  apiPost('p1', {
    text: 'The garden at night',
    author: { username: 'alice', pfp: 'u1' },
    images: 2,
    media: ['/media/p10.webp?v=1', '/media/p11.webp?v=1'],
    ...extra,
  }) as Post;

setUpLocalFirst(() => startOffline('me', 'u9'));
beforeEach(() => {
  mockFetch(() => ({ body: {} }));
});

describe('image descriptions on the card', () => {
  it('names each image by its description, else by its place, and shows the description in the gallery', async () => {
    renderWithApp(<PostCard post={post({ alts: ['A red kite over the field', ''] })} />);
    expect(screen.getByRole('img', { name: 'A red kite over the field' })).toHaveAttribute('src', '/media/p10.webp?v=1');
    expect(screen.getByRole('img', { name: 'Image 2 of the post' })).toHaveAttribute('src', '/media/p11.webp?v=1');
    expect(screen.queryByRole('img', { name: 'Image 1 of the post' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'A red kite over the field' }));
    await waitFor(() => expect(document.querySelector('.yarl__root')).not.toBeNull(), { timeout: 5000 });
    const root = document.querySelector('.yarl__root') as HTMLElement;
    await waitFor(() => expect(root.querySelector('.yarl__slide_description')).toHaveTextContent('A red kite over the field'));
    expect(root.querySelector('img[alt="A red kite over the field"]')).not.toBeNull();
  });

  it('keeps the generic names for a post cached before descriptions existed', () => {
    const old = post();
    delete (old as Partial<Post>).alts;
    renderWithApp(<PostCard post={old} />);
    expect(screen.getByRole('img', { name: 'Image 1 of the post' })).toBeInTheDocument();
  });
});

describe('content warning on the card', () => {
  it('shows the warning, hides the text and images until asked, and hides them again', () => {
    renderWithApp(<PostCard post={post({ contentWarning: 'Spiders', alts: ['A spider', ''] })} />);
    expect(screen.getByText('Spiders')).toBeInTheDocument();
    expect(screen.queryByText('The garden at night')).toBeNull();
    expect(screen.queryAllByRole('img', { name: /spider|Image 2/i })).toHaveLength(0);
    const show = screen.getByRole('button', { name: 'Show the post behind the warning: Spiders' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    expect(show).toHaveTextContent('Show');
    expect(document.getElementById(show.getAttribute('aria-controls')!)).not.toBeNull();

    fireEvent.click(show);
    const hide = screen.getByRole('button', { name: 'Hide the post behind the warning: Spiders' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    expect(hide).toHaveTextContent('Hide');
    expect(screen.getByText('The garden at night')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'A spider' })).toBeInTheDocument();
    expect(document.getElementById(hide.getAttribute('aria-controls')!)).toContainElement(screen.getByText('The garden at night'));

    fireEvent.click(hide);
    expect(screen.queryByText('The garden at night')).toBeNull();
    expect(screen.getByRole('button', { name: /Show the post/ })).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows a post without a warning straight away', () => {
    renderWithApp(<PostCard post={post({ contentWarning: null })} />);
    expect(screen.getByText('The garden at night')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Show the post/ })).toBeNull();
  });
});

import '../../test/setup';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Post } from '../../lib/api/types';
import { remoteNameOf, webUrlOf } from '#core/remote-names';
import { apiPost, mockFetch, setUpLocalFirst, startOffline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import type { Slot } from '../../lib/db/db';
import { UserRow } from '../EntityRow';
import { SlotInput } from '../SlotInput';
import { PostCard } from '../post/PostCard';

setUpLocalFirst(() => startOffline('me', 'u9'));

const remotePost = (remote: Post['remote']) =>
  apiPost('p1', { text: 'From afar', author: { username: 'bob@other.example', pfp: 'u2' }, createdAt: Date.now(), remote }) as Post;

describe('remote accounts and posts', () => {
  it('splits a remote name into its name and server, and leaves a local name alone', () => {
    expect(remoteNameOf('bob@other.example')).toEqual({ name: 'bob', host: 'other.example' });
    expect(remoteNameOf('alice')).toBeNull();
    expect(webUrlOf('https://other.example/@bob/1')).toBe('https://other.example/@bob/1');
    expect(webUrlOf('javascript:alert(1)')).toBeNull();
  });

  it("shows a remote post's server after its author and links its original in a new tab", () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={remotePost({ host: 'other.example', url: 'https://other.example/@bob/1' })} />);
    const author = screen.getByRole('link', { name: 'bob on other.example' });
    expect(author).toHaveAttribute('href', '/u/bob%40other.example');
    const original = screen.getByRole('link', { name: 'Open the original on other.example (in a new tab)' });
    expect(original).toHaveTextContent('Open original');
    expect(original).toHaveAttribute('href', 'https://other.example/@bob/1');
    expect(original).toHaveAttribute('target', '_blank');
    expect(original).toHaveAttribute('rel', 'noopener nofollow ugc');
  });

  it('offers no original for a local post, nor one whose address is no web page', () => {
    mockFetch(() => ({ body: {} }));
    const local = apiPost('p2', { text: 'Here', author: { username: 'alice', pfp: 'u1' }, createdAt: Date.now(), remote: null }) as Post;
    const { unmount } = renderWithApp(<PostCard post={local} />);
    expect(screen.getByRole('link', { name: 'alice' })).toBeInTheDocument();
    expect(screen.queryByText(/^on /)).toBeNull();
    expect(screen.queryByText('Open original')).toBeNull();
    unmount();
    renderWithApp(<PostCard post={remotePost({ host: 'other.example', url: 'javascript:alert(1)' })} />);
    expect(screen.getByText('on other.example')).toBeInTheDocument();
    expect(screen.queryByText('Open original')).toBeNull();
  });

  it('says which community passed a remote post on, linking its profile, and nothing for another post', () => {
    mockFetch(() => ({ body: {} }));
    const shared = { ...remotePost({ host: 'other.example', url: null }), sharedBy: { _id: 'c1', username: 'garden@lemmy.example' } };
    const { unmount } = renderWithApp(<PostCard post={shared} />);
    const community = screen.getByRole('link', { name: 'garden on lemmy.example' });
    expect(community).toHaveAttribute('href', '/u/garden%40lemmy.example');
    expect(community.closest('.post-shared')).toHaveTextContent('Shared by garden on lemmy.example');
    unmount();
    renderWithApp(<PostCard post={remotePost({ host: 'other.example', url: null })} />);
    expect(screen.queryByText(/Shared by/)).toBeNull();
  });

  it('labels a remote person in a list with their server, in Czech too', () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(
      <ul>
        <li>
          <UserRow user={{ username: 'bob@other.example', pfp: 'u2' }} />
        </li>
      </ul>,
      { lng: 'cs' },
    );
    const row = screen.getByRole('link');
    expect(row).toHaveAttribute('href', '/u/bob%40other.example');
    expect(within(row).getByText('na other.example')).toHaveClass('remote-host');
  });

  it("links a post's tag of a community of another server to the community's profile, with its server", () => {
    mockFetch(() => ({ body: {} }));
    const inCommunity = apiPost('p3', { text: 'Seeds to swap', groups: [{ _id: null, name: 'seeds@lemmy.example' }, { _id: null, name: 'gone' }] }) as Post;
    renderWithApp(<PostCard post={inCommunity} />);
    const community = screen.getByRole('link', { name: '&seeds on lemmy.example' });
    expect(community).toHaveAttribute('href', '/u/seeds%40lemmy.example');
    // A tag naming no group, of no other server, stays plain text.
    expect(screen.queryByRole('link', { name: '&gone' })).toBeNull();
  });

  it('offers a followed community in a group slot as its name on its server, and picks it by its account', async () => {
    mockFetch((call) => (call.path === '/api/search/mygroups' ? { body: [{ _id: 'c1', name: 'seeds@lemmy.example' }] } : { status: 404, body: { message: 'error/not_found' } }));
    const picked = vi.fn();
    function GroupSlot() {
      const [slot, setSlot] = useState<Slot>({ query: '', id: null });
      return (
        <SlotInput
          kind="group"
          slot={slot}
          onChange={(next) => {
            setSlot(next);
            picked(next);
          }}
          onRemove={() => {}}
        />
      );
    }
    const user = userEvent.setup();
    renderWithApp(<GroupSlot />);
    await user.type(screen.getByRole('combobox', { name: 'Group name' }), 'see');
    const list = await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 2000 });
    const [option] = within(list).getAllByRole('option');
    expect(option).toHaveTextContent('&seeds on lemmy.example');
    await user.click(option!);
    expect(picked).toHaveBeenLastCalledWith({ query: 'seeds@lemmy.example', id: 'c1' });
  });
});

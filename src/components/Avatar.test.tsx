import '../test/setup';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { clearLocalData, getDb } from '../lib/db/db';
import { avatarVersion } from '../lib/own-avatar';
import { ACCOUNT_META_KEY } from '../lib/stored-account';
import { storeSession } from '../lib/session';
import { Avatar, avatarUrl } from './Avatar';

describe('avatar URLs', () => {
  it('uses the versioned URL the server gave, else the plain address, else the default picture', () => {
    expect(avatarUrl('pfp', 'u1', '/media/pfp/u1.jpeg?v=7')).toBe('/media/pfp/u1.jpeg?v=7');
    expect(avatarUrl('gp', 'g1', '/media/gp/g1.jpeg?v=9')).toBe('/media/gp/g1.jpeg?v=9');
    expect(avatarUrl('pfp', 'u1')).toBe('/media/pfp/u1.jpeg');
    expect(avatarUrl('gp', 'g1', null)).toBe('/media/gp/g1.jpeg');
    expect(avatarUrl('pfp', null)).toBe('/media/pfp/default.jpeg');
  });

  it('renders the versioned URL and falls back to the default picture when it fails', () => {
    render(<Avatar id="u1" url="/media/pfp/u1.jpeg?v=7" alt="alice" />);
    const img = screen.getByRole('img', { name: 'alice' });
    expect(img).toHaveAttribute('src', '/media/pfp/u1.jpeg?v=7');
    fireEvent.error(img);
    expect(img).toHaveAttribute('src', '/media/pfp/default.jpeg');
  });
});

describe("the signed-in user's own avatar", () => {
  const storedPfp = (pfpUrl: string) => getDb().meta.put({ key: ACCOUNT_META_KEY, value: { _id: 'u1', pfp: 'u1', pfpUrl } });
  const srcOf = (name: string) => screen.getByRole('img', { name }).getAttribute('src');

  it('shows the newest picture known, a new upload at once, and leaves other avatars alone', async () => {
    storeSession('t1', 'alice', 'u1');
    await clearLocalData();
    await storedPfp('/media/pfp/u1.jpeg?v=5');
    render(
      <>
        <Avatar id="u1" url="/media/pfp/u1.jpeg?v=3" alt="old copy" />
        <Avatar id="u1" url="/media/pfp/u1.jpeg?v=9" alt="newer copy" />
        <Avatar id="u1" alt="no version" />
        <Avatar id="u2" url="/media/pfp/u2.jpeg?v=1" alt="someone else" />
        <Avatar kind="gp" id="u1" url="/media/gp/u1.jpeg?v=1" alt="a group" />
      </>,
    );
    await waitFor(() => expect(srcOf('old copy')).toBe('/media/pfp/u1.jpeg?v=5'));
    expect(srcOf('newer copy')).toBe('/media/pfp/u1.jpeg?v=9');
    expect(srcOf('no version')).toBe('/media/pfp/u1.jpeg?v=5');
    expect(srcOf('someone else')).toBe('/media/pfp/u2.jpeg?v=1');
    expect(srcOf('a group')).toBe('/media/gp/u1.jpeg?v=1');

    // A new upload stores its URL in the account: every own avatar follows.
    await storedPfp('/media/pfp/u1.jpeg?v=12');
    await waitFor(() => expect(srcOf('old copy')).toBe('/media/pfp/u1.jpeg?v=12'));
    expect(srcOf('newer copy')).toBe('/media/pfp/u1.jpeg?v=12');
  });

  it('reads versions from the address', () => {
    expect(avatarVersion('/media/pfp/u1.jpeg?v=42')).toBe(42);
    expect(avatarVersion('/media/pfp/u1.jpeg?exp=1&v=7&sig=x')).toBe(7);
    expect(avatarVersion('/media/pfp/u1.jpeg')).toBe(0);
    expect(avatarVersion(undefined)).toBe(0);
  });
});

import '../test/setup';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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

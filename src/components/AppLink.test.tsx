import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render';
import { AppLink } from './AppLink';

describe('AppLink', () => {
  it('does nothing when the link points at the page already showing', () => {
    const { router } = renderWithApp(<AppLink to="/feed">Feed</AppLink>, { route: '/feed' });
    const link = screen.getByRole('link', { name: 'Feed' });
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(router.state.historyAction).toBe('POP');
  });

  it('navigates to another page', () => {
    const { router } = renderWithApp(<AppLink to="/search?q=x">Search</AppLink>, { route: '/feed' });
    fireEvent.click(screen.getByRole('link', { name: 'Search' }));
    expect(router.state.location.pathname).toBe('/search');
    expect(router.state.historyAction).toBe('PUSH');
  });

  it.each([
    ['ctrl', { ctrlKey: true }],
    ['meta', { metaKey: true }],
    ['middle', { button: 1 }],
  ])('leaves a %s click to the browser (new tab)', (_name, init) => {
    const { router } = renderWithApp(<AppLink to="/p/1">Post</AppLink>, { route: '/feed' });
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
    screen.getByRole('link', { name: 'Post' }).dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(router.state.location.pathname).toBe('/feed');
  });
});

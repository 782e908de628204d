import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { getDb } from '../lib/db/db';
import { apiGroup, apiPost, apiProfile, mockFetch, startOnline } from '../test/local-first';
import { renderWithApp } from '../test/render';
import { AppLink } from './AppLink';
import { GroupRow, UserRow } from './EntityRow';

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

  it.each([
    ['a user row', <UserRow user={{ username: 'bob', pfp: 'u2' }} />, '/u/bob', 'bob'],
    ['a group row', <GroupRow group={{ name: 'cats', gp: 'g1' }} />, '/g/cats', 'cats'],
  ])('makes %s to the page already showing do nothing', (_what, ui, route, name) => {
    const { router } = renderWithApp(ui, { route });
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    screen.getByRole('link', { name }).dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(router.state.historyAction).toBe('POP');
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it.each([
    ['a post', '/p/p1', '/api/post/p1', apiPost('p1'), async () => getDb().posts.get('p1')],
    ['a profile', '/u/bob', '/api/profile/user/bob', { user: apiProfile('u2', 'bob') }, async () => getDb().profiles.get('bob')],
    ['a group', '/g/birds', '/api/group/birds', { group: apiGroup('g1') }, async () => getDb().groups.get('birds')],
  ])('fetches %s into the local database after a hover of a moment, not on a pass', async (_what, to, path, body, stored) => {
    await startOnline();
    const { calls } = mockFetch((call) => (call.path === path ? { body } : { status: 404 }));
    renderWithApp(<AppLink to={to}>open</AppLink>, { route: '/feed' });
    const link = screen.getByRole('link', { name: 'open' });
    fireEvent.mouseEnter(link);
    await sleep(LIMITS.prefetchDelayMs / 2);
    fireEvent.mouseLeave(link);
    await sleep(LIMITS.prefetchDelayMs);
    expect(calls).toHaveLength(0);

    fireEvent.mouseEnter(link);
    await waitFor(async () => expect(await stored()).toBeDefined());
    expect(calls.map((c) => c.path)).toEqual([path]);
  });
});

import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/render';
import { AppLink } from './AppLink';
import { PageHeader } from './PageHeader';

const routes = [
  { path: '/feed', element: <p>feed page</p> },
  {
    path: '/list',
    element: (
      <>
        <p>list page</p>
        <AppLink to="/item">open item</AppLink>
      </>
    ),
  },
  { path: '/item', element: <PageHeader title="The item" heading fallback="/list" /> },
  { path: '/other', element: <PageHeader title="Other" /> },
];

describe('PageHeader', () => {
  it('goes back to the page of the app the user came from', async () => {
    const { router } = renderRoutes(routes, { route: '/list' });
    fireEvent.click(await screen.findByRole('link', { name: 'open item' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'The item' })).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Back' })));
    expect(await screen.findByText('list page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/list');
    expect(router.state.historyAction).toBe('POP');
  });

  it('opened first (a shared link, an installed app), goes to its fallback, by default the feed', async () => {
    const first = renderRoutes(routes, { route: '/item' });
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Back' })));
    expect(first.router.state.location.pathname).toBe('/list');
    first.unmount();

    const other = renderRoutes(routes, { route: '/other', lng: 'cs' });
    // The title alone is no heading: such a page has its own.
    expect(screen.queryByRole('heading', { name: 'Other' })).toBeNull();
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Zpět' })));
    expect(await screen.findByText('feed page')).toBeInTheDocument();
    expect(other.router.state.location.pathname).toBe('/feed');
  });
});

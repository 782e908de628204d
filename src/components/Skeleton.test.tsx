import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InfiniteList } from './InfiniteList';

const list = (items: string[], loading: boolean) => (
  <InfiniteList
    items={items}
    keyOf={(s) => s}
    renderItem={(s) => <p>{s}</p>}
    hasMore={false}
    loading={loading}
    onMore={() => undefined}
    loadingLabel="Loading posts…"
    moreLabel="More"
    skeleton="post"
  />
);

describe('list placeholders', () => {
  it('stand in for the first page, busy and spoken as loading, and go when the items come', () => {
    const { container, rerender } = render(list([], true));
    expect(screen.getByRole('status')).toHaveTextContent('Loading posts…');
    const busy = container.querySelector('[aria-busy="true"]');
    expect(busy).toHaveAttribute('data-skeleton', 'post');
    expect(busy?.querySelectorAll('.skeleton-item--post')).toHaveLength(3);

    rerender(list(['first'], true));
    // A next page is a line under the items, not placeholders over them.
    expect(container.querySelector('[aria-busy="true"]')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Loading posts…');

    rerender(list(['first'], false));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('first')).toBeInTheDocument();
  });
});

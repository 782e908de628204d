import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render';
import { COMPACT_QUERY, ListingControls } from './ListingControls';

function screenWidth(matchesCompact: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === COMPACT_QUERY && matchesCompact,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

const timeOptions = () =>
  within(screen.getByRole('combobox', { name: 'Time' }))
    .getAllByRole('option')
    .map((o) => o.textContent);

afterEach(() => vi.unstubAllGlobals());

describe('ListingControls', () => {
  it('names the time windows "Today", "This week"... on a wide screen', () => {
    screenWidth(false);
    renderWithApp(<ListingControls sort="popular" time="week" onChange={() => undefined} />);
    expect(timeOptions()).toEqual(['Today', 'This week', 'This month', 'This year', 'All time']);
  });

  it('uses the plain labels on a phone, in both languages', () => {
    screenWidth(true);
    const en = renderWithApp(<ListingControls sort="popular" time="week" onChange={() => undefined} />);
    expect(timeOptions()).toEqual(['Day', 'Week', 'Month', 'Year', 'All time']);
    en.unmount();
    renderWithApp(<ListingControls sort="popular" time="week" onChange={() => undefined} />, { lng: 'cs' });
    expect(within(screen.getByRole('combobox', { name: 'Období' })).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Den', 'Týden', 'Měsíc', 'Rok', 'Celá doba',
    ]);
  });

  it('offers no time window for the newest sort', () => {
    screenWidth(false);
    renderWithApp(<ListingControls sort="newest" time="all" onChange={() => undefined} />);
    expect(screen.queryByRole('combobox', { name: 'Time' })).not.toBeInTheDocument();
  });
});

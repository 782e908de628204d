import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '#core/limits';
import { renderWithApp } from '../test/render';
import { RelativeTime } from './RelativeTime';
import { Tooltip } from './Tooltip';

/** The hover delay counted on a fake clock: on a busy machine real sleeps overrun it. */
const pass = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('Tooltip', () => {
  afterEach(() => vi.useRealTimers());

  it('shows an icon button\u2019s label after the hover delay, describing the button, and hides when left', async () => {
    renderWithApp(
      <Tooltip label="Delete">
        <button type="button" aria-label="Delete">×</button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    vi.useFakeTimers();
    fireEvent.mouseEnter(button);
    pass(LIMITS.tooltipDelayMs - 150);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    pass(150);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Delete');
    expect(button).toHaveAccessibleDescription('Delete');
    fireEvent.mouseLeave(button);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('does not show for a pointer only passing over, and Escape hides it', async () => {
    renderWithApp(
      <Tooltip label="Search">
        <button type="button" aria-label="Search">?</button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'Search' });
    vi.useFakeTimers();
    fireEvent.mouseEnter(button);
    pass(100);
    fireEvent.mouseLeave(button);
    pass(LIMITS.tooltipDelayMs);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    fireEvent.focus(button);
    pass(LIMITS.tooltipDelayMs);
    expect(screen.getByRole('tooltip')).toBeInTheDocument();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('gives a relative time its full date', async () => {
    const time = Date.UTC(2026, 0, 10, 12, 30);
    renderWithApp(<RelativeTime time={time} />);
    fireEvent.mouseEnter(document.querySelector('time')!);
    expect(await screen.findByRole('tooltip', {}, { timeout: 1000 })).toHaveTextContent(new Date(time).toLocaleString('en'));
  });
});

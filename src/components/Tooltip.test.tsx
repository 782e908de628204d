import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { renderWithApp } from '../test/render';
import { RelativeTime } from './RelativeTime';
import { Tooltip } from './Tooltip';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Tooltip', () => {
  it('shows an icon button\u2019s label after the hover delay, describing the button, and hides when left', async () => {
    renderWithApp(
      <Tooltip label="Delete">
        <button type="button" aria-label="Delete">×</button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    fireEvent.mouseEnter(button);
    await sleep(LIMITS.tooltipDelayMs - 150);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    expect(await screen.findByRole('tooltip', {}, { timeout: 1000 })).toHaveTextContent('Delete');
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
    fireEvent.mouseEnter(button);
    await sleep(100);
    fireEvent.mouseLeave(button);
    await sleep(LIMITS.tooltipDelayMs);
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    fireEvent.focus(button);
    expect(await screen.findByRole('tooltip', {}, { timeout: 1000 })).toBeInTheDocument();
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

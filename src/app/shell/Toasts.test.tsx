import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { getToasts, toast } from '../../lib/toast';
import { Toasts } from './Toasts';

function renderToasts(lng: 'en' | 'cs' = 'en') {
  return render(
    <I18nextProvider i18n={createI18n({ lng })}>
      <Toasts />
    </I18nextProvider>,
  );
}

describe('Toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('slides in, stays about 3 s, slides out over 1 s, then goes', () => {
    renderToasts();
    act(() => {
      toast.info('info/post_pinned');
    });
    const shown = screen.getByRole('status');
    expect(shown).toHaveTextContent('The post was pinned.');
    expect(shown).toHaveClass('toast', 'toast--info');
    expect(shown).not.toHaveClass('toast--leaving');

    act(() => vi.advanceTimersByTime(3999));
    expect(shown).not.toHaveClass('toast--leaving');
    act(() => vi.advanceTimersByTime(1));
    expect(shown).toHaveClass('toast--leaving');

    act(() => vi.advanceTimersByTime(999));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(getToasts()).toHaveLength(0);
  });

  it('shows errors in red as alerts, translated into the chosen language', () => {
    renderToasts('cs');
    act(() => {
      toast.error('error/comment_limit');
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveClass('toast--error');
    expect(alert).toHaveTextContent('Za půl hodiny můžete napsat nejvýše 60 komentářů.');
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('stacks several toasts', () => {
    renderToasts();
    act(() => {
      toast.info('info/followed');
      toast.error('error/server_error');
    });
    expect(screen.getByRole('status')).toHaveTextContent('You now follow this user.');
    expect(screen.getByRole('alert')).toHaveTextContent(/server/);
    act(() => vi.advanceTimersByTime(5000));
  });
});

import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { setUpdateAvailable } from '../pwa-state';
import { UpdatePrompt } from './UpdatePrompt';

describe('UpdatePrompt', () => {
  it('appears when a new version waits, reloads into it on request, and can be put off', () => {
    render(
      <I18nextProvider i18n={createI18n({ lng: 'cs' })}>
        <UpdatePrompt />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    const activate = vi.fn();
    act(() => setUpdateAvailable(activate));
    expect(screen.getByRole('alert')).toHaveTextContent('Je k dispozici nová verze Kruhu.');
    fireEvent.click(screen.getByRole('button', { name: 'Načíst znovu' }));
    expect(activate).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Později' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

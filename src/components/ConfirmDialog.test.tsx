import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render';
import { ConfirmDialog } from './ConfirmDialog';

describe('ConfirmDialog', () => {
  it('asks the whole question with the shared title and buttons, the safe one focused', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    renderWithApp(<ConfirmDialog question="Do you really want to delete this post?" onConfirm={onConfirm} onCancel={onCancel} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    expect(dialog).toHaveTextContent('Do you really want to delete this post?');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('has grammatical Czech questions per item', () => {
    const { i18n } = renderWithApp(<p />, { lng: 'cs' });
    const t = i18n.getFixedT('cs', 'common');
    expect(t('conf.title')).toBe('Jste si jisti?');
    expect(t('conf.delete_post')).toBe('Opravdu chcete smazat tento příspěvek?');
    expect(t('conf.delete_comment')).toBe('Opravdu chcete smazat tento komentář?');
    expect(t('conf.delete_group')).toBe('Opravdu chcete smazat tuto skupinu?');
    expect(t('conf.delete_account')).toBe('Opravdu chcete smazat tento účet?');
    expect([t('conf.cancel'), t('conf.yes')]).toEqual(['Zrušit', 'Ano']);
  });
});

import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Opener } from '../test/opener';
import { renderWithApp } from '../test/render';
import { ConfirmDialog, deleteAction, deleteQuestion } from './ConfirmDialog';

describe('ConfirmDialog', () => {
  it('asks the whole question as its title, the safe button focused and the other naming the act', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    renderWithApp(<ConfirmDialog question="Do you really want to delete this post?" action="Delete post" onConfirm={onConfirm} onCancel={onCancel} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Do you really want to delete this post?' });
    expect(within(dialog).getByRole('heading', { name: 'Do you really want to delete this post?' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(within(dialog).queryByRole('button', { name: 'Yes' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete post' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('keeps Tab between its buttons and gives the focus back to the button that opened it', () => {
    renderWithApp(<Opener label="Delete">{(close) => <ConfirmDialog question="Really?" action="Delete" onConfirm={close} onCancel={close} />}</Opener>);
    const opener = screen.getByRole('button', { name: 'Delete' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('alertdialog');
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    const yes = within(dialog).getByRole('button', { name: 'Delete' });
    expect(cancel).toHaveFocus();
    fireEvent.keyDown(cancel, { key: 'Tab', shiftKey: true });
    expect(yes).toHaveFocus();
    fireEvent.keyDown(yes, { key: 'Tab' });
    expect(cancel).toHaveFocus();
    fireEvent.click(cancel);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('builds a delete question from conf.delete, the item word and a question mark', () => {
    const { i18n } = renderWithApp(<p />);
    const en = i18n.getFixedT('en', 'common');
    expect(deleteQuestion(en, 'post')).toBe('Do you really want to delete this post?');
    expect(deleteQuestion(en, 'account')).toBe('Do you really want to delete this account?');
    expect(deleteAction(en, 'post')).toBe('Delete post');
  });

  it('has grammatical Czech questions per item', () => {
    const { i18n } = renderWithApp(<p />, { lng: 'cs' });
    const t = i18n.getFixedT('cs', 'common');
    expect(deleteQuestion(t, 'post')).toBe('Opravdu chcete smazat tento příspěvek?');
    expect(deleteQuestion(t, 'comment')).toBe('Opravdu chcete smazat tento komentář?');
    expect(deleteQuestion(t, 'group')).toBe('Opravdu chcete smazat tuto skupinu?');
    expect(deleteQuestion(t, 'account')).toBe('Opravdu chcete smazat tento účet?');
    expect([t('conf.cancel'), deleteAction(t, 'post'), t('conf.ban_action', { username: 'bob' })]).toEqual(['Zrušit', 'Smazat příspěvek', 'Zablokovat bob']);
  });
});

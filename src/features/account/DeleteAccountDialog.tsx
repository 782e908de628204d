import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Overlay } from '../../components/Overlay';
import { deleteQuestion } from '../../components/ConfirmDialog';
import { FormField, PasswordField } from '../../components/FormField';
import { errorMessageOf } from '../../lib/api/client';
import { useSubmit } from '../../lib/forms';
import { translateMessage } from '../../lib/i18n';
import { type StoredAccount, deleteAccount } from './account.api';
import { DataExportButton, useDataExport } from './DataExport';
import '../../components/ConfirmDialog.css';
import '../../components/danger-button.css';
import '../../components/FormField.css';

/** What goes with the account, in the order the dialog lists it (keys under delete.lost). */
const LOST = ['profile', 'social', 'groups', 'private', 'content'] as const;

/**
 * The account delete: says what goes, offers the download of the account's data first, and asks
 * for the password, or for an account without one (signed up with Google) the username typed
 * out, as the server does. `onDeleted` runs once the server deleted the account.
 */
export function DeleteAccountDialog({ account, onCancel, onDeleted }: { account: StoredAccount; onCancel: () => void; onDeleted: () => void }) {
  const { t } = useTranslation(['account', 'common']);
  const exporter = useDataExport();
  const [proof, setProof] = useState('');
  const { error, setError, busy, submit } = useSubmit(errorMessageOf, { leaves: true });
  const byName = account.isGoogle;
  const form = useRef<HTMLFormElement>(null);

  // A refusal shows under the field, just above the buttons at the dialog's foot: brought into view
  // (clear of the buttons, by its scroll margin) so the reason and what to do next show together.
  useEffect(() => {
    if (error) form.current?.querySelector('.field__error')?.scrollIntoView({ block: 'nearest' });
  }, [error]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(null, async () => {
      await deleteAccount(byName ? { username: proof } : { password: proof });
      onDeleted();
    });
  };

  const field = {
    value: proof,
    required: true,
    // Enter in the empty field deletes nothing: the delete button waits for a proof.
    autoFocus: true,
    error: error ? translateMessage(t, error) : null,
    onChange: (event: { target: { value: string } }) => {
      setProof(event.target.value);
      setError(null);
    },
  };
  return (
    <Overlay label={t('delete.title')} onClose={onCancel} className="confirm delete-account" role="alertdialog">
      <form ref={form} onSubmit={onSubmit}>
        <h2 className="confirm__title">{t('delete.title')}</h2>
        <p className="confirm__text">{deleteQuestion(t, 'account')}</p>
        <p className="confirm__detail">{t('delete.lostIntro')}</p>
        <ul className="confirm__detail delete-account__lost">
          {LOST.map((item) => (
            <li key={item}>{t(`delete.lost.${item}`)}</li>
          ))}
        </ul>
        <div className="delete-account__export">
          <p className="confirm__detail">{t('delete.exportFirst')}</p>
          <DataExportButton exporter={exporter} />
        </div>
        {byName ? (
          <FormField label={t('delete.username', { username: account.username })} autoComplete="off" autoCapitalize="none" {...field} />
        ) : (
          <PasswordField purpose="current" label={t('delete.password')} {...field} />
        )}
        <div className="confirm__actions">
          <button type="button" className="button" onClick={onCancel}>
            {t('common:conf.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={busy || !proof.trim()}>
            {t('delete.confirm')}
          </button>
        </div>
      </form>
    </Overlay>
  );
}

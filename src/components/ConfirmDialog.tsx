import { useTranslation } from 'react-i18next';
import type { AnyNamespaceT } from '../lib/i18n';
import { Overlay } from './Overlay';
import './ConfirmDialog.css';
import './danger-button.css';

interface ConfirmDialogProps {
  /** The whole translated question, the dialog's title: `deleteQuestion(t, 'post')` for a delete. */
  question: string;
  /** An optional line under the question saying what follows. */
  detail?: string;
  /** The confirming button, naming what it does: "Delete post", "Ban bob" (`deleteAction` for a delete). */
  action: string;
  onConfirm: () => void;
  /** Cancel, Escape or a click outside: closes with no call. */
  onCancel: () => void;
}

export type DeletedItem = 'post' | 'comment' | 'group' | 'account';

/**
 * The question of a delete: conf.delete, the item's word, a question mark. Each item word carries
 * its own demonstrative, so the grammar holds in every language (Czech "tento příspěvek", "tuto
 * skupinu").
 */
export const deleteQuestion = (t: AnyNamespaceT, item: DeletedItem): string =>
  `${t('conf.delete', { ns: 'common' })} ${t(`conf.item.${item}`, { ns: 'common' })}?`;

/** The button that deletes the item: "Delete post". */
export const deleteAction = (t: AnyNamespaceT, item: DeletedItem): string => t(`conf.delete_action.${item}`, { ns: 'common' });

/**
 * The one confirmation for every delete, removal, ban and block: the question as its title, what
 * follows, and two buttons, Cancel and the one naming the act ("Delete post"), so the choice reads
 * without the question above it.
 */
export function ConfirmDialog({ question, detail, action, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation('common');
  return (
    <Overlay label={question} onClose={onCancel} className="confirm" role="alertdialog">
      <h2 className="confirm__title">{question}</h2>
      {detail ? <p className="confirm__detail">{detail}</p> : null}
      <div className="confirm__actions">
        {/* The safe choice has the focus: Enter right after opening does not delete. */}
        <button type="button" className="button" onClick={onCancel} autoFocus>
          {t('conf.cancel')}
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {action}
        </button>
      </div>
    </Overlay>
  );
}

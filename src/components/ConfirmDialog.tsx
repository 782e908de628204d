import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Overlay } from './Overlay';
import './ConfirmDialog.css';
import './danger-button.css';

interface ConfirmDialogProps {
  /** The whole translated question: `deleteQuestion(t, 'post')` for a delete. */
  question: string;
  /** An optional line under the question saying what follows. */
  detail?: string;
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
export const deleteQuestion = (t: TFunction, item: DeletedItem): string =>
  `${t('common:conf.delete')} ${t(`common:conf.item.${item}`)}?`;

/**
 * The one confirmation for every delete (post, comment, group, account) and
 * removal: title conf.title, the question, buttons conf.cancel and conf.yes.
 */
export function ConfirmDialog({ question, detail, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation('common');
  const title = t('conf.title');
  return (
    <Overlay label={title} onClose={onCancel} className="confirm" role="alertdialog">
      <h2 className="confirm__title">{title}</h2>
      <p className="confirm__text">{question}</p>
      {detail ? <p className="confirm__detail">{detail}</p> : null}
      <div className="confirm__actions">
        {/* The safe choice has the focus: Enter right after opening does not delete. */}
        <button type="button" className="button" onClick={onCancel} autoFocus>
          {t('conf.cancel')}
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {t('conf.yes')}
        </button>
      </div>
    </Overlay>
  );
}

import { useTranslation } from 'react-i18next';
import { Overlay } from './Overlay';
import './ConfirmDialog.css';

interface ConfirmDialogProps {
  /** The translated word for what is deleted ("group", "account"). */
  item: string;
  onConfirm: () => void;
  /** Cancel, Escape or a click outside: closes with no call. */
  onCancel: () => void;
}

/** The delete confirmation of 001 §4: conf/title, conf/delete + item + "?", conf/cancel and conf/yes. */
export function ConfirmDialog({ item, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation('groups');
  const title = t('conf.title');
  return (
    <Overlay label={title} onClose={onCancel} className="confirm">
      <h2 className="confirm__title">{title}</h2>
      <p className="confirm__text">{`${t('conf.delete')} ${item}?`}</p>
      <div className="confirm__actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('conf.cancel')}
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {t('conf.yes')}
        </button>
      </div>
    </Overlay>
  );
}

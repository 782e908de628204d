import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorKey } from '#core/errors';
import { LIMITS } from '#core/limits';
import { validateReportReason } from '#core/validation';
import type { ReportPayload } from '../lib/outbox/kinds/report';
import { translateMessage } from '../lib/i18n';
import { queueReport } from '../lib/outbox/kinds/report';
import { toast } from '../lib/toast';
import { Overlay } from './Overlay';
import './ConfirmDialog.css';
import './FormField.css';

interface ReportDialogProps {
  kind: ReportPayload['kind'];
  /** The post's, the comment's or the user's id. */
  id: string;
  onClose: () => void;
}

/**
 * Asks why something is reported, checks the reason with the server's rule, and hands the report
 * to the outbox: it is sent when the app is online, once, and a refusal is shown then.
 */
export function ReportDialog({ kind, id, onClose }: ReportDialogProps) {
  const { t } = useTranslation('moderation');
  const fieldId = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<ErrorKey | null>(null);
  const title = t(`report.title.${kind}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = validateReportReason(reason);
    setProblem(check);
    if (check) return;
    await queueReport({ kind, id, reason });
    // Online the server's thanks follows in a moment; offline the reporter is told it waits.
    if (navigator.onLine === false) toast.info('moderation:report.queued');
    onClose();
  };

  return (
    <Overlay label={title} onClose={onClose} className="confirm report-dialog">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <h2 className="confirm__title">{title}</h2>
        <div className="field">
          <label className="field__label" htmlFor={fieldId}>
            {t('report.reason')}
          </label>
          <textarea
            id={fieldId}
            className="field__input"
            name="reason"
            rows={4}
            autoFocus
            value={reason}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${fieldId}-error` : `${fieldId}-hint`}
            onChange={(event) => setReason(event.target.value)}
          />
          <p id={`${fieldId}-hint`} className="field__hint">
            {t('report.reason_hint', { count: [...reason.trim()].length, max: LIMITS.reportReasonMaxLength })}
          </p>
          {problem && (
            <p id={`${fieldId}-error`} className="field__error" role="alert">
              {translateMessage(t, `error/${problem}`)}
            </p>
          )}
        </div>
        <div className="confirm__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('report.cancel')}
          </button>
          <button type="submit" className="button button--primary">
            {t('report.send')}
          </button>
        </div>
      </form>
    </Overlay>
  );
}

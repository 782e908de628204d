import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApplicationDecision, ApplicationItem } from '#core/api/registration';
import { useOnline } from '../../lib/online';
import { decideApplication, useApplications } from '../../lib/registration';
import { ConfirmDialog } from '../ConfirmDialog';
import { RelativeTime } from '../RelativeTime';
import { PagedList, useModerationCall } from '../moderation/ModerationLists';

/**
 * Sign-ups waiting for the instance moderators' approval, oldest first, each with its reason:
 * approving or refusing is confirmed, sent at once (online only), and mails the applicant.
 */
export function Applications() {
  const { t } = useTranslation('moderation');
  const online = useOnline();
  const list = useApplications();
  const { busy, run } = useModerationCall();
  const [confirming, setConfirming] = useState<{ application: ApplicationItem; decision: ApplicationDecision } | null>(null);

  return (
    <section className="moderation-section" aria-labelledby="moderation-applications">
      <h2 id="moderation-applications">{t('applications.title')}</h2>
      <PagedList list={list} empty={t('applications.empty')}>
        {(items) => (
          <ul className="moderation-reports" aria-label={t('applications.title')}>
            {items.map((item) => (
              <li key={item._id} className="moderation-report">
                <p className="moderation-report__what">
                  <strong>{item.username}</strong>
                  {item.email ? <span className="moderation-report__meta"> · {item.email}</span> : null}
                </p>
                <blockquote className="moderation-report__text">{item.reason}</blockquote>
                <p className="moderation-report__meta">
                  {item.verified ? t('applications.verified') : t('applications.unverified')} · <RelativeTime time={item.createdAt} />
                </p>
                <div className="moderation-report__actions">
                  {(['approve', 'refuse'] as const).map((decision) => (
                    <button
                      key={decision}
                      type="button"
                      className={`button${decision === 'refuse' ? ' button--danger' : ' button--primary'}`}
                      disabled={!online || busy}
                      aria-label={t(`applications.${decision}_named`, { username: item.username })}
                      onClick={() => setConfirming({ application: item, decision })}
                    >
                      {t(`applications.${decision}`)}
                    </button>
                  ))}
                </div>
              </li>
            ))}
          </ul>
        )}
      </PagedList>
      {confirming && (
        <ConfirmDialog
          question={t(`applications.confirm_${confirming.decision}`, { username: confirming.application.username })}
          action={t(`applications.${confirming.decision}_named`, { username: confirming.application.username })}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const { application, decision } = confirming;
            setConfirming(null);
            void run(() => decideApplication(application._id, decision));
          }}
        />
      )}
    </section>
  );
}

import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { MODERATOR_ACTIONS } from '#core/api/reports';
import { PageHeader } from '../../components/PageHeader';
import { StatusPage } from '../../components/StatusPage';
import { DomainBlocks } from '../../components/moderation/DomainBlocks';
import { ModerationLog, ReportQueue } from '../../components/moderation/ModerationLists';
import { Applications } from '../../components/registration/Applications';
import { InviteLinks } from '../../components/registration/InviteLinks';
import { RegistrationSettingsSection } from '../../components/registration/RegistrationSettings';
import { ApiError } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { useReportQueue } from '../../lib/moderation';
import { readStoredAccount } from '../../lib/stored-account';

const SCOPE = { kind: 'all' } as const;

/**
 * Whether the viewer is known not to be an instance moderator: the stored account says so, or the
 * server refused the queue with moderators_only. Unknown (nothing stored, no answer yet) is not a no.
 */
function useNotModerator(): boolean {
  const db = useDb();
  const stored = useLiveQuery(() => readStoredAccount(db), [db]);
  const queue = useReportQueue(SCOPE);
  const refused = queue.error instanceof ApiError && queue.error.key === 'moderators_only';
  return refused || stored?.moderator === false;
}

/**
 * /moderation: the instance moderators' screen, every open report with its actions (delete,
 * suspend, dismiss), the log, who may sign up (the registration mode, the sign-ups waiting for
 * approval, the moderator's invite links) and the domains blocked from federating. The account
 * page links here for moderators only; anyone else who opens it is told once that the screen is
 * the moderators', with none of their forms.
 */
export default function ModerationPage() {
  const { t } = useTranslation('moderation');
  const notModerator = useNotModerator();
  if (notModerator) return <StatusPage title={t('title')} text={t('moderators_only')} />;
  return (
    <section className="moderation-page">
      <PageHeader title={t('title')} heading fallback="/account" />
      <ReportQueue scope={SCOPE} actions={MODERATOR_ACTIONS} />
      <ModerationLog scope={SCOPE} />
      <RegistrationSettingsSection />
      <Applications />
      <InviteLinks />
      <DomainBlocks />
    </section>
  );
}

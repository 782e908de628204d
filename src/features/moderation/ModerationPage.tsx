import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { MODERATOR_ACTIONS } from '#core/api/reports';
import { AppLink } from '../../components/AppLink';
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
import { useFederation } from '../../lib/public-config';
import './moderation-pages.css';

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
 * suspend, dismiss), the log, links to the instance's settings and its people, who may sign up
 * (the registration mode, the sign-ups waiting for approval, the moderator's invite links) and the
 * domains blocked from federating, shown only on an instance that federates (the server keeps the
 * list either way, so blocks made before stay). The account page links here for moderators only;
 * anyone else who opens it is told once that the screen is the moderators', with none of their forms.
 */
export default function ModerationPage() {
  const { t } = useTranslation(['moderation', 'instance']);
  const notModerator = useNotModerator();
  const federation = useFederation();
  if (notModerator) return <StatusPage title={t('title')} text={t('moderators_only')} />;
  return (
    <section className="moderation-page">
      <PageHeader title={t('title')} heading fallback="/account" />
      <nav className="moderation-nav" aria-label={t('title')}>
        <AppLink to="/moderation/instance">{t('instance:settings.link')}</AppLink>
        <AppLink to="/moderation/people">{t('instance:people.link')}</AppLink>
      </nav>
      <ReportQueue scope={SCOPE} actions={MODERATOR_ACTIONS} />
      <ModerationLog scope={SCOPE} />
      <RegistrationSettingsSection />
      <Applications />
      <InviteLinks />
      {federation && <DomainBlocks />}
    </section>
  );
}

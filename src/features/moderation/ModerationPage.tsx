import { useTranslation } from 'react-i18next';
import { MODERATOR_ACTIONS } from '#core/api/reports';
import { PageHeader } from '../../components/PageHeader';
import { DomainBlocks } from '../../components/moderation/DomainBlocks';
import { ModerationLog, ReportQueue } from '../../components/moderation/ModerationLists';
import { Applications } from '../../components/registration/Applications';
import { InviteLinks } from '../../components/registration/InviteLinks';
import { RegistrationSettingsSection } from '../../components/registration/RegistrationSettings';

const SCOPE = { kind: 'all' } as const;

/**
 * /moderation: the instance moderators' screen, every open report with its actions (delete,
 * suspend, dismiss), the log, who may sign up (the registration mode, the sign-ups waiting for
 * approval, the moderator's invite links) and the domains blocked from federating. The account page links here for moderators only; anyone else who
 * opens it is told by the server's refusal.
 */
export default function ModerationPage() {
  const { t } = useTranslation('moderation');
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

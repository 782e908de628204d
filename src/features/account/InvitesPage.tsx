import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { InviteLinks } from '../../components/registration/InviteLinks';
import './account.css';

/**
 * /account/invites: a member's own invite links, where the instance lets members invite (the
 * account page links here then); the server refuses making one otherwise.
 */
export default function InvitesPage() {
  const { t } = useTranslation('moderation');
  return (
    <section className="moderation-page">
      <PageHeader title={t('invites.title')} heading fallback="/account" />
      <InviteLinks />
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { GROUP_ADMIN_ACTIONS } from '#core/api/reports';
import { PageHeader } from '../../components/PageHeader';
import { ModerationLog, ReportQueue } from '../../components/moderation/ModerationLists';

/**
 * /g/{groupname}/reports: the group admin's queue of reported posts in the group (remove from
 * the group, ban the author there, dismiss) and the group's moderation log. Others are told by the
 * server's refusal (need_admin).
 */
export default function GroupReportsPage() {
  const { t } = useTranslation('moderation');
  const name = useParams().groupname ?? '';
  const scope = { kind: 'group', name } as const;
  return (
    <section className="moderation-page">
      <PageHeader title={`${name} · ${t('group_title')}`} heading fallback={`/g/${encodeURIComponent(name)}/settings`} />
      <ReportQueue scope={scope} actions={GROUP_ADMIN_ACTIONS} />
      <ModerationLog scope={scope} />
    </section>
  );
}

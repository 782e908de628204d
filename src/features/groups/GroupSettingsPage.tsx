import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/AppLink';
import { useNavigate, useParams } from 'react-router-dom';
import { ConfirmDialog, deleteAction, deleteQuestion } from '../../components/ConfirmDialog';
import { LoadStatus, StatusPage } from '../../components/StatusPage';
import { ApiError } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { translateMessage } from '../../lib/i18n';
import { deleteGroup, joinNeedsApproval, useGroup } from './groups.api';
import { GroupForm } from './GroupForm';
import { MembersList } from './MembersList';
import { TransferOwnership } from './TransferOwnership';
import '../../components/danger-button.css';
import './groups.css';
import { PageHeader } from '../../components/PageHeader';
import { avatarUrl } from '../../components/Avatar';

/**
 * /g/{groupname}/settings: the creation form filled in (privacy is the owner's to change), group
 * delete behind the confirm dialog (success or not, the user goes to the feed; a failure is only
 * written to the console), the owner's transfer of ownership to a member and, for a group that
 * admits by request, the requests waiting for an answer.
 */
export default function GroupSettingsPage() {
  const { t } = useTranslation(['groups', 'moderation']);
  const name = useParams().groupname ?? '';
  const navigate = useNavigate();
  const db = useDb();
  const { group, ready, error, refetch } = useGroup(name);
  const [confirming, setConfirming] = useState(false);
  const [transferring, setTransferring] = useState(false);

  if (!name.trim()) return <StatusPage title={t('no_group', { ns: 'error' })} />;
  if (!group) return <LoadStatus error={error} ready={ready} notFoundKey="didnt_find_group" loadingLabel={t('loading')} />;
  if (!group.admin) return <StatusPage title={t('need_admin', { ns: 'error' })} />;

  async function remove() {
    setConfirming(false);
    try {
      await deleteGroup(group!._id);
      await db.groups.delete(name);
    } catch (err) {
      console.error(translateMessage(t, err instanceof ApiError ? err.message : 'error/server_error'));
    }
    void navigate('/feed', { replace: true });
  }

  return (
    <section className="group-form-page">
      <PageHeader title={`${group.name} · ${t('settings.title')}`} heading fallback={`/g/${encodeURIComponent(group.name)}`} />
      <GroupForm
        key={group._id}
        groupId={group._id}
        initial={{
          name: group.name,
          description: group.description,
          isPrivate: group.private,
          requestJoin: group.requestJoin,
          everyoneCanPost: group.everyoneCanPost,
        }}
        submitLabel={t('settings.submit')}
        canChangePrivacy={group.owner}
        currentPicture={avatarUrl('gp', group.gp, group.gpUrl)}
        onSaved={(saved) => {
          if (saved.name !== name) void db.groups.delete(name);
          void navigate(`/g/${encodeURIComponent(saved.name)}`);
        }}
      />
      {joinNeedsApproval(group) && (
        <section className="group-requests" aria-labelledby="group-requests-title">
          <h2 id="group-requests-title" className="group-list-title">
            {t('settings.requests')}
          </h2>
          <MembersList groupName={group.name} which="requests" isAdmin />
        </section>
      )}
      <AppLink className="group-reports-link" to={`/g/${encodeURIComponent(group.name)}/reports`}>
        {t('moderation:group_link')}
      </AppLink>
      {group.owner && (
        <div className="group-danger">
          <button type="button" className="button" aria-expanded={transferring} onClick={() => setTransferring((open) => !open)}>
            {t('settings.transfer')}
          </button>
          <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
            {t('settings.delete')}
          </button>
        </div>
      )}
      {group.owner && transferring && (
        <TransferOwnership
          groupName={group.name}
          onTransferred={() => {
            setTransferring(false);
            void refetch();
          }}
        />
      )}
      {confirming && <ConfirmDialog question={deleteQuestion(t, 'group')} action={deleteAction(t, 'group')} onCancel={() => setConfirming(false)} onConfirm={() => void remove()} />}
    </section>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadStatus, StatusPage } from '../../components/StatusPage';
import { ApiError } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { translateMessage } from '../../lib/i18n';
import { deleteGroup, useGroup } from './groups.api';
import { GroupForm } from './GroupForm';
import './groups.css';

/**
 * /g/{groupname}/settings (001 §2): the creation form filled in, group delete behind the confirm
 * dialog (success or not, the user goes to the feed; a failure is only written to the console) and
 * the owner's transfer-ownership button, which the spec leaves without a call.
 */
export default function GroupSettingsPage() {
  const { t } = useTranslation('groups');
  const name = useParams().groupname ?? '';
  const navigate = useNavigate();
  const db = useDb();
  const { group, ready, error } = useGroup(name);
  const [confirming, setConfirming] = useState(false);

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
      <h1>
        <Link to={`/g/${encodeURIComponent(group.name)}`}>{group.name}</Link> · {t('settings.title')}
      </h1>
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
        onSaved={(saved) => {
          if (saved.name !== name) void db.groups.delete(name);
          void navigate(`/g/${encodeURIComponent(saved.name)}`);
        }}
      />
      {group.owner && (
        <div className="group-danger">
          <span title={t('settings.transfer_unavailable')}>
            <button type="button" className="button" disabled aria-describedby="transfer-note">
              {t('settings.transfer')}
            </button>
          </span>
          <p id="transfer-note" className="field__hint">
            {t('settings.transfer_unavailable')}
          </p>
          <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
            {t('settings.delete')}
          </button>
        </div>
      )}
      {confirming && <ConfirmDialog question={t('common:conf.delete_group')} onCancel={() => setConfirming(false)} onConfirm={() => void remove()} />}
    </section>
  );
}

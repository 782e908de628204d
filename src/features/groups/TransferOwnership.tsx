import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupUserItem } from '#core/api/common';
import { groupsApi } from '#core/api/groups';
import { PAGE_SIZES } from '#core/limits';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormField } from '../../components/FormField';
import { errorMessageOf } from '../../lib/api/client';
import { usePagedList } from '../../lib/query/paged-list';
import { listKeys } from '../../lib/query/keys';
import { toast } from '../../lib/toast';
import { transferOwnership } from './groups.api';

interface Props {
  groupName: string;
  /** Called once the group has its new owner (the caller reloads the group). */
  onTransferred: () => void;
}

/**
 * The owner's hand-over: find a member, pick them, confirm, and the group is theirs (the caller
 * stays an admin). The answer, success or refusal, shows as a translated toast.
 */
export function TransferOwnership({ groupName, onTransferred }: Props) {
  const { t } = useTranslation('groups');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<GroupUserItem | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const query = search.trim();
  const list = usePagedList({
    list: listKeys.transferCandidates(groupName, query),
    endpoint: groupsApi.members,
    params: { name: groupName },
    query: query ? { query } : {},
    field: 'userList',
    idOf: (u) => u.pfp,
    limit: PAGE_SIZES.users,
  });
  const candidates = list.items.filter((u) => !u.owner);

  async function transfer(user: GroupUserItem) {
    setConfirming(false);
    setBusy(true);
    try {
      const reply = await transferOwnership(groupName, user.pfp);
      toast.info(reply?.message ?? 'info/owner_transferred');
      onTransferred();
    } catch (err) {
      toast.error(errorMessageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="group-transfer">
      <legend>{t('settings.transfer_pick')}</legend>
      <FormField label={t('settings.transfer_search')} type="search" value={search} autoComplete="off" onChange={(event) => setSearch(event.target.value)} />
      {!list.loading && candidates.length === 0 ? <p className="field__hint">{t('settings.transfer_none')}</p> : null}
      <ul className="group-transfer__list">
        {candidates.map((user) => (
          <li key={user.pfp}>
            <label>
              <input type="radio" name="new-owner" checked={chosen?.pfp === user.pfp} onChange={() => setChosen(user)} />
              {user.username}
            </label>
          </li>
        ))}
      </ul>
      {list.hasMore ? (
        <button type="button" className="button" onClick={list.loadMore}>
          {t('load_more')}
        </button>
      ) : null}
      <button type="button" className="button button--primary" disabled={!chosen || busy} onClick={() => setConfirming(true)}>
        {t('settings.transfer_submit')}
      </button>
      {confirming && chosen ? (
        <ConfirmDialog
          question={t('settings.transfer_confirm', { username: chosen.username })}
          detail={t('settings.transfer_detail')}
          action={t('settings.transfer_action', { username: chosen.username })}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void transfer(chosen)}
        />
      ) : null}
    </fieldset>
  );
}

import { useTranslation } from 'react-i18next';
import { blocksApi } from '#core/api/blocks';
import { PAGE_SIZES } from '#core/limits';
import { UserRow } from '../../components/EntityRow';
import { PagedInfiniteList } from '../../components/InfiniteList';
import { PageHeader } from '../../components/PageHeader';
import { setSafety, useStoredSafetyState } from '../../components/safety/safety';
import type { SafetyAction } from '../../lib/db/db';
import { usePagedList } from '../../lib/query/paged-list';
import { listKeys } from '../../lib/query/keys';
import './account.css';

/**
 * One entry of a list: shown until the caller lifts it here (the stored state turns false at once,
 * offline too, and the outbox sends the change), with the button that lifts it.
 */
function Lifted({ action, subject, label, children }: { action: SafetyAction; subject: string; label: string; children: React.ReactNode }) {
  const state = useStoredSafetyState(action, subject);
  if (state === false) return null;
  return (
    <div className="safety-list__item">
      {children}
      <button type="button" className="button" onClick={() => void setSafety(action, subject, false, { from: true })}>
        {label}
      </button>
    </div>
  );
}

function UsersList({ which }: { which: 'blocked' | 'muted' }) {
  const { t } = useTranslation('safety');
  const action = which === 'blocked' ? 'block' : 'mute';
  const list = usePagedList({
    list: listKeys.safety(which),
    endpoint: which === 'blocked' ? blocksApi.blocked : blocksApi.muted,
    field: 'userList',
    idOf: (u) => u.pfp,
    limit: PAGE_SIZES.users,
  });
  return (
    <section aria-labelledby={`safety-${which}`}>
      <h2 id={`safety-${which}`}>{t(`${which}_title`)}</h2>
      <PagedInfiniteList
        className="entity-list"
        ns="safety"
        list={list}
        keyOf={(u) => u.pfp}
        emptyLabel={t(`${which}_empty`)}
        renderItem={(u) => (
          <Lifted action={action} subject={u.pfp} label={t(which === 'blocked' ? 'unblock' : 'unmute', { username: u.username })}>
            <UserRow user={u} />
          </Lifted>
        )}
      />
    </section>
  );
}

function TagsList() {
  const { t } = useTranslation('safety');
  const list = usePagedList({
    list: listKeys.safety('tags'),
    endpoint: blocksApi.mutedTags,
    field: 'tags',
    idOf: (tag) => tag.tag,
    limit: PAGE_SIZES.users,
  });
  return (
    <section aria-labelledby="safety-tags">
      <h2 id="safety-tags">{t('tags_title')}</h2>
      <PagedInfiniteList
        className="entity-list"
        ns="safety"
        list={list}
        keyOf={(tag) => tag.tag}
        emptyLabel={t('tags_empty')}
        renderItem={({ tag }) => (
          <Lifted action="muteTag" subject={tag} label={t('unmute_tag_short', { tag })}>
            <span>#{tag}</span>
          </Lifted>
        )}
      />
    </section>
  );
}

/** /account/safety: whom the caller blocked and muted, and the hashtags they muted, each with its undo. */
export default function SafetyListsPage() {
  const { t } = useTranslation('safety');
  return (
    <section className="account-page safety-lists" aria-labelledby="safety-title">
      <PageHeader title={t('lists_title')} titleId="safety-title" heading fallback="/account" />
      <UsersList which="blocked" />
      <UsersList which="muted" />
      <TagsList />
    </section>
  );
}

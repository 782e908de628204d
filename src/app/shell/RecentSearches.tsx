import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { groupsApi } from '#core/api/groups';
import { profilesApi } from '#core/api/profiles';
import { AppLink } from '../../components/AppLink';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { callApi } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { queryKeys } from '../../lib/query/keys';
import { addHistoryEntry, clearHistory, type HistoryEntry, useSearchHistory } from '../../lib/search-history';
import { useSession } from '../../lib/session';
import './SearchPanel.css';

/** The current name of a user or group entry by its id (a text entry is its own name). */
function lookUpName(entry: HistoryEntry, signal: AbortSignal): Promise<{ name: string }> {
  if (entry.type === 'user') return callApi(profilesApi.username, { params: { userId: entry.id } }, { signal });
  if (entry.type === 'group') return callApi(groupsApi.name, { params: { groupId: entry.id } }, { signal });
  return Promise.resolve({ name: entry.text });
}

/** Names of history entries are looked up by id; a failed lookup marks the entry deleted. */
function useEntryName(entry: HistoryEntry): { name: string | null; deleted: boolean } {
  const db = useDb();
  const query = useQuery({
    queryKey: queryKeys.historyName(db.name, entry.type, entry.type === 'text' ? entry.text : entry.id),
    queryFn: ({ signal }) => lookUpName(entry, signal),
    enabled: entry.type !== 'text',
    staleTime: 60 * 60 * 1000,
    retry: false,
  });
  if (entry.type === 'text') return { name: entry.text, deleted: false };
  if (query.isError) return { name: null, deleted: true };
  return { name: query.data?.name ?? null, deleted: false };
}

function RecentEntry({ entry, onOpen }: { entry: HistoryEntry; onOpen?: () => void }) {
  const { t } = useTranslation('common');
  const { id: userId } = useSession();
  const { name, deleted } = useEntryName(entry);

  if (deleted) {
    return (
      <li className="recent__item recent__item--deleted">
        <span className="recent__name">{t('search.deleted')}</span>
      </li>
    );
  }
  if (name === null) {
    return (
      <li className="recent__item" aria-busy="true">
        <span className="recent__name recent__name--loading">…</span>
      </li>
    );
  }
  const to =
    entry.type === 'user'
      ? `/u/${encodeURIComponent(name)}`
      : entry.type === 'group'
        ? `/g/${encodeURIComponent(name)}`
        : `/search?q=${encodeURIComponent(name)}`;
  return (
    <li className="recent__item">
      <AppLink
        to={to}
        className="recent__link"
        onClick={() => {
          void addHistoryEntry(userId, entry);
          onOpen?.();
        }}
      >
        {entry.type === 'text' ? (
          <span className="recent__glyph">
            <Icon name="search" size={16} />
          </span>
        ) : (
          <Avatar kind={entry.type === 'user' ? 'pfp' : 'gp'} id={entry.id} size={28} />
        )}
        <span className="recent__name">
          {entry.type === 'group' ? `&${name}` : name}
        </span>
      </AppLink>
    </li>
  );
}

/** The Recent Searches list under the search box, with Clear all. */
export function RecentSearches({ onOpen }: { onOpen?: () => void }) {
  const { t } = useTranslation('common');
  const { id: userId } = useSession();
  const history = useSearchHistory(userId);
  return (
    <section className="recent" aria-labelledby="recent-title">
      <header className="recent__header">
        <h2 id="recent-title" className="recent__title">
          {t('search.recent')}
        </h2>
        {history.length > 0 ? (
          <button type="button" className="link-button" onClick={() => void clearHistory(userId)}>
            {t('search.clearAll')}
          </button>
        ) : null}
      </header>
      {history.length === 0 ? (
        <p className="recent__empty">{t('search.noRecent')}</p>
      ) : (
        <ul className="recent__list">
          {history.map((entry) => (
            <RecentEntry
              key={entry.type === 'text' ? `t:${entry.text}` : `${entry.type}:${entry.id}`}
              entry={entry}
              onOpen={onOpen}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

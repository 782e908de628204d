import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { type Group, groupsApi } from '#core/api/groups';
import { type Profile, profilesApi } from '#core/api/profiles';
import { AppLink } from '../../components/AppLink';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { ApiError, callApi, NetworkError } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
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

/** The name of a stored profile or group with the entry's id: entries saved without their name. */
async function storedName(db: KruhDb, entry: HistoryEntry): Promise<string | null> {
  if (entry.type === 'user') {
    const row = await db.profiles.filter((p) => (p.data as Profile | undefined)?._id === entry.id).first();
    return row?.username ?? null;
  }
  if (entry.type === 'group') {
    const row = await db.groups.filter((g) => (g.data as Group | undefined)?._id === entry.id).first();
    return row?.name ?? null;
  }
  return entry.text;
}

type EntryName =
  | { state: 'named'; name: string }
  | { state: 'loading' }
  /** The server says the user or group is gone. */
  | { state: 'deleted' }
  /** Neither the server nor this device can name it (offline, or a failed lookup). */
  | { state: 'unknown'; error: unknown };

/**
 * An entry's name: the server's current one when it answers; until then, or when it cannot answer
 * (offline), the name the entry was saved with, else a stored copy of the profile or group. Only
 * the server's "not found" makes the entry deleted.
 */
function useEntryName(entry: HistoryEntry): EntryName {
  const db = useDb();
  const byId = entry.type !== 'text';
  const query = useQuery({
    queryKey: queryKeys.historyName(db.name, entry.type, byId ? entry.id : entry.text),
    queryFn: ({ signal }) => lookUpName(entry, signal),
    enabled: byId,
    staleTime: 60 * 60 * 1000,
    retry: false,
  });
  const saved = entry.type === 'text' ? entry.text : entry.name;
  const local = useLiveQuery(() => (saved ? null : storedName(db, entry)), [db, entry, saved]);
  if (query.data) return { state: 'named', name: query.data.name };
  if (query.error instanceof ApiError && query.error.status === 404) return { state: 'deleted' };
  const known = saved ?? local;
  if (known) return { state: 'named', name: known };
  if (query.isError && local === null) return { state: 'unknown', error: query.error };
  return { state: 'loading' };
}

function RecentEntry({ entry, onOpen }: { entry: HistoryEntry; onOpen?: () => void }) {
  const { t } = useTranslation('common');
  const { id: userId } = useSession();
  const found = useEntryName(entry);

  if (found.state === 'deleted' || found.state === 'unknown') {
    const label =
      found.state === 'deleted' ? t('search.deleted') : found.error instanceof NetworkError ? t('search.offline') : t('while_loading', { ns: 'error' });
    return (
      <li className="recent__item recent__item--deleted">
        <span className="recent__name">{label}</span>
      </li>
    );
  }
  if (found.state === 'loading') {
    return (
      <li className="recent__item" aria-busy="true">
        <span className="recent__name recent__name--loading">…</span>
      </li>
    );
  }
  const { name } = found;
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
          // Saved again first, with the name it has now.
          void addHistoryEntry(userId, entry.type === 'text' ? entry : { ...entry, name });
          onOpen?.();
        }}
      >
        {entry.type === 'text' ? (
          <span className="recent__glyph">
            <Icon name="search" size={16} />
          </span>
        ) : (
          <Avatar kind={entry.type === 'user' ? 'pfp' : 'gp'} id={entry.id} url={entry.avatar} size={28} />
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

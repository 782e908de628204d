import { type FormEvent, type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LISTING_DEFAULTS, type Sort, type TimeWindow, listingSearchParams } from '#core/listing';
import type { GroupListItem, UserListItem } from '#core/api/common';
import { GroupRow, UserRow } from '../../components/EntityRow';
import { Icon } from '../../components/Icon';
import { PagedInfiniteList } from '../../components/InfiniteList';
import { NotStoredLine } from '../../components/StatusPage';
import type { Comment } from '../../lib/api/types';
import { readListing } from '../../lib/listing-params';
import { useFeed } from '../../lib/query/feed';
import { type HistoryEntry, addHistoryEntry } from '../../lib/search-history';
import { useSession } from '../../lib/session';
import { ListingControls } from '../../components/ListingControls';
import { FeedPostList, refetchingEmpty } from '../../components/post/PostList';
import { ReplyRow } from './SearchResults';
import {
  type ListKind,
  PREVIEW_SIZE,
  SEARCH_VIEWS,
  type SearchItem,
  type SearchView,
  isSearchView,
  searchItemKey,
  useSearchList,
} from './search.api';
import './search.css';

/** Posts matching the query, through the shared feed listing (stored like any feed). */
function PostResults({ q, sort, time }: { q: string; sort: Sort; time: TimeWindow }) {
  const { t } = useTranslation('search');
  const params = useMemo(() => ({ feed: { search: q }, sort, time }), [q, sort, time]);
  const feed = useFeed(params, q !== '');
  return (
    <section className="search-section" aria-labelledby="search-posts-title">
      <h2 id="search-posts-title" className="search-section-title">{t('tabs.posts')}</h2>
      <FeedPostList feed={feed} emptyLabel={t('no_posts')} loading={refetchingEmpty(feed)} />
    </section>
  );
}

/** The all view's first few users or groups, with a link to all of them. */
function Preview({
  kind,
  query,
  render,
  onMore,
}: {
  kind: 'users' | 'groups';
  query: { q: string; sort: Sort; time: TimeWindow };
  render: (kind: ListKind, item: SearchItem) => ReactNode;
  onMore: () => void;
}) {
  const { t } = useTranslation('search');
  const { items, loading, hasMore, unavailable, error } = useSearchList(kind, query, { enabled: true, limit: PREVIEW_SIZE });
  return (
    <section className="search-section" aria-labelledby={`search-${kind}-title`}>
      <h2 id={`search-${kind}-title`} className="search-section-title">{t(`tabs.${kind}`)}</h2>
      {loading && <p className="list-status" role="status">{t('loading')}</p>}
      {/* Nothing stored and no answer (offline): whether anything matches is unknown, not none. */}
      {unavailable && <NotStoredLine error={error} />}
      {!loading && !unavailable && items.length === 0 && <p className="list-status">{t(`no_${kind}`)}</p>}
      <ul className="search-list">
        {items.map((item) => (
          <li key={searchItemKey(kind, item)}>{render(kind, item)}</li>
        ))}
      </ul>
      {hasMore && (
        <button type="button" className="link-button search-show-more" onClick={onMore}>
          {t(`show_more.${kind}`)}
        </button>
      )}
    </section>
  );
}

/** The page's own search input (the shell's box is hidden on /search); Enter searches. */
function SearchForm({ initial, onSearch }: { initial: string; onSearch: (value: string) => void }) {
  const { t } = useTranslation('search');
  const [text, setText] = useState(initial);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form className="search-form" role="search" onSubmit={onSubmit}>
      <label className="search-field">
        <span className="visually-hidden">{t('input_label')}</span>
        <Icon name="search" size={18} />
        <input
          type="search"
          value={text}
          placeholder={t('placeholder')}
          enterKeyHint="search"
          autoFocus={!initial}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
    </form>
  );
}

/**
 * /search: q, s (all, users, groups, posts, replies), sort and time. The all view shows
 * 3 users, 3 groups and the posts; each other tab lists one kind page by page. The query is saved
 * to the history on Enter or on a tab click.
 */
export default function SearchPage() {
  const { t } = useTranslation('search');
  const { id: userId } = useSession();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = (searchParams.get('q') ?? '').trim();
  const sParam = searchParams.get('s');
  const view: SearchView = isSearchView(sParam) ? sParam : 'all';
  const { sort, time } = readListing(searchParams);

  const navigateTo = useCallback(
    (next: { q?: string; view?: SearchView; sort?: Sort; time?: TimeWindow }) => {
      const params: Record<string, string> = {};
      const nextQ = next.q ?? q;
      const nextView = next.view ?? view;
      if (nextQ) params.q = nextQ;
      if (nextView !== 'all') params.s = nextView;
      Object.assign(params, listingSearchParams(next.sort ?? sort, next.time ?? time, LISTING_DEFAULTS));
      setSearchParams(params);
    },
    [q, view, sort, time, setSearchParams],
  );

  const remember = useCallback((entry: HistoryEntry) => void addHistoryEntry(userId, entry), [userId]);
  const record = useCallback(
    (value: string) => {
      if (value.trim()) remember({ type: 'text', text: value.trim() });
    },
    [remember],
  );
  // A user or group opened from the results is remembered as that user or group, by id, with the
  // name and avatar it has now, which the recent searches show offline.
  const renderItem = (kind: ListKind, item: SearchItem) => {
    if (kind === 'replies') return <ReplyRow comment={item as Comment} />;
    if (kind === 'users') {
      const user = item as UserListItem;
      const open = () => remember({ type: 'user', id: user._id, name: user.username, avatar: user.pfpUrl });
      return <UserRow user={user} className="search-row" nameClassName="search-row-name" onOpen={open} />;
    }
    const group = item as GroupListItem;
    const open = () => remember({ type: 'group', id: group._id, name: group.name, avatar: group.gpUrl });
    return <GroupRow group={group} prefix="&" className="search-row" nameClassName="search-row-name" onOpen={open} />;
  };

  const onSearch = (value: string) => {
    record(value);
    navigateTo({ q: value });
  };

  const openView = (next: SearchView) => {
    record(q);
    navigateTo({ view: next });
  };

  const listKind = view === 'users' || view === 'groups' || view === 'replies' ? view : 'users';
  const list = useSearchList(listKind, { q, sort, time }, { enabled: view === listKind });
  const showsListing = view === 'all' || view === 'posts' || view === 'replies';

  return (
    <section className="search-page">
      <h1 className="visually-hidden">{t('title')}</h1>
      <SearchForm key={q} initial={q} onSearch={onSearch} />
      <nav className="search-tabs" aria-label={t('tabs.label')}>
        {SEARCH_VIEWS.map((name) => (
          <button
            key={name}
            type="button"
            className={name === view ? 'active' : undefined}
            aria-current={name === view ? 'page' : undefined}
            onClick={() => openView(name)}
          >
            {t(`tabs.${name}`)}
          </button>
        ))}
      </nav>
      {showsListing && q && (
        <ListingControls sort={sort} time={time} onChange={(s, w) => navigateTo({ sort: s, time: w })} />
      )}
      {!q ? (
        <p className="list-status">{t('prompt')}</p>
      ) : view === 'all' ? (
        <>
          <Preview kind="users" query={{ q, sort, time }} render={renderItem} onMore={() => openView('users')} />
          <Preview kind="groups" query={{ q, sort, time }} render={renderItem} onMore={() => openView('groups')} />
          <PostResults q={q} sort={sort} time={time} />
        </>
      ) : view === 'posts' ? (
        <PostResults q={q} sort={sort} time={time} />
      ) : (
        <section className="search-section" aria-label={t(`tabs.${listKind}`)}>
          <PagedInfiniteList
            className="search-list"
            list={list}
            ns="search"
            keyOf={(item) => searchItemKey(listKind, item)}
            renderItem={(item) => renderItem(listKind, item)}
            emptyLabel={t('no_results')}
          />
        </section>
      )}
    </section>
  );
}

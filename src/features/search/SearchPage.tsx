import { type FormEvent, type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LISTING_DEFAULTS, type Sort, type TimeWindow, listingSearchParams } from '#core/listing';
import { Icon } from '../../components/Icon';
import { InfiniteList } from '../../components/InfiniteList';
import type { Comment } from '../../lib/api/types';
import { readListing } from '../../lib/listing-params';
import { useFeed, useListingOffline } from '../../lib/query/feed';
import { addHistoryEntry } from '../../lib/search-history';
import { useSession } from '../../lib/session';
import { ListingControls } from '../../components/ListingControls';
import { PostList } from '../../components/post/PostList';
import { GroupRow, ReplyRow, UserRow } from './SearchResults';
import { type GroupResult, PREVIEW_SIZE, SEARCH_VIEWS, type SearchView, type UserResult, isSearchView, searchItemKey, useSearchList } from './search.api';
import './search.css';

/** Posts matching the query, through the shared feed listing (stored like any feed). */
function PostResults({ q, sort, time }: { q: string; sort: Sort; time: TimeWindow }) {
  const { t } = useTranslation('search');
  const params = useMemo(() => ({ feed: { search: q }, sort, time }), [q, sort, time]);
  const feed = useFeed(params, q !== '');
  const offline = useListingOffline(feed.error);
  return (
    <section className="search-section" aria-labelledby="search-posts-title">
      <h2 id="search-posts-title" className="search-section-title">{t('tabs.posts')}</h2>
      <PostList
        posts={feed.posts}
        hasMore={feed.hasMore && !offline}
        loading={feed.isLoading || (feed.isFetching && feed.pages > 1 && feed.posts.length === 0)}
        onMore={feed.loadMore}
      />
      {!feed.isLoading && !feed.isFetching && feed.posts.length === 0 && <p className="list-status">{t('no_posts')}</p>}
    </section>
  );
}

function Preview<T>({
  kind,
  items,
  loading,
  hasMore,
  render,
  keyOf,
  onMore,
}: {
  kind: 'users' | 'groups';
  items: T[];
  loading: boolean;
  hasMore: boolean;
  render: (item: T) => ReactNode;
  keyOf: (item: T) => string;
  onMore: () => void;
}) {
  const { t } = useTranslation('search');
  return (
    <section className="search-section" aria-labelledby={`search-${kind}-title`}>
      <h2 id={`search-${kind}-title`} className="search-section-title">{t(`tabs.${kind}`)}</h2>
      {loading && <p className="list-status" role="status">{t('loading')}</p>}
      {!loading && items.length === 0 && <p className="list-status">{t(`no_${kind}`)}</p>}
      <ul className="search-list">
        {items.map((item) => (
          <li key={keyOf(item)}>{render(item)}</li>
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

  const record = useCallback(
    (value: string) => {
      if (value.trim()) void addHistoryEntry(userId, { type: 'text', text: value.trim() });
    },
    [userId],
  );

  const onSearch = (value: string) => {
    record(value);
    navigateTo({ q: value });
  };

  const openView = (next: SearchView) => {
    record(q);
    navigateTo({ view: next });
  };

  const users = useSearchList('users', { q, sort, time }, { enabled: view === 'all', limit: PREVIEW_SIZE });
  const groups = useSearchList('groups', { q, sort, time }, { enabled: view === 'all', limit: PREVIEW_SIZE });
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
          <Preview
            kind="users"
            items={users.items as UserResult[]}
            loading={users.loading}
            hasMore={users.hasMore}
            keyOf={(u) => u.pfp}
            render={(u) => <UserRow user={u} />}
            onMore={() => openView('users')}
          />
          <Preview
            kind="groups"
            items={groups.items as GroupResult[]}
            loading={groups.loading}
            hasMore={groups.hasMore}
            keyOf={(g) => g.gp}
            render={(g) => <GroupRow group={g} />}
            onMore={() => openView('groups')}
          />
          <PostResults q={q} sort={sort} time={time} />
        </>
      ) : view === 'posts' ? (
        <PostResults q={q} sort={sort} time={time} />
      ) : (
        <section className="search-section" aria-label={t(`tabs.${listKind}`)}>
          <InfiniteList
            className="search-list"
            items={list.items}
            keyOf={(item) => searchItemKey(listKind, item)}
            renderItem={(item) =>
              listKind === 'users' ? (
                <UserRow user={item as UserResult} />
              ) : listKind === 'groups' ? (
                <GroupRow group={item as GroupResult} />
              ) : (
                <ReplyRow comment={item as Comment} />
              )
            }
            hasMore={list.hasMore}
            loading={list.loading}
            onMore={list.loadMore}
            loadingLabel={t('loading')}
            moreLabel={t('load_more')}
            emptyLabel={t('no_results')}
          />
        </section>
      )}
    </section>
  );
}

import { type ReactNode, useEffect, useEffectEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Resources } from '../lib/locales/resources';
import { NotStoredLine } from './StatusPage';
import { Skeleton, type SkeletonKind } from './Skeleton';

interface InfiniteListProps<T> {
  items: T[];
  keyOf: (item: T) => string;
  /** Draws one item; `index` is its place in the list, from 0 (the first ones may load sooner). */
  renderItem: (item: T, index: number) => ReactNode;
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
  /** Shown while loading, and as the fallback button label when the browser cannot observe. */
  loadingLabel: string;
  moreLabel: string;
  emptyLabel?: string;
  className?: string;
  /** The shape of the placeholders while the first page loads. */
  skeleton?: SkeletonKind;
}

/** A list loaded page by page: the next page is asked for when the last item scrolls into view. */
export function InfiniteList<T>({
  items,
  keyOf,
  renderItem,
  hasMore,
  loading,
  onMore,
  loadingLabel,
  moreLabel,
  emptyLabel,
  className,
  skeleton = 'row',
}: InfiniteListProps<T>) {
  const lastRef = useRef<HTMLLIElement>(null);
  const canObserve = typeof IntersectionObserver !== 'undefined';
  const more = useEffectEvent(() => onMore());

  useEffect(() => {
    const el = lastRef.current;
    if (!el || !hasMore || loading || !canObserve) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        more();
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [items.length, hasMore, loading, canObserve]);

  return (
    <>
      <ul className={className}>
        {items.map((item, i) => (
          <li key={keyOf(item)} ref={i === items.length - 1 ? lastRef : undefined}>
            {renderItem(item, i)}
          </li>
        ))}
      </ul>
      {/* Nothing yet: placeholders in the items' shape; a next page: a line under the list. */}
      {loading && items.length === 0 && <Skeleton kind={skeleton} label={loadingLabel} />}
      {loading && items.length > 0 && (
        <p className="list-status" role="status">
          {loadingLabel}
        </p>
      )}
      {!loading && items.length === 0 && !hasMore && emptyLabel && <p className="list-status">{emptyLabel}</p>}
      {!loading && hasMore && !canObserve && (
        <button type="button" className="button load-more" onClick={onMore}>
          {moreLabel}
        </button>
      )}
    </>
  );
}

/** What a list read page by page (usePagedList) gives an InfiniteList. */
export interface ListPages<T> {
  items: T[];
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
  /** Nothing stored and the first page failed (see usePaged): said instead of the empty label. */
  unavailable?: boolean;
  error?: unknown;
}

export type PagedInfiniteListProps<T> = Omit<InfiniteListProps<T>, 'items' | 'hasMore' | 'loading' | 'onMore' | 'loadingLabel' | 'moreLabel'> & {
  list: ListPages<T>;
  /** The namespace whose `loading` and `load_more` label the list. */
  ns: ListNamespace;
  /** The items to show, when not all of the list's (some taken out on the screen). */
  items?: T[];
};

/** The namespaces with their own `loading` and `load_more`. */
type ListNamespace = {
  [N in keyof Resources]: Resources[N] extends { loading: string; load_more: string } ? N : never;
}[keyof Resources];

/** An InfiniteList of a list read page by page. */
export function PagedInfiniteList<T>({ list, ns, items = list.items, emptyLabel, ...rest }: PagedInfiniteListProps<T>) {
  const { t } = useTranslation(ns);
  return (
    <>
      <InfiniteList
        items={items}
        hasMore={list.hasMore}
        loading={list.loading}
        onMore={list.loadMore}
        loadingLabel={t('loading')}
        moreLabel={t('load_more')}
        emptyLabel={list.unavailable ? undefined : emptyLabel}
        {...rest}
      />
      {list.unavailable && <NotStoredLine error={list.error} />}
    </>
  );
}

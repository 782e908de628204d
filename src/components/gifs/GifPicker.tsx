import { type CSSProperties, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '#core/limits';
import { InfiniteList } from '../../components/InfiniteList';
import { ApiError, NetworkError } from '../../lib/api/client';
import { translateMessage } from '../../lib/i18n';
import { type Gif, downloadGif, gifLocale, shareGif } from './gifs.api';
import { useDebounced, useGifCategories, useGifResults, useOnline } from './useGifs';
import './gifs.css';

interface GifPickerProps {
  /** The chosen GIF as a file, ready to attach like a picked image. */
  onSelect: (file: File) => void;
  onClose?: () => void;
}

type View = 'categories' | 'trending' | 'search';

/** A failure with no answer: the picker says it is offline instead of showing an error. */
const OFFLINE = 'offline';

function messageOf(err: unknown): string {
  if (err instanceof NetworkError) return OFFLINE;
  return err instanceof ApiError && err.key ? `error/${err.key}` : 'error/loading_failed';
}

const pickerStyle = {
  width: LIMITS.gifPickerWidth,
  height: LIMITS.gifPickerHeight,
  '--gif-column': `${LIMITS.gifColumnMinWidth}px`,
} as CSSProperties;

/**
 * The GIF picker of the composer: categories first, then search results once typing
 * pauses for LIMITS.gifDebounceMs, or the trending GIFs.
 */
export function GifPicker({ onSelect, onClose }: GifPickerProps) {
  const { t, i18n } = useTranslation('gifs');
  const locale = gifLocale(i18n.resolvedLanguage ?? i18n.language ?? 'en');
  const online = useOnline();
  const [input, setInput] = useState('');
  // A category is a search the user chose outright: it does not wait for the pause.
  const [chosen, setChosen] = useState<string | null>(null);
  const [trending, setTrending] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const debounced = useDebounced(input, LIMITS.gifDebounceMs);

  const settled = chosen !== null && chosen === input ? chosen : debounced;
  const term = input.trim() === '' ? '' : settled.trim();
  const view: View = term ? 'search' : trending ? 'trending' : 'categories';

  const categories = useGifCategories(locale, online);
  const results = useGifResults(view === 'search' ? term : null, locale, online && view !== 'categories');
  const gifs = useMemo(() => {
    const seen = new Set<string>();
    return (results.data?.pages ?? []).flatMap((page) => page.results).filter((gif) => !seen.has(gif.id) && !!seen.add(gif.id));
  }, [results.data]);

  const reset = () => {
    setInput('');
    setChosen(null);
    setTrending(false);
  };

  const select = async (gif: Gif) => {
    if (busy) return;
    setBusy(gif.id);
    setFailure(null);
    try {
      const file = await downloadGif(gif.id);
      onSelect(file);
      shareGif(gif.id, term, locale).catch(() => undefined);
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  const loadError = view === 'categories' ? categories.error : results.error;
  const offline = !online || loadError instanceof NetworkError || failure === OFFLINE;
  const problem = offline ? null : failure ?? (loadError ? messageOf(loadError) : null);

  return (
    <div className="gif-picker" style={pickerStyle}>
      <div className="gif-picker__bar">
        {view !== 'categories' && (
          <button type="button" className="gif-picker__icon" aria-label={t('back')} onClick={reset}>
            ←
          </button>
        )}
        <input
          type="search"
          className="gif-picker__search"
          aria-label={t('search_label')}
          placeholder={t('search_placeholder')}
          maxLength={LIMITS.gifQueryMax}
          value={input}
          // The picker opens to type into, as a dialog's first field.
          autoFocus
          onChange={(e) => {
            setInput(e.target.value.slice(0, LIMITS.gifQueryMax));
            setChosen(null);
          }}
        />
        {onClose && (
          <button type="button" className="gif-picker__icon" aria-label={t('close')} onClick={onClose}>
            ×
          </button>
        )}
      </div>
      <div className="gif-picker__body" aria-busy={busy !== null}>
        {offline ? (
          <p className="gif-picker__status" role="status">
            {t('offline')}
          </p>
        ) : view === 'categories' ? (
          <ul className="gif-grid" aria-label={t('categories')}>
            <li>
              <button type="button" className="gif-tile gif-tile--text" onClick={() => setTrending(true)}>
                <span className="gif-tile__label">{t('trending')}</span>
              </button>
            </li>
            {(categories.data ?? []).map((category) => (
              <li key={category.searchterm}>
                <button
                  type="button"
                  className="gif-tile"
                  onClick={() => {
                    setInput(category.searchterm);
                    setChosen(category.searchterm);
                  }}
                >
                  <img src={category.image} alt="" loading="lazy" />
                  <span className="gif-tile__label">{category.name}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <InfiniteList
            className="gif-grid"
            items={gifs}
            keyOf={(gif) => gif.id}
            hasMore={!!results.hasNextPage}
            loading={results.isFetching}
            onMore={() => void results.fetchNextPage()}
            loadingLabel={t('loading')}
            moreLabel={t('more')}
            emptyLabel={results.isSuccess ? t('empty') : undefined}
            renderItem={(gif) => (
              <button
                type="button"
                className="gif-tile"
                disabled={busy !== null}
                aria-label={gif.tags.length ? t('pick_tagged', { tags: gif.tags.join(', ') }) : t('pick')}
                onClick={() => void select(gif)}
              >
                <img
                  src={gif.preview}
                  alt=""
                  loading="lazy"
                  style={gif.dims[0] && gif.dims[1] ? { aspectRatio: `${gif.dims[0]} / ${gif.dims[1]}` } : undefined}
                />
                {busy === gif.id && <span className="gif-tile__label">{t('attaching')}</span>}
              </button>
            )}
          />
        )}
      </div>
      {problem && (
        <p className="gif-picker__error" role="alert">
          {translateMessage(t, problem)}
        </p>
      )}
      <p className="gif-picker__credit">{t('powered_by')}</p>
    </div>
  );
}

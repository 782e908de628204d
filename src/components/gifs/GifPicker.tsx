import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '#core/limits';
import { InfiniteList } from '../../components/InfiniteList';
import { Tooltip } from '../../components/Tooltip';
import { NetworkError, errorMessageOf } from '../../lib/api/client';
import { translateMessage } from '../../lib/i18n';
import { type Gif, downloadGif, shareGif } from './gifs.api';
import { useDebounced } from '../../lib/useDebounced';
import { useGifCategories, useGifResults, useOnline } from './useGifs';
import './gifs.css';

interface GifPickerProps {
  /**
   * The chosen GIF, handed over at once as its download: the file, ready to attach like a picked
   * image, or why it could not be fetched. Whoever attaches it waits for it (and says so).
   */
  onSelect: (file: Promise<File>) => void;
  onClose?: () => void;
}

type View = 'categories' | 'trending' | 'search';

const messageOf = (err: unknown): string => errorMessageOf(err, 'error/loading_failed');

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
  const { t } = useTranslation('gifs');
  const locale = LIMITS.gifLocale;
  const online = useOnline();
  const [input, setInput] = useState('');
  // A category is a search the user chose outright: it does not wait for the pause.
  const [chosen, setChosen] = useState<string | null>(null);
  const [trending, setTrending] = useState(false);
  const debounced = useDebounced(input, LIMITS.gifDebounceMs);

  const settled = chosen !== null && chosen === input ? chosen : debounced;
  const term = input.trim() === '' ? '' : settled.trim();
  const view: View = term ? 'search' : trending ? 'trending' : 'categories';

  const categories = useGifCategories(locale, online);
  const results = useGifResults(view === 'search' ? term : null, locale, online && view !== 'categories');

  const reset = () => {
    setInput('');
    setChosen(null);
    setTrending(false);
  };

  const select = (gif: Gif) => {
    const download = downloadGif(gif.id);
    onSelect(download);
    download.then(() => shareGif(gif.id, term, locale)).catch(() => undefined);
  };

  const loadError = view === 'categories' ? categories.error : results.error;
  const offline = !online || loadError instanceof NetworkError;
  const problem = offline || !loadError ? null : messageOf(loadError);

  return (
    <div className="gif-picker" style={pickerStyle}>
      <div className="gif-picker__bar">
        {view !== 'categories' && (
          <Tooltip label={t('back')}>
            <button type="button" className="gif-picker__icon" aria-label={t('back')} onClick={reset}>
              ←
            </button>
          </Tooltip>
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
          <Tooltip label={t('close')}>
            <button type="button" className="gif-picker__icon" aria-label={t('close')} onClick={onClose}>
              ×
            </button>
          </Tooltip>
        )}
      </div>
      <div className="gif-picker__body">
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
            items={results.items}
            keyOf={(gif) => gif.id}
            hasMore={results.hasMore}
            loading={results.loading}
            onMore={results.loadMore}
            loadingLabel={t('loading')}
            moreLabel={t('more')}
            emptyLabel={results.unavailable ? undefined : t('empty')}
            renderItem={(gif) => (
              <button
                type="button"
                className="gif-tile"
                aria-label={gif.tags.length ? t('pick_tagged', { tags: gif.tags.join(', ') }) : t('pick')}
                onClick={() => select(gif)}
              >
                <img
                  src={gif.preview}
                  alt=""
                  loading="lazy"
                  style={gif.dims[0] && gif.dims[1] ? { aspectRatio: `${gif.dims[0]} / ${gif.dims[1]}` } : undefined}
                />
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

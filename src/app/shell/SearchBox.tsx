import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LIMITS } from '#core/limits';
import { type NameResult, searchApi } from '#core/api/search';
import { callApi } from '../../lib/api/client';
import { addHistoryEntry } from '../../lib/search-history';
import { useSession } from '../../lib/session';
import { useDebounced } from '../../lib/useDebounced';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { useCombobox } from '../../components/useCombobox';
import './SearchPanel.css';

/** One empty list for every render: the combobox ties its highlight to the list it was made in. */
const NONE: NameResult[] = [];

/**
 * The shell's search box: user suggestions 300 ms after typing stops, only for
 * non-blank input; Enter saves the text to the history and opens /search?q=.
 */
export function SearchBox({ onDone, autoFocus = false }: { onDone?: () => void; autoFocus?: boolean }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const { id: userId } = useSession();
  const [text, setText] = useState('');
  // Suggestions with the query they answer: a stale answer is never shown for newer text.
  const [result, setResult] = useState<{ query: string; list: NameResult[] }>({ query: '', list: [] });
  const query = useDebounced(text.trim(), LIMITS.debounceMs);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!query) return;
    const controller = new AbortController();
    callApi(searchApi.suggestUsers, { query: { query } }, { signal: controller.signal }).then(
      (list) => setResult({ query, list: Array.isArray(list) ? list.slice(0, LIMITS.suggestionsMax) : [] }),
      // The suggestions are a convenience: a failure is only logged.
      (err: unknown) => {
        if (!controller.signal.aborted) console.warn('search suggestions failed', err);
      },
    );
    return () => controller.abort();
  }, [query]);

  // Blank text shows none, even while the debounced query still holds the last words.
  const suggestions = text.trim() !== '' && query && result.query === query ? result.list : NONE;

  const finish = () => {
    combobox.setOpen(false);
    setText('');
    onDone?.();
  };

  const chooseUser = (user: NameResult) => {
    void addHistoryEntry(userId, { type: 'user', id: user._id, name: user.name });
    void navigate(`/u/${encodeURIComponent(user.name)}`);
    finish();
  };

  const submitText = () => {
    const q = text.trim();
    if (!q) return;
    void addHistoryEntry(userId, { type: 'text', text: q });
    void navigate(`/search?q=${encodeURIComponent(q)}`);
    finish();
  };

  const combobox = useCombobox(suggestions, { onPick: chooseUser, onEnter: submitText });
  const { highlight } = combobox;

  return (
    <div
      className="searchbox"
      ref={boxRef}
      onBlur={(event) => {
        if (!boxRef.current?.contains(event.relatedTarget as Node | null)) combobox.setOpen(false);
      }}
    >
      <label className="searchbox__field">
        <span className="visually-hidden">{t('search.label')}</span>
        <Icon name="search" size={18} className="searchbox__icon" />
        <input
          className="searchbox__input"
          type="search"
          {...combobox.inputProps}
          placeholder={t('search.placeholder')}
          value={text}
          autoFocus={autoFocus}
          enterKeyHint="search"
          onChange={(event) => {
            setText(event.target.value);
            combobox.setOpen(true);
          }}
          onFocus={() => combobox.setOpen(true)}
        />
      </label>
      {combobox.expanded ? (
        <ul className="searchbox__list" {...combobox.listProps} aria-label={t('search.suggestions')}>
          {suggestions.map((user, index) => (
            <li
              key={user._id}
              {...combobox.optionProps(index)}
              className={`searchbox__option${index === highlight ? ' searchbox__option--active' : ''}`}
              tabIndex={-1}
            >
              <Avatar id={user._id} size={28} />
              <span>{user.name}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

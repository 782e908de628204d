import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
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
import './SearchPanel.css';

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
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState(-1);
  const query = useDebounced(text.trim(), LIMITS.debounceMs);
  const listId = useId();
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!query) return;
    const controller = new AbortController();
    callApi(searchApi.suggestUsers, { query: { query } }, { signal: controller.signal }).then(
      (list) => {
        setResult({ query, list: Array.isArray(list) ? list.slice(0, LIMITS.suggestionsMax) : [] });
        setHighlight(-1);
      },
      // The suggestions are a convenience: a failure is only logged.
      (err: unknown) => {
        if (!controller.signal.aborted) console.warn('search suggestions failed', err);
      },
    );
    return () => controller.abort();
  }, [query]);

  const suggestions = query && result.query === query ? result.list : [];

  const finish = () => {
    setOpen(false);
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

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const showing = open && suggestions.length > 0 && text.trim() !== '';
    if (event.key === 'ArrowDown' && showing) {
      event.preventDefault();
      setHighlight((h) => (h + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && showing) {
      event.preventDefault();
      setHighlight((h) => (h <= 0 ? suggestions.length - 1 : h - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = showing && highlight >= 0 ? suggestions[highlight] : undefined;
      if (chosen) chooseUser(chosen);
      else submitText();
    } else if (event.key === 'Escape' && open) {
      setOpen(false);
    }
  };

  const showList = open && text.trim() !== '' && suggestions.length > 0;

  return (
    <div
      className="searchbox"
      ref={boxRef}
      onBlur={(event) => {
        if (!boxRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <label className="searchbox__field">
        <span className="visually-hidden">{t('search.label')}</span>
        <Icon name="search" size={18} className="searchbox__icon" />
        <input
          className="searchbox__input"
          type="search"
          role="combobox"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showList && highlight >= 0 ? `${listId}-${highlight}` : undefined}
          placeholder={t('search.placeholder')}
          value={text}
          autoFocus={autoFocus}
          enterKeyHint="search"
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onKeyDown}
        />
      </label>
      {showList ? (
        <ul className="searchbox__list" id={listId} role="listbox" aria-label={t('search.suggestions')}>
          {suggestions.map((user, index) => (
            <li
              key={user._id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === highlight}
              className={`searchbox__option${index === highlight ? ' searchbox__option--active' : ''}`}
              tabIndex={-1}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => chooseUser(user)}
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

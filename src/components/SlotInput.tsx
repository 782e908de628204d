import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '#core/limits';
import type { NameResult } from '../lib/api/types';
import type { Slot } from '../lib/db/db';
import { searchNames } from '../lib/query/posts';
import { UserName } from './remote/Remote';
import { useCombobox } from './useCombobox';
import './SlotInput.css';

interface Props {
  kind: 'mention' | 'group';
  slot: Slot;
  autoFocus?: boolean;
  onChange: (slot: Slot) => void;
  onRemove: () => void;
}

/** One empty list for every render: the combobox ties its highlight to the list it was made in. */
const NONE: NameResult[] = [];

/**
 * A mention or group slot: suggestions 300 ms after typing stops, the first highlighted, picked
 * with a click or with Enter (the arrows choose another; Enter in a slot never sends the post),
 * and hidden while the focus is elsewhere; picking one locks its id, editing the
 * text away from the picked name clears it, Backspace or Delete on an empty slot removes the slot.
 */
export function SlotInput({ kind, slot, autoFocus, onChange, onRemove }: Props) {
  const { t } = useTranslation('common');
  const [found, setResults] = useState<{ query: string; items: NameResult[] }>({ query: '', items: [] });
  const [picked, setPicked] = useState<string | null>(slot.id ? slot.query : null);
  const inputRef = useRef<HTMLInputElement>(null);
  const prefix = kind === 'mention' ? '@' : '&';

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    const query = slot.query.trim();
    if (slot.locked || query === '' || (slot.id && picked === slot.query)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void searchNames(kind === 'mention' ? 'users' : 'mygroups', query, controller.signal).then((found) => {
        if (!controller.signal.aborted) setResults({ query, items: found });
      });
    }, LIMITS.debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [kind, slot.query, slot.id, slot.locked, picked]);

  const results = !slot.locked && !slot.id && found.query === slot.query.trim() ? found.items : NONE;
  const combobox = useCombobox(results, {
    onPick: (r) => {
      setPicked(r.name);
      setResults({ query: '', items: [] });
      onChange({ ...slot, query: r.name, id: r._id });
    },
    // A slot takes only a suggestion: Enter takes the first one unless the arrows chose another.
    highlightFirst: true,
  });
  const label = kind === 'mention' ? t('slot.mention_placeholder') : t('slot.group_placeholder');
  return (
    <div className={`slot slot-${kind}${slot.id ? ' slot-resolved' : ''}`}>
      <span aria-hidden="true">{prefix}</span>
      <input
        {...combobox.inputProps}
        ref={inputRef}
        value={slot.query}
        placeholder={label}
        aria-label={label}
        readOnly={slot.locked}
        maxLength={LIMITS.usernameMax}
        // Left, the slot's list would cover the fields below it (a click on a suggestion keeps the focus).
        onBlur={() => combobox.setOpen(false)}
        onFocus={() => combobox.setOpen(true)}
        onChange={(e) => {
          const query = e.target.value.replace(prefix, '');
          onChange({ ...slot, query, id: slot.id && query === picked ? slot.id : null });
          combobox.setOpen(true);
        }}
        onKeyDown={(e) => {
          if ((e.key === 'Backspace' || e.key === 'Delete') && slot.query === '' && !slot.locked) {
            e.preventDefault();
            onRemove();
          } else combobox.inputProps.onKeyDown(e);
        }}
      />
      {!slot.locked && (
        <button type="button" className="slot-remove" aria-label={t('slot.remove')} onClick={onRemove}>
          ×
        </button>
      )}
      {combobox.expanded && (
        <ul className="slot-suggestions" {...combobox.listProps} aria-label={t('slot.suggestions')}>
          {results.map((r, i) => (
            <li key={r._id} {...combobox.optionProps(i)}>
              {prefix}
              {/* A community of another server (`name@host`) reads as a remote account's name does. */}
              {kind === 'group' ? <UserName username={r.name} /> : r.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

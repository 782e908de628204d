import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '#core/limits';
import type { Slot } from '../lib/db/db';
import { NameSuggestions } from './NameSuggestions';
import { useCombobox } from './useCombobox';
import { type NameKind, useNameSuggestions } from './useNameSuggestions';
import './SlotInput.css';

interface Props {
  kind: NameKind;
  slot: Slot;
  autoFocus?: boolean;
  onChange: (slot: Slot) => void;
  onRemove: () => void;
}

/**
 * A mention or group slot: suggestions 300 ms after typing stops, the first highlighted, picked
 * with a click or with Enter (the arrows choose another; Enter in a slot never sends the post),
 * and hidden while the focus is elsewhere; picking one locks its id, editing the
 * text away from the picked name clears it, Backspace or Delete on an empty slot removes the slot.
 */
export function SlotInput({ kind, slot, autoFocus, onChange, onRemove }: Props) {
  const { t } = useTranslation('common');
  const [picked, setPicked] = useState<string | null>(slot.id ? slot.query : null);
  const inputRef = useRef<HTMLInputElement>(null);
  const prefix = kind === 'mention' ? '@' : '&';

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const results = useNameSuggestions(kind, slot.query, slot.locked || !!slot.id);
  const combobox = useCombobox(results, {
    onPick: (r) => {
      setPicked(r.name);
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
      <NameSuggestions kind={kind} items={results} combobox={combobox} />
    </div>
  );
}

import { type KeyboardEvent, useState } from 'react';
import { type TypedTag, typedTagAt } from '#core/text';
import type { NameResult } from '../../lib/api/types';
import { type Combobox, useCombobox } from '../useCombobox';
import { type NameKind, useNameSuggestions } from '../useNameSuggestions';
import type { SlotKind } from './useEditor';

/** Keys the list takes while it is open; every other key (and these, with it closed) is the text's. */
const LIST_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Enter', 'Escape']);

export interface TextSuggestionsOptions {
  text: string;
  /** Whether `&name` offers groups (the editor takes group slots). */
  groups: boolean;
  /** Puts the chosen name into the text: the new text and where the caret goes. */
  onText: (text: string, caret: number) => void;
  /** Adds the chosen account or group as a slot. */
  onPicked: (kind: SlotKind, picked: NameResult) => void;
}

export interface TextSuggestions {
  kind: NameKind;
  items: NameResult[];
  combobox: Combobox;
  /** The text area's part: where the caret is, and the keys of the list. */
  textProps: {
    'aria-autocomplete': 'list';
    'aria-controls': string | undefined;
    'aria-activedescendant': string | undefined;
    onSelect: (event: { currentTarget: HTMLTextAreaElement }) => void;
    onBlur: () => void;
  };
  /** Notes the caret after a change of the text, and opens the list again. */
  onChange: (field: HTMLTextAreaElement) => void;
  /** Handles a key of the text area when it belongs to the open list; answers whether it did. */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
}

/**
 * Suggestions for a name typed into the text: `@` and the start of a name offers accounts, `&`
 * groups, from the same search as the slots, listed under the text. The first is highlighted,
 * the arrows move, Enter takes one (writing the whole name into the text and adding its slot),
 * Escape closes the list.
 */
export function useTextSuggestions({ text, groups, onText, onPicked }: TextSuggestionsOptions): TextSuggestions {
  const [caret, setCaret] = useState<number | null>(null);
  const found = caret === null ? null : typedTagAt(text, caret);
  const tag: TypedTag | null = found && (found.sign === '@' || groups) ? found : null;
  const kind: NameKind = tag?.sign === '&' ? 'group' : 'mention';
  const items = useNameSuggestions(kind, tag?.query ?? '', !tag);
  const combobox = useCombobox(items, {
    onPick: (picked) => {
      if (!tag || caret === null) return;
      const after = text.slice(caret);
      const written = `${tag.sign}${picked.name}${/^\s/u.test(after) ? '' : ' '}`;
      const next = text.slice(0, tag.start) + written + after;
      const at = tag.start + written.length;
      setCaret(at);
      onText(next, at);
      onPicked(kind === 'mention' ? 'mentions' : 'groups', picked);
    },
    highlightFirst: true,
  });
  const { expanded } = combobox;
  return {
    kind,
    items,
    combobox,
    textProps: {
      'aria-autocomplete': 'list',
      'aria-controls': expanded ? combobox.listProps.id : undefined,
      'aria-activedescendant': combobox.inputProps['aria-activedescendant'],
      onSelect: (event) => setCaret(event.currentTarget.selectionStart),
      // Left, the list would cover what is under the text (a click on a suggestion keeps the focus).
      onBlur: () => setCaret(null),
    },
    onChange: (field) => {
      setCaret(field.selectionStart);
      combobox.setOpen(true);
    },
    onKeyDown: (event) => {
      if (!expanded || !LIST_KEYS.has(event.key) || event.ctrlKey || event.metaKey) return false;
      combobox.inputProps.onKeyDown(event);
      return true;
    },
  };
}

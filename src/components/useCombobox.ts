import { type KeyboardEvent, type MouseEvent, useId, useState } from 'react';

export interface ComboboxOptions<T> {
  /** Takes a suggestion: Enter on the highlighted one, or a click. */
  onPick: (item: T) => void;
  /** Enter with no suggestion highlighted; without it such an Enter does nothing. */
  onEnter?: () => void;
  /**
   * A new list starts with its first suggestion highlighted, so a plain Enter takes it (a field
   * that only ever takes a suggestion); otherwise with none, and Enter is the field's own.
   */
  highlightFirst?: boolean;
}

export interface Combobox {
  /** Whether the list is on screen: open, with something in it. */
  expanded: boolean;
  /** The highlighted suggestion's index; -1 for none. */
  highlight: number;
  /** Shows the list again (the user typed) or hides it (the focus left). */
  setOpen: (open: boolean) => void;
  /** The text field's role, states and keys. */
  inputProps: {
    role: 'combobox';
    'aria-expanded': boolean;
    'aria-controls': string;
    'aria-autocomplete': 'list';
    'aria-activedescendant': string | undefined;
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  };
  listProps: { id: string; role: 'listbox' };
  optionProps: (index: number) => {
    id: string;
    role: 'option';
    'aria-selected': boolean;
    onMouseDown: (event: MouseEvent) => void;
    onClick: () => void;
  };
}

/**
 * A text field with a list of suggestions under it, kept by the keyboard as screen readers expect:
 * the focus stays in the field while the arrows move a highlight through the list, Enter takes the
 * highlighted suggestion (and never submits the form around the field), and Escape hides the list.
 * An Escape with the list already hidden is left to the page (a dialog around it closes).
 */
export function useCombobox<T>(items: readonly T[], { onPick, onEnter, highlightFirst = false }: ComboboxOptions<T>): Combobox {
  const listId = useId();
  const [open, setOpen] = useState(true);
  // The highlight belongs to the list it was made in: a new answer starts afresh.
  const [moved, setMoved] = useState<{ items: readonly T[]; index: number }>({ items, index: -1 });
  const count = items.length;
  const expanded = open && count > 0;
  const highlight = !expanded ? -1 : moved.items === items ? moved.index : highlightFirst ? 0 : -1;
  const optionId = (index: number) => `${listId}-${index}`;

  const move = (step: 1 | -1) => {
    // From a hidden list, or from no highlight, the arrows start at the end they point from.
    const from = expanded ? highlight : -1;
    const index = from < 0 ? (step > 0 ? 0 : count - 1) : (from + step + count) % count;
    setMoved({ items, index });
    setOpen(true);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Keys that finish an input method's composition belong to it.
    if (event.nativeEvent.isComposing) return;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count > 0) {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = highlight >= 0 ? items[highlight] : undefined;
      if (item !== undefined) onPick(item);
      else onEnter?.();
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  return {
    expanded,
    highlight,
    setOpen,
    inputProps: {
      role: 'combobox',
      'aria-expanded': expanded,
      'aria-controls': listId,
      'aria-autocomplete': 'list',
      'aria-activedescendant': highlight >= 0 ? optionId(highlight) : undefined,
      onKeyDown,
    },
    listProps: { id: listId, role: 'listbox' },
    optionProps: (index) => ({
      id: optionId(index),
      role: 'option',
      'aria-selected': index === highlight,
      // The focus stays in the field, as it does when the keys pick.
      onMouseDown: (event) => event.preventDefault(),
      onClick: () => {
        const item = items[index];
        if (item !== undefined) onPick(item);
      },
    }),
  };
}

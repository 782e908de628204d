import { useEffect, useState } from 'react';
import { LIMITS } from '#core/limits';
import type { NameResult } from '../lib/api/types';
import { searchNames } from '../lib/query/posts';

/** What a name suggestion names: an account (a mention) or a group the writer may post in. */
export type NameKind = 'mention' | 'group';

/** One empty list for every render: the combobox ties its highlight to the list it was made in. */
const NONE: NameResult[] = [];

/**
 * The accounts or groups matching a name being typed, asked 300 ms after typing stops; the list
 * answers only the query it was asked for (empty while a newer one is on its way, or when `off`).
 */
export function useNameSuggestions(kind: NameKind, text: string, off = false): NameResult[] {
  const [found, setFound] = useState<{ kind: NameKind; query: string; items: NameResult[] }>({ kind, query: '', items: NONE });
  const query = text.trim();
  useEffect(() => {
    if (off || query === '') return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void searchNames(kind === 'mention' ? 'users' : 'mygroups', query, controller.signal).then((items) => {
        if (!controller.signal.aborted) setFound({ kind, query, items });
      });
    }, LIMITS.debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [kind, query, off]);
  return !off && query !== '' && found.kind === kind && found.query === query ? found.items : NONE;
}

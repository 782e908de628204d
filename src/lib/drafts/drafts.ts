import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Draft } from '../db/db';
import { useDb } from '../db/useDb';
import { type DraftContent, clearDraft, emptyDraft, loadDraft, saveDraft } from './store';

export * from './store';

/** Drafts returned beside the main one (see returnToDrafts). */
export function useReturnedDrafts(key: string): Draft[] {
  const db = useDb();
  return useLiveQuery(() => db.drafts.where('key').startsWith(`${key}#`).toArray(), [db, key], []);
}

export const DRAFT_SAVE_DELAY_MS = 500;

export interface UseDraft {
  /** False until the stored draft (if any) was read. */
  ready: boolean;
  draft: DraftContent;
  /** Updates the draft; it is written to the database after a short pause. */
  update: (change: Partial<DraftContent> | ((d: DraftContent) => Partial<DraftContent>)) => void;
  /** Writes a pending change now. */
  flush: () => Promise<void>;
  /** Empties the draft and removes it from the database. */
  clear: () => Promise<void>;
  /** Replaces the draft with another one (a returned draft), removing that one. */
  adopt: (other: Draft) => Promise<void>;
}

/**
 * A draft autosaved to the database (debounced), so the composer's or a comment box's text,
 * slots and images survive a reload or a crash. `seed` (keep it memoized) starts a draft that
 * does not exist yet.
 */
export function useDraft(key: string, seed?: DraftContent): UseDraft {
  const db = useDb();
  const [draft, setDraft] = useState<DraftContent>(() => seed ?? emptyDraft());
  const [loaded, setLoaded] = useState<string | null>(null);
  const ready = loaded === `${db.name}/${key}`;
  const latest = useRef(draft);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const write = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!dirty.current) return;
    dirty.current = false;
    try {
      await saveDraft(key, latest.current, db);
    } catch (err) {
      // The account's database was closed or deleted (logout) under an open editor.
      if ((err as Error)?.name !== 'DatabaseClosedError') throw err;
    }
  }, [db, key]);

  useEffect(() => {
    let cancelled = false;
    void loadDraft(key, db).then((stored) => {
      if (cancelled) return;
      const content: DraftContent = stored
        ? {
          text: stored.text,
          mentions: stored.mentions,
          groups: stored.groups,
          images: stored.images,
          ...(stored.contentWarning !== undefined ? { contentWarning: stored.contentWarning } : {}),
          ...(stored.returnedError ? { returnedError: stored.returnedError } : {}),
        }
        : (seed ?? emptyDraft());
      latest.current = content;
      setDraft(content);
      setLoaded(`${db.name}/${key}`);
    }, (err) => {
      if ((err as Error)?.name !== 'DatabaseClosedError') console.error('draft', err);
    });
    return () => {
      cancelled = true;
      write().catch((err) => console.error('draft', err));
    };
  }, [db, key, seed, write]);

  const update = useCallback<UseDraft['update']>(
    (change) => {
      const next = { ...latest.current, ...(typeof change === 'function' ? change(latest.current) : change) };
      latest.current = next;
      setDraft(next);
      dirty.current = true;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => write().catch((err) => console.error('draft', err)), DRAFT_SAVE_DELAY_MS);
    },
    [write],
  );

  const clear = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    dirty.current = false;
    const content = seed ?? emptyDraft();
    latest.current = content;
    setDraft(content);
    await clearDraft(key, db);
  }, [db, key, seed]);

  const adopt = useCallback(
    async (other: Draft) => {
      const content: DraftContent = {
        text: other.text,
        mentions: other.mentions,
        groups: other.groups,
        images: other.images,
        ...(other.contentWarning !== undefined ? { contentWarning: other.contentWarning } : {}),
      };
      latest.current = content;
      setDraft(content);
      dirty.current = true;
      await write();
      await db.drafts.delete(other.key);
    },
    [db, write],
  );

  return { ready, draft, update, flush: write, clear, adopt };
}

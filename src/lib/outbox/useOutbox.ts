import { useLiveQuery } from 'dexie-react-hooks';
import type { Post } from '../api/types';
import type { OutboxRow, OutboxRowOf } from '../db/db';
import { useDb } from '../db/useDb';
import { editOverlay, editTarget } from './kinds/edit';
import { likeOverlay, likeTarget } from './kinds/like';
import type { PendingPostRow } from './kinds/post';

/**
 * The outbox as screens read it: live queries of waiting rows, shown through their kind's overlay
 * (`kinds/<kind>.ts`). Apart from the kinds' modules, which the service worker imports and which
 * therefore stay free of React.
 */

type PendingRow<K extends 'post' | 'comment'> = OutboxRowOf<K>;

/**
 * Posts or comments waiting in the outbox (not created on the server yet) that `keep` keeps,
 * oldest first (newest first with `newestFirst`). The read runs again when `deps` change.
 */
export function usePendingRows<K extends 'post' | 'comment'>(
  kind: K,
  options: { keep?: (row: PendingRow<K>) => boolean; deps: readonly unknown[]; newestFirst?: boolean },
): PendingRow<K>[] {
  const db = useDb();
  const { keep, deps, newestFirst = false } = options;
  return useLiveQuery(
    async () => {
      const rows = (await db.outbox.where('kind').equals(kind).sortBy('seq')) as PendingRow<K>[];
      const pending = rows.filter((r) => !(r as OutboxRowOf<'post' | 'comment'>).createdId && (!keep || keep(r)));
      return newestFirst ? pending.reverse() : pending;
    },
    // keep is read through deps, which the caller names.
    [db, kind, newestFirst, ...deps],
    [],
  );
}

/** Posts waiting in the outbox (not created on the server yet), oldest first. */
export function usePendingPosts(filter?: (row: PendingPostRow) => boolean): PendingPostRow[] {
  return usePendingRows('post', { keep: filter, deps: [filter] });
}

/** The rows waiting for one target (a like's, an edit's), oldest first. */
function useTargetRows(target: string): OutboxRow[] {
  const db = useDb();
  return useLiveQuery(() => db.outbox.where('target').equals(target).toArray(), [db, target], []);
}

/** The like state to show: the server's, unless a like of this target is waiting in the outbox. */
export function useLikeState(target: 'post' | 'comment', id: string, server: { liked: boolean; likes: number }) {
  return likeOverlay(useTargetRows(likeTarget(target, id)), server);
}

/**
 * The post as its author last wrote it: an edit waiting in the outbox shows over the stored copy,
 * which a refresh from the server may have put back to the text the server still holds.
 */
export function usePendingEdit<P extends Post>(post: P): P {
  return editOverlay(useTargetRows(editTarget(post._id)), post);
}

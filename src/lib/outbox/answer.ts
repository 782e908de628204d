import { liveQuery } from 'dexie';
import { type KruhDb, getDb } from '../db/db';

/**
 * What became of a queued item within `ms`: `left` once the outbox is done with it (sent, or
 * refused and given back), `waiting` while it still waits (offline, a retry after a failure, a
 * slow server), so a screen may wait briefly for the server's answer and leave the rest to the
 * outbox.
 */
export function outboxAnswer(seq: number, ms: number, db: KruhDb = getDb()): Promise<'left' | 'waiting'> {
  return new Promise((resolve) => {
    let finished = false;
    const done = (answer: 'left' | 'waiting') => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // Unsubscribed after this turn: the subscription may answer before it is assigned.
      queueMicrotask(() => subscription.unsubscribe());
      resolve(answer);
    };
    const timer = setTimeout(() => done('waiting'), ms);
    const subscription = liveQuery(() => db.outbox.get(seq)).subscribe({
      next: (row) => {
        if (!row) done('left');
        else if (row.status === 'failed') done('waiting');
      },
      error: () => done('waiting'),
    });
  });
}

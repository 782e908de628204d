import { blocksApi } from '#core/api/blocks';
import { callApi } from '../../api/client';
import { type KruhDb, type SafetyAction, getDb } from '../../db/db';
import { withRoom } from '../../db/prune';
import { hideOnStoredPages } from '../../query/safety-pages';
import { foldToggle, sendQueued } from '../queue';
import { type OutboxHandler, type OutboxRowOf, idempotent } from './handler';

export interface SafetyPayload {
  action: SafetyAction;
  /** The user's id, or the hashtag (lowercase, without #). */
  subject: string;
  /** The state to set on the server. */
  on: boolean;
  /** The state as last known when the first change was made (a refusal goes back to it). */
  from: boolean;
  /** The user's name, for the lists and messages while only local. */
  label?: string;
}

declare module '../../db/db' {
  interface OutboxKinds {
    safety: { payload: SafetyPayload; target: string };
  }
}

/** Where the account's own state of a block or mute is kept (the meta table), as the screens read it. */
export const safetyStateKey = (action: SafetyAction, subject: string) => `safety:${action}:${subject}`;

export async function setSafetyState(db: KruhDb, action: SafetyAction, subject: string, on: boolean): Promise<void> {
  await db.meta.put({ key: safetyStateKey(action, subject), value: on });
}

/**
 * Sets a block, a mute or a muted hashtag to `on`. Like a like, changes of one subject not sent yet
 * fold into one row, and going back to the server's state removes it. The state the screens read
 * changes at once, and what a new block or mute hides leaves the stored pages in the same moment.
 */
export async function queueSafety(
  action: SafetyAction,
  subject: string,
  on: boolean,
  { label, from }: { label?: string; from?: boolean } = {},
  db: KruhDb = getDb(),
): Promise<void> {
  await withRoom(db, () => db.transaction('rw', db.outbox, db.meta, async () => {
    // `from` is the state a screen saw from the server (a list of blocked users) when this device kept none.
    const known = from ?? (await db.meta.get(safetyStateKey(action, subject)))?.value === true;
    await setSafetyState(db, action, subject, on);
    await foldToggle<OutboxRowOf<'safety'>>(db, {
      kind: 'safety',
      target: safetyStateKey(action, subject),
      state: 'on',
      known,
      change: { action, subject, on, ...(label ? { label } : {}) },
    });
  }));
  if (on) await hideOnStoredPages(db, action, subject);
  sendQueued();
}

function send(action: SafetyAction, subject: string, on: boolean, options: ReturnType<typeof idempotent>) {
  switch (action) {
    case 'block':
      return callApi(on ? blocksApi.block : blocksApi.unblock, { params: { pfp: subject } }, options);
    case 'mute':
      return callApi(on ? blocksApi.mute : blocksApi.unmute, { params: { pfp: subject } }, options);
    case 'muteTag':
      return callApi(on ? blocksApi.muteTag : blocksApi.unmuteTag, { params: { tag: subject } }, options);
  }
}

/**
 * A block, a mute or a muted hashtag set or lifted. The local state and the stored pages changed
 * when it was queued; the server's answer changes nothing more. A refusal puts the state back.
 */
export const safetyHandler: OutboxHandler<OutboxRowOf<'safety'>> = {
  async send(_db, row) {
    const { action, subject, on } = row.payload;
    await send(action, subject, on, idempotent(row));
  },

  refusedFallback: 'server_error',

  async giveBack(db, row) {
    const { action, subject, from } = row.payload;
    await setSafetyState(db, action, subject, from);
  },
};

import { blocksApi } from '#core/api/blocks';
import { callApi } from '../../api/client';
import type { KruhDb, SafetyAction } from '../../db/db';
import { type OutboxHandler, type OutboxRowOf, idempotent } from './handler';

/** Where the account's own state of a block or mute is kept (the meta table), as the screens read it. */
export const safetyStateKey = (action: SafetyAction, subject: string) => `safety:${action}:${subject}`;

export async function setSafetyState(db: KruhDb, action: SafetyAction, subject: string, on: boolean): Promise<void> {
  await db.meta.put({ key: safetyStateKey(action, subject), value: on });
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

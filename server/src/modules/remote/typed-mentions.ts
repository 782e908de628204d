import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import { handlesInText } from '#core/text';
import type { Executor } from '../../db/schema.js';
import { findUsersByIdOrName } from '../../db/users.js';
import type { Viewer } from '../../plugins/auth.js';
import { lookUpTypedHandles } from './remote-lookup.js';

/**
 * A fediverse handle a local author types into a post or a comment (`@bob@other.example`) mentions
 * the account of that handle, as choosing it would. Posts and comments both go through these two
 * steps, so the two never count or look up handles differently.
 */

/**
 * Makes the accounts of the handles a text names known here, asking their servers (as the user
 * search does, counted against the author's remote look-ups). Called before the writing's
 * transaction: the servers may take a while to answer.
 */
export async function prepareTypedMentions(app: FastifyInstance, viewer: Viewer, text: unknown): Promise<void> {
  if (typeof text === 'string') await lookUpTypedHandles(app, viewer.id, handlesInText(text).slice(0, LIMITS.mentionsPerPost));
}

/**
 * The accounts the text names by handle (found by `prepareTypedMentions`), in the text's order,
 * leaving out those among the chosen mentions (by account id, null for a name matching nobody) and
 * any past the room the chosen ones leave within the limit of mentions.
 */
export async function typedMentionAccounts(db: Executor, text: string, chosen: (string | null)[]): Promise<{ id: string; username: string }[]> {
  const handles = handlesInText(text);
  const room = LIMITS.mentionsPerPost - chosen.length;
  if (handles.length === 0 || room <= 0) return [];
  const rows = await findUsersByIdOrName(db, [], handles.map((handle) => handle.toLowerCase()));
  const taken = new Set(chosen);
  const found: { id: string; username: string }[] = [];
  for (const handle of handles) {
    const row = rows.find((user) => user.username_lower === handle.toLowerCase());
    if (!row || taken.has(row.id) || found.length >= room) continue;
    taken.add(row.id);
    found.push({ id: row.id, username: row.username });
  }
  return found;
}

import { Temporal } from '@js-temporal/polyfill';
import { Note, Tombstone } from '@fedify/fedify/vocab';
import type { Executor } from '../../../db/schema.js';
import { commentNoteUrl, postNoteUrl } from './comment-note.js';
import { type NoteKind, addTombstone, tombstoneDeletedAt } from './outbound.repository.js';

export type { NoteKind };

/**
 * The Notes of deleted posts and comments another server could read: their addresses answer 410
 * Gone with a Tombstone, so a server that fetches one later (a reply to it, a boost, a refresh)
 * learns it was deleted and drops its copy, where a 404 would leave it unsure. Only what a visitor
 * could read is kept: a private group's post was never anyone's to know of, and stays unknown.
 */

export async function recordTombstone(db: Executor, kind: NoteKind, id: string, now: number = Date.now()): Promise<void> {
  await addTombstone(db, kind, id, now);
}

/** The 410 answer at a deleted Note's address, or null when no Note was ever deleted there. */
export async function goneResponse(db: Executor, origin: string, kind: NoteKind, id: string): Promise<Response | null> {
  const deletedAt = await tombstoneDeletedAt(db, kind, id);
  if (deletedAt === undefined) return null;
  const address = kind === 'post' ? postNoteUrl(origin, id) : commentNoteUrl(origin, id);
  const tombstone = new Tombstone({ id: address, formerType: Note, deleted: Temporal.Instant.fromEpochMilliseconds(deletedAt) });
  return new Response(JSON.stringify(await tombstone.toJsonLd()), {
    status: 410,
    headers: { 'Content-Type': 'application/activity+json', Vary: 'Accept' },
  });
}

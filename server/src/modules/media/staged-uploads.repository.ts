import { changedRows } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';

/** Queries of the pictures apps upload ahead of their status (`staged_uploads`). */

export interface StagedUploadRow {
  id: string;
  owner_id: string;
  description: string;
  focus: string | null;
  width: number;
  height: number;
  bytes: number;
  animated: number;
  created_at: number;
  attached_to: string | null;
}

export type NewStagedUpload = Omit<StagedUploadRow, 'attached_to'>;

export async function insertStagedUpload(db: Executor, row: NewStagedUpload): Promise<void> {
  await db.insertInto('staged_uploads').values(row).execute();
}

/** The uploads of these ids, whoever made them. */
export async function findStagedUploads(db: Executor, ids: readonly string[]): Promise<StagedUploadRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('staged_uploads').selectAll().where('id', 'in', [...ids]).execute();
}

/** Sets the description and focus of an upload no status carries yet: false when none is left to change. */
export async function describeStagedUpload(db: Executor, id: string, fields: { description?: string; focus?: string | null }): Promise<boolean> {
  if (fields.description === undefined && fields.focus === undefined) return true;
  return changedRows(await db.updateTable('staged_uploads').set(fields).where('id', '=', id).where('attached_to', 'is', null).executeTakeFirst());
}

/**
 * Marks an upload as carried by the post or comment: false when another status took it first, so
 * two statuses sent at once never both carry it.
 */
export async function markStagedUploadAttached(db: Executor, id: string, ownerId: string): Promise<boolean> {
  return changedRows(await db.updateTable('staged_uploads').set({ attached_to: ownerId }).where('id', '=', id).where('attached_to', 'is', null).executeTakeFirst());
}

/** The ids of every upload of the person, attached or not. */
export async function stagedUploadIdsOf(db: Executor, ownerId: string): Promise<string[]> {
  return (await db.selectFrom('staged_uploads').select('id').where('owner_id', '=', ownerId).execute()).map((row) => row.id);
}

/** Up to `limit` uploads made before the time, oldest first. */
export async function stagedUploadsBefore(db: Executor, before: number, limit: number): Promise<{ id: string; attached_to: string | null }[]> {
  return db.selectFrom('staged_uploads').select(['id', 'attached_to']).where('created_at', '<', before).orderBy('created_at').limit(limit).execute();
}

export async function deleteStagedUploads(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('staged_uploads').where('id', 'in', [...ids]).execute();
}

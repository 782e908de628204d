import type { Kysely } from 'kysely';
import { msType } from './table-shapes.js';

/**
 * The version of the media a row names: the storage time (epoch ms) of its newest bytes, for an
 * avatar (users, groups) or the images of a post or comment. It goes into the media URL, so bytes
 * replaced under the same storage key come under a new address and `immutable` caching stays
 * true. 0 means unknown (rows from before this migration): such URLs carry no version and are
 * revalidated instead.
 */
const COLUMNS = [
  ['users', 'pfp_version'],
  ['groups', 'gp_version'],
  ['posts', 'media_version'],
  ['comments', 'media_version'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  for (const [table, column] of COLUMNS) {
    await db.schema.alterTable(table).addColumn(column, ms, (c) => c.notNull().defaultTo(0)).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of COLUMNS) await db.schema.alterTable(table).dropColumn(column).execute();
}

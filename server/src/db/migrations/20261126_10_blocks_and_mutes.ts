import type { Kysely } from 'kysely';
import { createPairTable, msType } from './table-shapes.js';

/**
 * Blocks and mutes. A block stands between two users in both directions, so it is looked up by
 * either end: by its primary key from the blocker's side and by `user_blocks_blocked` from the
 * blocked one's. Mutes are read only from the muter's side (their feeds and notifications), which
 * the primary keys cover. Each list is shown newest first, hence the `_list` indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  await createPairTable(db, 'user_blocks', ['blocker_id', 'users.id'], ['blocked_id', 'users.id'])
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_blocks_blocked').on('user_blocks').columns(['blocked_id', 'blocker_id']).execute();
  await db.schema.createIndex('user_blocks_list').on('user_blocks').columns(['blocker_id', 'created_at', 'blocked_id']).execute();

  await createPairTable(db, 'user_mutes', ['muter_id', 'users.id'], ['muted_id', 'users.id'])
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_mutes_list').on('user_mutes').columns(['muter_id', 'created_at', 'muted_id']).execute();

  await createPairTable(db, 'tag_mutes', ['user_id', 'users.id'], ['tag'])
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tag_mutes_list').on('tag_mutes').columns(['user_id', 'created_at', 'tag']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tag_mutes', 'user_mutes', 'user_blocks']) await db.schema.dropTable(table).ifExists().execute();
}

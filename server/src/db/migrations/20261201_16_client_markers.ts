import type { Kysely } from 'kysely';
import { createPairTable, msType } from './table-shapes.js';

/**
 * Where each person stopped reading a timeline in a fediverse app (home, notifications), so another
 * app of theirs opens at the same place: the last status read, a version counting the saves, and
 * when the last was made. The row goes with its account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createPairTable(db, 'client_markers', ['user_id', 'users.id'], ['timeline'])
    .addColumn('last_read_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', msType(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_markers').execute();
}

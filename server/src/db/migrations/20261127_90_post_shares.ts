import type { Kysely } from 'kysely';
import { createPairTable } from './table-shapes.js';

/**
 * Posts passed on by an account other than their author: a community of another server (a Lemmy
 * community, another Kruh's group) announces its members' posts to its followers. Whoever follows
 * the community here reads those posts in their following feed, though the post stays its author's.
 * A share is kept once per post and sharer; it goes with the post or the sharing account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createPairTable(db, 'post_shares', ['sharer_id', 'users.id'], ['post_id', 'posts.id'])
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A feed walking posts newest first asks of each whether someone followed shared it.
  await db.schema.createIndex('post_shares_post').on('post_shares').columns(['post_id', 'sharer_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('post_shares').ifExists().execute();
}

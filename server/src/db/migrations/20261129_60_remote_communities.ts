import { type Kysely, sql } from 'kysely';
import { createPairTable } from './table-shapes.js';

/**
 * Communities of other servers (a Lemmy community, another Kruh's public group: a `Group` actor)
 * that local users post into:
 * - `remote_actors.is_group`: the actor is a Group, so a post may go into it. What was known before
 *   is a Group when it passed a post on here (only a Group's announces are kept as shares); any
 *   other is read again when its account is next refreshed.
 * - `post_remote_groups`: the remote communities a post is in: a local post its author posted into
 *   one they follow, or a remote post whose Note named a known community as its audience. Comments
 *   under such a post go to the community too. A row goes with its post or the community's account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('remote_actors').addColumn('is_group', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update remote_actors set is_group = 1 where user_id in (select sharer_id from post_shares)`.execute(db);
  await createPairTable(db, 'post_remote_groups', ['post_id', 'posts.id'], ['account_id', 'users.id'])
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  // An account's deletion finds the rows naming it.
  await db.schema.createIndex('post_remote_groups_account').on('post_remote_groups').column('account_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('post_remote_groups').ifExists().execute();
  await db.schema.alterTable('remote_actors').dropColumn('is_group').execute();
}

import { type Kysely, sql } from 'kysely';
import { onPostgres, ownedBy } from './table-shapes.js';

/**
 * The accounts that ever passed a post on (communities of other servers announcing their members'
 * posts). Few on any server, so asking whether a reader follows one loops over them rather than
 * over the reader's follows. A row stays when its shares go: it only makes a feed read the longer
 * statement, which finds the same posts. Filled here from the shares as they stand.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('post_sharers').addColumn('user_id', 'text', (c) => ownedBy('users.id')(c).primaryKey()).execute();
  await sql`insert into post_sharers (user_id) select distinct sharer_id from post_shares`.execute(db);
  // PostgreSQL guesses a never-analysed table holds about a thousand rows, and with that guess plans
  // the feed's question of it again on every call; autovacuum analyses it only after fifty inserts.
  if (onPostgres(db)) await sql`analyze post_sharers`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('post_sharers').execute();
}

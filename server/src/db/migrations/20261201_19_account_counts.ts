import { type Kysely, sql } from 'kysely';
import { ownedBy } from './table-shapes.js';

/**
 * Each account's followers, the people it follows and its posts anyone may count (those in no
 * private group), kept by the writes that change them so a page of accounts reads them instead of
 * counting. The row goes with its account; an account without one counts nothing yet. Filled here
 * from the rows as they stand.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_counts')
    .addColumn('user_id', 'text', (c) => ownedBy('users.id')(c).primaryKey())
    .addColumn('followers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('following', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('statuses', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    insert into account_counts (user_id, followers, following, statuses)
    select u.id,
      (select count(*) from follows f where f.following_id = u.id),
      (select count(*) from follows f where f.follower_id = u.id),
      (select count(*) from posts p where p.author_id = u.id and not exists (
        select 1 from post_groups pg inner join groups g on g.id = pg.group_id where pg.post_id = p.id and g.is_private = 1))
    from users u`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_counts').execute();
}

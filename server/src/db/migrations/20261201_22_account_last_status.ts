import { type Kysely, sql } from 'kysely';
import { msType } from './table-shapes.js';

/**
 * When each account last posted, as anyone may count it: its newest post in no private group, the
 * same post its count of posts goes by. Kept beside that count by the writes that change it, so an
 * account shown with a page of posts is not looked up post by post. Filled here from the posts as
 * they stand; null for an account that never posted where anyone can see.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_counts').addColumn('last_status_at', msType(db)).execute();
  await sql`
    update account_counts set last_status_at = (
      select p.created_at from posts p where p.author_id = account_counts.user_id and not exists (
        select 1 from post_groups pg inner join groups g on g.id = pg.group_id where pg.post_id = p.id and g.is_private = 1)
      order by p.created_at desc limit 1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_counts').dropColumn('last_status_at').execute();
}

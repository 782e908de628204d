import { type Kysely, sql } from 'kysely';
import { createPairTable, msType } from './table-shapes.js';

/**
 * What the fediverse is told of the instance's people and posts:
 * - each account chooses whether fediverse servers may list it in their directories
 *   (`discoverable`) and put its posts in their search (`indexable`); both on, since everything
 *   outside a private group is public already;
 * - a post written with pictures to follow waits for them before it goes out
 *   (`awaiting_pictures`: how many the app said it would upload; 0 when it waits for none);
 * - the Notes of deleted posts and comments that were public, so their addresses answer "gone"
 *   rather than "never was" (`note_tombstones`);
 * - a remote actor's follow of a local user is a follow like any other (its account follows the
 *   user), so the follows kept before count too, for the actors that have an account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  await db.schema.alterTable('users').addColumn('discoverable', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('users').addColumn('indexable', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('posts').addColumn('awaiting_pictures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await createPairTable(db, 'note_tombstones', ['kind'], ['id'])
    .addColumn('deleted_at', ms, (c) => c.notNull())
    .execute();
  await sql`
    insert into follows (follower_id, following_id, notify, created_at)
    select remote_actors.user_id, remote_follows.local_id, 0, remote_follows.created_at
    from remote_follows
    join remote_actors on remote_actors.id = remote_follows.remote_actor_id
    join users on users.id = remote_follows.local_id
    where remote_actors.user_id is not null
    on conflict do nothing
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('note_tombstones').ifExists().execute();
  await db.schema.alterTable('posts').dropColumn('awaiting_pictures').execute();
  await db.schema.alterTable('users').dropColumn('indexable').execute();
  await db.schema.alterTable('users').dropColumn('discoverable').execute();
}

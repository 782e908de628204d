import { type Kysely, sql } from 'kysely';
import { createKeyedTable, createListTable, createPairTable, msType, onPostgres, ownedBy } from './table-shapes.js';

/**
 * The base schema: accounts, follows, posts, comments, groups, notifications and the durable
 * state that must hold across server processes (login attempts, idempotency keys, jobs).
 * Frozen in time: later changes go into new migrations. Times are epoch milliseconds (bigint),
 * flags are 0/1 integers, so both dialects read the same values.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = onPostgres(db);
  const ms = msType(db);

  await createKeyedTable(db, 'users')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('google_sub', 'text', (c) => c.unique())
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('notification_settings', 'text', (c) => c.notNull().defaultTo('[true,true,true,true,true,true]'))
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();

  // One-use links sent by email: address verification, email change, password reset.
  await createKeyedTable(db, 'email_tokens', 'token_hash')
    .addColumn('user_id', 'text', ownedBy('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_tokens_user').on('email_tokens').columns(['user_id', 'purpose']).execute();

  // Failed logins keyed by account and by address; the lockout counts rows inside its window.
  await db.schema
    .createTable('login_failures')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_key').on('login_failures').columns(['key', 'created_at']).execute();

  await createPairTable(db, 'follows', ['follower_id', 'users.id'], ['following_id', 'users.id'])
    .addColumn('notify', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('follows_following').on('follows').columns(['following_id', 'created_at']).execute();
  await db.schema.createIndex('follows_follower').on('follows').columns(['follower_id', 'created_at']).execute();

  await createKeyedTable(db, 'groups')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('owner_id', 'text', ownedBy('users.id'))
    .addColumn('is_private', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('request_join', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('everyone_can_post', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('pinned_post_id', 'text')
    .addColumn('members', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bans', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('groups_owner').on('groups').column('owner_id').execute();

  // role: member | admin | owner. level: per-group notification level 0 all, 1 essential, 2 none.
  await createPairTable(db, 'group_members', ['group_id', 'groups.id'], ['user_id', 'users.id'])
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('group_members_user').on('group_members').columns(['user_id', 'group_id']).execute();
  await db.schema.createIndex('group_members_list').on('group_members').columns(['group_id', 'created_at']).execute();

  for (const table of ['group_bans', 'group_requests']) {
    await createPairTable(db, table, ['group_id', 'groups.id'], ['user_id', 'users.id'])
      .addColumn('created_at', ms, (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_user`).on(table).column('user_id').execute();
  }

  // author_id is null once the author's account is deleted: the post stays, shown as <deleted>.
  // reply_to keeps the original's id without a foreign key, so a reply whose original is gone
  // can still say so.
  await createKeyedTable(db, 'posts')
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('images', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('posts_created').on('posts').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('posts_popular').on('posts').columns(['likes', 'created_at', 'id']).execute();
  await db.schema.createIndex('posts_author').on('posts').columns(['author_id', 'created_at']).execute();
  await db.schema.createIndex('posts_reply_to').on('posts').column('reply_to').execute();

  // Mentions and group tags keep their position and raw text; the id is set when the name resolved.
  await createListTable(db, 'post_mentions', ['post_id', 'posts.id'])
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('username', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_mentions_user').on('post_mentions').column('user_id').execute();

  await createListTable(db, 'post_groups', ['post_id', 'posts.id'])
    .addColumn('group_id', 'text', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_groups_group').on('post_groups').columns(['group_id', 'created_at']).execute();

  await createPairTable(db, 'post_hashtags', ['post_id', 'posts.id'], ['tag'])
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_hashtags_tag').on('post_hashtags').columns(['tag', 'created_at']).execute();

  await createPairTable(db, 'post_likes', ['post_id', 'posts.id'], ['user_id', 'users.id'])
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_likes_user').on('post_likes').column('user_id').execute();

  // post_id is the thread's post; parent_comment_id the direct parent when it is a comment.
  // A deleted comment with replies stays as a marker (deleted = 1, text and author cleared).
  await createKeyedTable(db, 'comments')
    .addColumn('post_id', 'text', ownedBy('posts.id'))
    .addColumn('parent_comment_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('replies', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('images', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_post').on('comments').columns(['post_id', 'parent_comment_id', 'created_at']).execute();
  await db.schema.createIndex('comments_parent').on('comments').columns(['parent_comment_id', 'created_at']).execute();
  await db.schema.createIndex('comments_author').on('comments').columns(['author_id', 'created_at']).execute();
  await db.schema.createIndex('comments_created').on('comments').columns(['created_at', 'id']).execute();

  await createListTable(db, 'comment_mentions', ['comment_id', 'comments.id'])
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('username', 'text', (c) => c.notNull())
    .execute();

  await createPairTable(db, 'comment_likes', ['comment_id', 'comments.id'], ['user_id', 'users.id'])
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();

  await createKeyedTable(db, 'notifications')
    .addColumn('user_id', 'text', ownedBy('users.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('post_id', 'text', (c) => c.references('posts.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('mention_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('seen', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'created_at']).execute();

  // Retries of creating calls: the first answer is kept and replayed for the same user and key.
  await createPairTable(db, 'idempotency_keys', ['user_id', 'users.id'], ['key'])
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();

  // Durable background work (notification fan-out): claimed with a lease, so a restart mid-run
  // hands unfinished jobs to the next worker.
  await db.schema
    .createTable('jobs')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', ms, (c) => c.notNull())
    .addColumn('locked_until', ms)
    .addColumn('last_error', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['run_at', 'id']).execute();

  if (pg) await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'jobs', 'idempotency_keys', 'notifications', 'comment_likes', 'comment_mentions', 'comments',
    'post_likes', 'post_hashtags', 'post_groups', 'post_mentions', 'posts', 'group_requests',
    'group_bans', 'group_members', 'groups', 'follows', 'login_failures', 'email_tokens', 'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

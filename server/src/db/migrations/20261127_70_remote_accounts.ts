import type { Kysely } from 'kysely';
import { createKeyedTable } from './table-shapes.js';

/**
 * Federation, the remote side: a remote actor who writes, likes, or is followed from here gets a
 * local account row (`users`, name `name@host`, no address or password, so it can never sign in)
 * linked from its `remote_actors` row, so its posts, comments and likes are rows like everyone's and
 * every list, count, block and suspension applies to it unchanged. Remote posts and comments keep
 * their object's IRI (`ap_id`, which never changes and dedupes a delivery that comes twice) and the
 * original's page (`ap_url`); a remote post's pictures stay on its server (`remote_media`, JSON of
 * `{url, alt}`). `federation_kv` is Fedify's key-value store (seen activity ids, cached documents),
 * in the database so every server process shares it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('remote_actors').addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade')).execute();
  await db.schema.alterTable('remote_actors').addColumn('url', 'text').execute();
  await db.schema.alterTable('remote_actors').addColumn('domain', 'text').execute();
  await db.schema.createIndex('remote_actors_user_idx').unique().on('remote_actors').column('user_id').execute();
  await db.schema.createIndex('remote_actors_domain_idx').on('remote_actors').column('domain').execute();

  await db.schema.alterTable('posts').addColumn('ap_id', 'text').execute();
  await db.schema.alterTable('posts').addColumn('ap_url', 'text').execute();
  await db.schema.alterTable('posts').addColumn('remote_media', 'text').execute();
  await db.schema.createIndex('posts_ap_id_idx').unique().on('posts').column('ap_id').execute();
  await db.schema.alterTable('comments').addColumn('ap_id', 'text').execute();
  await db.schema.alterTable('comments').addColumn('ap_url', 'text').execute();
  await db.schema.createIndex('comments_ap_id_idx').unique().on('comments').column('ap_id').execute();

  await createKeyedTable(db, 'federation_kv', 'key')
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('federation_kv_expires_idx').on('federation_kv').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('federation_kv').ifExists().execute();
  await db.schema.dropIndex('comments_ap_id_idx').ifExists().execute();
  await db.schema.alterTable('comments').dropColumn('ap_url').execute();
  await db.schema.alterTable('comments').dropColumn('ap_id').execute();
  await db.schema.dropIndex('posts_ap_id_idx').ifExists().execute();
  await db.schema.alterTable('posts').dropColumn('remote_media').execute();
  await db.schema.alterTable('posts').dropColumn('ap_url').execute();
  await db.schema.alterTable('posts').dropColumn('ap_id').execute();
  await db.schema.dropIndex('remote_actors_domain_idx').ifExists().execute();
  await db.schema.dropIndex('remote_actors_user_idx').ifExists().execute();
  await db.schema.alterTable('remote_actors').dropColumn('domain').execute();
  await db.schema.alterTable('remote_actors').dropColumn('url').execute();
  await db.schema.alterTable('remote_actors').dropColumn('user_id').execute();
}

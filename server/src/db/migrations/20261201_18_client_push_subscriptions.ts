import type { Kysely } from 'kysely';
import { createKeyedTable, msType, ownedBy } from './table-shapes.js';

/**
 * Web Push for fediverse apps: at most one subscription per access token (unique), going with its
 * token row and its account. Besides the device's endpoint and keys it keeps which notification
 * types the app wants (`alerts`, JSON) and from whom (`policy`), and the token itself sealed with
 * the instance's secret, since each push tells the app which of its tokens it is for and the token
 * row keeps only a hash.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  let table = createKeyedTable(db, 'client_push_subscriptions')
    .addColumn('token_id', 'text', (c) => c.notNull().unique().references('oauth_tokens.id').onDelete('cascade'))
    .addColumn('user_id', 'text', ownedBy('users.id'));
  for (const column of ['endpoint', 'p256dh', 'auth', 'alerts', 'policy', 'sealed_token']) table = table.addColumn(column, 'text', (c) => c.notNull());
  await table
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('client_push_subscriptions_user').on('client_push_subscriptions').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_push_subscriptions').execute();
}

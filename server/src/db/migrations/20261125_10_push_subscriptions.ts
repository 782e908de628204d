import type { Kysely } from 'kysely';
import { createKeyedTable, ownedBy } from './table-shapes.js';

/**
 * Web Push: one row per device that asked for notifications while the app is closed, unique by the
 * push service's endpoint (a browser re-subscribing, or another account logging in on it, takes
 * the row over). They go with their account. `server_settings` holds what an instance generates
 * once and every process must share, such as the VAPID key pair its pushes are signed with.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createKeyedTable(db, 'push_subscriptions')
    .addColumn('user_id', 'text', ownedBy('users.id'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').columns(['user_id', 'updated_at']).execute();
  await createKeyedTable(db, 'server_settings', 'name')
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_settings').ifExists().execute();
  await db.schema.dropTable('push_subscriptions').ifExists().execute();
}

import type { Kysely } from 'kysely';
import { createKeyedTable, msType } from './table-shapes.js';

/**
 * Apps registered for the client API: each has a public client id, a secret kept only as its
 * SHA-256 (it is random and long, so a slow hash buys nothing), its name and website, the redirect
 * addresses and the scopes it registered with (each list as JSON text).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  await createKeyedTable(db, 'client_apps')
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website', 'text')
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_apps').execute();
}

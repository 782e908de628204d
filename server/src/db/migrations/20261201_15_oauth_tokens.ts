import type { Kysely } from 'kysely';
import { createKeyedTable, msType, ownedBy } from './table-shapes.js';

/**
 * Signing apps in: the authorization codes a person's approval issues and the access tokens apps
 * get for them (or for themselves, with no account). A code or token is random and long, so each is
 * kept only as its SHA-256 (a slow hash buys nothing against 256 random bits), never in clear. A code
 * is used once (`used_at`) and lives minutes; a token stops when revoked, when its account changes
 * its password (`token_version` no longer the account's) or with its account (cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);
  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    // No reference to client_apps: on a new database that table is made by a later migration (apps
    // are never deleted, so nothing would cascade).
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', ownedBy('users.id'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('code_challenge_method', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('used_at', ms)
    .execute();
  await db.schema.createIndex('oauth_codes_user_app').on('oauth_codes').columns(['user_id', 'app_id']).execute();
  await db.schema.createIndex('oauth_codes_expires').on('oauth_codes').column('expires_at').execute();

  await createKeyedTable(db, 'oauth_tokens')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('refresh_hash', 'text', (c) => c.unique())
    .addColumn('app_id', 'text', (c) => c.notNull())
    // Null for a token an app holds for itself (client credentials).
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('token_version', 'integer')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    // Null: the token lasts until revoked, as apps that never refresh expect.
    .addColumn('expires_at', ms)
    .addColumn('revoked_at', ms)
    .addColumn('last_used_at', ms)
    .execute();
  await db.schema.createIndex('oauth_tokens_user_app').on('oauth_tokens').columns(['user_id', 'app_id']).execute();
  await db.schema.createIndex('oauth_tokens_app').on('oauth_tokens').column('app_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_tokens').execute();
  await db.schema.dropTable('oauth_codes').execute();
}

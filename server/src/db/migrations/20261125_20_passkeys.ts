import type { Kysely } from 'kysely';
import { createKeyedTable, msType, ownedBy } from './table-shapes.js';

/**
 * Passkeys: the public half of a key an authenticator keeps for one account, and the one-use
 * challenges handed out before a passkey is added or used to sign in. Keys and ids are stored as
 * base64url text, so both dialects read the same values.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = msType(db);

  await createKeyedTable(db, 'passkeys')
    .addColumn('user_id', 'text', ownedBy('users.id'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', ms, (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('name', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('last_used_at', ms)
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').columns(['user_id', 'created_at']).execute();

  // user_id is the account adding a passkey; a sign-in's challenge belongs to nobody yet.
  await createKeyedTable(db, 'passkey_challenges')
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('rp_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_expires').on('passkey_challenges').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').ifExists().execute();
  await db.schema.dropTable('passkeys').ifExists().execute();
}

import type { Kysely } from 'kysely';

/**
 * Indexes for pruning by age: failed logins past the lockout window and email links past their
 * expiry are deleted in passing, and these keep that delete from scanning the tables.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('login_failures_created').on('login_failures').column('created_at').execute();
  await db.schema.createIndex('email_tokens_expires').on('email_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('email_tokens_expires').ifExists().execute();
  await db.schema.dropIndex('login_failures_created').ifExists().execute();
}

import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Registration by approval and by invitation. registration_applications: a sign-up waiting for a
 * moderator (its reason), or decided (approved or refused, by whom, when); an account with no row
 * signed up while sign-ups were open. invites: invite links, each with its code, its maker, how many
 * sign-ups it admits and until when. The mode itself is a row of server_settings ('registration').
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ms = db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer';
  await db.schema
    .createTable('registration_applications')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('decided_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', ms)
    .execute();
  await db.schema.createIndex('registration_applications_status').on('registration_applications').columns(['status', 'created_at', 'user_id']).execute();

  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invites_maker').on('invites').columns(['created_by', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invites').execute();
  await db.schema.dropTable('registration_applications').execute();
}

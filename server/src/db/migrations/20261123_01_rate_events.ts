import type { Kysely } from 'kysely';

/**
 * One row per counted action (a post, a sign-up, a mail asked for...), keyed by what is limited
 * ("post:<user>", "signup:<address>"). Limits count rows in a sliding window, so every server
 * process enforces the same limit; the job worker deletes rows older than any window.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_events')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_events_key').on('rate_events').columns(['key', 'created_at']).execute();
  await db.schema.createIndex('rate_events_created').on('rate_events').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_events').ifExists().execute();
}

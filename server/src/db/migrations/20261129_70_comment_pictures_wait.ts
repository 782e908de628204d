import type { Kysely } from 'kysely';

/**
 * A comment written with pictures to follow waits for them before it goes to other servers, as a
 * post does (`awaiting_pictures`: how many the app said it would upload; 0 when it waits for none).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').addColumn('awaiting_pictures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').dropColumn('awaiting_pictures').execute();
}

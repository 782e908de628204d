import type { Kysely } from 'kysely';

/**
 * - push_subscriptions.failures: deliveries to the device that failed in a row (error, timeout, no
 *   connection); a delivery sets it back to 0, and the subscription is dropped once it reaches
 *   PUSH_MAX_FAILURES, so a device that keeps failing stops taking work.
 * - jobs_kind_due: the worker claims each kind's due jobs on its own (each kind has its own bound
 *   of jobs at once); without it, finding the one due mail among a million due pushes reads them all.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('push_subscriptions').addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('jobs_kind_due').on('jobs').columns(['kind', 'run_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_kind_due').execute();
  await db.schema.alterTable('push_subscriptions').dropColumn('failures').execute();
}

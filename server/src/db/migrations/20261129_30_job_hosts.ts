import type { Kysely } from 'kysely';
import { createKeyedTable } from './table-shapes.js';

/**
 * - jobs.host: the remote host a job talks to (a delivery's inbox host, with its port), so the
 *   worker runs only a few of one host's jobs at once however many are due; jobs.target: the
 *   address on it (the inbox), whose jobs run one at a time in the order queued. Deliveries already
 *   queued get both from their inbox here.
 * - job_hosts: the hosts whose last request failed, and how: failures in a row, and while the host
 *   is parked, until when (its jobs are not claimed meanwhile) and how many parks in a row (each
 *   lasts longer). A success removes the host's row. In the database, so every process sees it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('host', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('target', 'text').execute();
  // The worker counts a host's leased jobs, and looks for a target's, at every claim.
  await db.schema.createIndex('jobs_host_leased').on('jobs').columns(['host', 'locked_until']).execute();
  await db.schema.createIndex('jobs_target_leased').on('jobs').columns(['target', 'locked_until']).execute();
  await createKeyedTable(db, 'job_hosts', 'host')
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('parks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parked_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  const queued: Array<{ id: number; payload: string }> = await db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', 'federation_delivery').execute();
  for (const { id, payload } of queued) {
    let inbox: URL;
    try {
      inbox = new URL((JSON.parse(payload) as { inbox: string }).inbox);
    } catch {
      continue;
    }
    await db.updateTable('jobs').set({ host: inbox.host, target: inbox.href }).where('id', '=', id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_hosts').ifExists().execute();
  await db.schema.dropIndex('jobs_target_leased').execute();
  await db.schema.dropIndex('jobs_host_leased').execute();
  await db.schema.alterTable('jobs').dropColumn('target').execute();
  await db.schema.alterTable('jobs').dropColumn('host').execute();
}

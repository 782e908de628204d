import { type Kysely, sql } from 'kysely';

/**
 * Idempotency keys remember a fingerprint of the request they were first sent with, so a key
 * reused for something else is refused instead of replayed. Keys now name their endpoint by method
 * and route pattern; stored keys get the new names so retries of calls made before this change still
 * replay. One maintenance job at most: a unique index lets every worker seed it without doubling it.
 */
const ROUTE_NAMES: [string, string][] = [
  ['post:create', 'POST /api/post'],
  ['post:like', 'PATCH /api/post/:postId/like'],
  ['comment-create', 'POST /api/comment/'],
  ['comment-like', 'PATCH /api/comment/:commentId/like'],
  ['group:create', 'POST /api/group'],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('request_hash', 'text').execute();
  for (const [before, after] of ROUTE_NAMES) {
    await db.updateTable('idempotency_keys').set({ route: after }).where('route', '=', before).execute();
  }
  await sql`CREATE UNIQUE INDEX jobs_one_maintenance ON jobs (kind) WHERE kind = 'maintenance'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS jobs_one_maintenance`.execute(db);
  for (const [before, after] of ROUTE_NAMES) {
    await db.updateTable('idempotency_keys').set({ route: before }).where('route', '=', after).execute();
  }
  await db.schema.alterTable('idempotency_keys').dropColumn('request_hash').execute();
}

import type { Executor } from '../../db/schema.js';
import type { PageWindow } from '../../lib/paging.js';

/** The queries of domain blocks; what they mean is in boundaries.ts. */

/** Remote actors on the domain or one of its subdomains (domains hold only `[a-z0-9.-]`, so LIKE needs no escaping). */
const onDomain = (db: Executor, domain: string) =>
  db
    .selectFrom('remote_actors')
    .where((eb) => eb.or([eb('remote_actors.domain', '=', domain), eb('remote_actors.domain', 'like', `%.${domain}`)]));

/** Adds the block; false when the domain was blocked already. */
export async function addBlock(db: Executor, domain: string, by: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('federation_domain_blocks')
    .values({ domain, created_at: now, created_by: by })
    .onConflict((oc) => oc.column('domain').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes the block and answers when it was made; null when there was none. */
export async function removeBlock(db: Executor, domain: string): Promise<number | null> {
  const row = await db.selectFrom('federation_domain_blocks').select('created_at').where('domain', '=', domain).executeTakeFirst();
  if (!row) return null;
  await db.deleteFrom('federation_domain_blocks').where('domain', '=', domain).execute();
  return Number(row.created_at);
}

/** Ends every follow of a local user or group by an actor on the domain. */
export async function removeFollowsFrom(db: Executor, domain: string): Promise<void> {
  await db
    .deleteFrom('remote_follows')
    .where('remote_actor_id', 'in', onDomain(db, domain).select('remote_actors.id'))
    .execute();
}

/** The accounts standing for the domain's actors. */
export async function accountIdsOn(db: Executor, domain: string): Promise<string[]> {
  const rows = await onDomain(db, domain).select('remote_actors.user_id').where('remote_actors.user_id', 'is not', null).execute();
  return rows.flatMap((row) => (row.user_id ? [row.user_id] : []));
}

/** The accounts of the domain's actors suspended at `at`, with their actor's host. */
export async function accountsSuspendedAt(db: Executor, domain: string, at: number): Promise<Array<{ id: string; domain: string }>> {
  const rows = await onDomain(db, domain)
    .innerJoin('users', 'users.id', 'remote_actors.user_id')
    .select(['users.id', 'remote_actors.domain'])
    .where('users.suspended_at', '=', at)
    .execute();
  return rows.map((row) => ({ id: row.id, domain: row.domain ?? domain }));
}

/** A page of the blocked domains, latest first, with the name of who blocked each. */
export async function blocksPage(db: Executor, window: PageWindow) {
  const rows = await db
    .selectFrom('federation_domain_blocks as b')
    .leftJoin('users as u', 'u.id', 'b.created_by')
    .select(['b.domain', 'b.created_at', 'u.username'])
    .orderBy('b.created_at', 'desc')
    .orderBy('b.domain')
    .limit(window.fetch)
    .offset(window.offset)
    .execute();
  return rows.map((row) => ({ domain: row.domain, createdAt: Number(row.created_at), createdBy: row.username ?? null }));
}

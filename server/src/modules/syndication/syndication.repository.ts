import type { Executor } from '../../db/schema.js';
import { groupVisibleTo } from '../../policy/group-access.js';
import { accountNotSuspended } from '../../policy/suspension.js';

/** A sitemap holds at most this many addresses (the sitemaps protocol's limit per file). */
export const SITEMAP_MAX = 50_000;

/**
 * The public profiles a sitemap lists: accounts that verified their address and are not suspended,
 * oldest first, so the list grows at its end.
 */
export async function publicUsernames(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('users.username')
    .where('users.verified', '=', 1)
    .where(accountNotSuspended())
    .orderBy('users.created_at', 'asc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.username);
}

/** The public groups a sitemap lists, largest first. */
export async function publicGroupNames(db: Executor, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('groups').select('groups.name').where(groupVisibleTo(null)).orderBy('groups.members', 'desc').limit(limit).execute();
  return rows.map((row) => row.name);
}

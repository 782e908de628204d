import type { Executor } from './schema.js';

/** Post lookups several modules make (notifications, federation). */

/** Ids of the post's groups that still exist, in tag order. */
export async function groupIdsOfPost(db: Executor, postId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('post_groups')
    .innerJoin('groups', 'groups.id', 'post_groups.group_id')
    .select('groups.id')
    .where('post_groups.post_id', '=', postId)
    .orderBy('post_groups.position')
    .execute();
  return rows.map((row) => row.id);
}

import { DELETED } from '#core/limits';

/**
 * A user's likes as their data export lists them: each with what they may still read of the liked
 * post or comment, or null when they may no longer read it (a private group they left: its content
 * is for that group's members). An author whose account is gone is named as deleted.
 */
export function withLikedTargets<R extends { id: string; author_id: string | null; author_username: string | null }, T>(
  likes: ReadonlyArray<{ id: string; likedAt: number }>,
  readable: readonly R[],
  describe: (row: R, author: string) => T,
): Array<{ id: string; likedAt: number; target: T | null }> {
  const byId = new Map(readable.map((row) => [row.id, row]));
  return likes.map(({ id, likedAt }) => {
    const row = byId.get(id);
    return { id, likedAt, target: row ? describe(row, row.author_id && row.author_username ? row.author_username : DELETED) : null };
  });
}

import { idsAmong, rowExists } from './helpers.js';
import type { Executor } from './schema.js';

/** User lookups several modules make (profiles, feeds, follows, posts, comments). */

/** The id of the user with this name, any case (index users_username_lower). */
export async function findUserIdByName(db: Executor, username: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').where('username_lower', '=', username.toLowerCase()).executeTakeFirst();
  return row?.id;
}

export function userExists(db: Executor, userId: string): Promise<boolean> {
  return rowExists(db, 'users', { id: userId });
}

/** Users named by id or by lowercased username: how mention slots hold either. */
export async function findUsersByIdOrName(
  db: Executor,
  ids: string[],
  namesLower: string[],
): Promise<{ id: string; username: string; username_lower: string }[]> {
  if (ids.length === 0 && namesLower.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'username', 'username_lower'])
    .where((eb) =>
      eb.or([
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
        ...(namesLower.length > 0 ? [eb('username_lower', 'in', namesLower)] : []),
      ]),
    )
    .execute();
}

/** Which of `userIds` follow `followedId`. */
export function followersAmong(db: Executor, followedId: string, userIds: string[]): Promise<Set<string>> {
  return idsAmong(db, 'follows', { following_id: followedId }, 'follower_id', userIds);
}

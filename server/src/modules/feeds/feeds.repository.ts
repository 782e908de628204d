import type { Executor } from '../../db/schema';

/** Lookups that turn a listing's URL into the scope of its posts. */
export async function findUserIdByName(db: Executor, username: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').where('username_lower', '=', username.toLowerCase()).executeTakeFirst();
  return row?.id;
}

export async function findGroupByName(db: Executor, name: string) {
  return db
    .selectFrom('groups')
    .select(['id', 'is_private'])
    .where('name_lower', '=', name.toLowerCase())
    .executeTakeFirst();
}

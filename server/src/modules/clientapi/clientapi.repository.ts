import type { ClientAppsTable, Executor } from '../../db/schema.js';
import { accountNotSuspended } from '../../policy/suspension.js';

/** The client API's own rows: the apps registered with it. */

/** People with an account here (their address confirmed, not suspended), as NodeInfo counts them. */
export async function localUserCount(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('users.verified', '=', 1)
    .where(accountNotSuspended())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertApp(db: Executor, app: ClientAppsTable): Promise<void> {
  await db.insertInto('client_apps').values(app).execute();
}


export function findAppByClientId(db: Executor, clientId: string): Promise<ClientAppsTable | undefined> {
  return db.selectFrom('client_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** How many posts the account has written. */
export async function postCountOf(db: Executor, userId: string): Promise<number> {
  const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).where('author_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

import type { Executor } from '../../db/schema.js';

/** The queries of remote actors and the accounts standing for them; what they mean is in remote-accounts.ts. */

/** What is kept of a remote actor beside its id. */
export interface RemoteActorRow {
  inbox: string;
  shared_inbox: string | null;
  handle: string;
  url: string | null;
  domain: string | null;
  user_id: string;
  fetched_at: number;
  is_group: number;
}

/** Stores a remote actor as last read, replacing what was known of it. */
export async function upsertRemoteActor(db: Executor, id: string, row: RemoteActorRow): Promise<void> {
  await db
    .insertInto('remote_actors')
    .values({ id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/** A remote actor's handle, when another account took its name. */
export async function setRemoteActorHandle(db: Executor, actorId: string, handle: string): Promise<void> {
  await db.updateTable('remote_actors').set({ handle }).where('id', '=', actorId).execute();
}

/** The account standing for a remote actor, when it has one. */
export async function accountOfRemoteActor(db: Executor, actorId: string): Promise<string | null> {
  const row = await db.selectFrom('remote_actors').select('user_id').where('id', '=', actorId).executeTakeFirst();
  return row?.user_id ?? null;
}

/** The account and handle kept of a remote actor. */
export function knownRemoteActor(db: Executor, actorId: string) {
  return db.selectFrom('remote_actors').select(['user_id', 'handle']).where('id', '=', actorId).executeTakeFirst();
}

/** The remote actor an account stands for, when it is a remote account. */
export async function remoteActorOfAccount(db: Executor, userId: string) {
  return db
    .selectFrom('remote_actors')
    .select(['id', 'inbox', 'shared_inbox', 'handle', 'url', 'domain'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The account holding a name (any case), with the remote actor it stands for and when that was last read (none for a local account). */
export function accountNamed(db: Executor, username: string) {
  return db
    .selectFrom('users')
    .leftJoin('remote_actors', 'remote_actors.user_id', 'users.id')
    .select(['users.id', 'users.username', 'remote_actors.id as actor_id', 'remote_actors.fetched_at'])
    .where('users.username_lower', '=', username.toLowerCase())
    .executeTakeFirst();
}

/** The name of an account. */
export async function usernameOf(db: Executor, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  return row?.username ?? null;
}

/** Marks a remote actor read at `now` unless it was read after `staleBefore`; whether it was. */
export async function claimStaleActor(db: Executor, actorId: string, now: number, staleBefore: number): Promise<boolean> {
  const claimed = await db
    .updateTable('remote_actors')
    .set({ fetched_at: now })
    .where('id', '=', actorId)
    .where('fetched_at', '<=', staleBefore)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** The actor's domain and whether its account is suspended; undefined for an actor never stored. */
export async function remoteActorStanding(db: Executor, actorId: string): Promise<{ suspended: boolean } | undefined> {
  const row = await db
    .selectFrom('remote_actors')
    .leftJoin('users', 'users.id', 'remote_actors.user_id')
    .select('users.suspended_at')
    .where('remote_actors.id', '=', actorId)
    .executeTakeFirst();
  return row && { suspended: row.suspended_at !== null && row.suspended_at !== undefined };
}

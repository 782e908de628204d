import type { Executor } from '../../db/schema.js';

/** The queries of the instance's actors' keys; what they are for is in actor-keys.ts. */

export interface StoredKey {
  algorithm: string;
  public_key: string;
  private_key: string;
}

export async function actorKeys(db: Executor, actorId: string): Promise<StoredKey[]> {
  return db.selectFrom('federation_keys').select(['algorithm', 'public_key', 'private_key']).where('actor_id', '=', actorId).execute();
}

/** Stores a key pair unless one of that algorithm is there already (another process made it first). */
export async function addActorKey(db: Executor, actorId: string, key: StoredKey, now: number): Promise<void> {
  await db
    .insertInto('federation_keys')
    .values({ actor_id: actorId, ...key, created_at: now })
    .onConflict((oc) => oc.columns(['actor_id', 'algorithm']).doNothing())
    .execute();
}

import type { Kysely } from 'kysely';
import { createPairTable } from './table-shapes.js';

/**
 * Federation: each actor's (user's or public group's) key pairs for HTTP Signatures and object
 * proofs, one row per actor and algorithm, made the first time the actor is asked for. Kept here,
 * never in one process's memory, since other servers remember the public key and every process of
 * an instance must sign with the same one. The keys are JWK text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createPairTable(db, 'federation_keys', ['actor_id'], ['algorithm'])
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('federation_keys').ifExists().execute();
}

import type { Selectable } from 'kysely';
import type { ClientPushSubscriptionsTable, Executor } from '../../../db/schema.js';
import { inChunks } from './push.repository.js';

/** Fediverse apps' push subscriptions: one row per access token, found by its token. */

export type ClientSubscriptionRow = Selectable<ClientPushSubscriptionsTable>;

/** The token's subscription in place of the one it had, if any (in the caller's transaction). */
export async function replaceClientSubscription(db: Executor, row: Omit<ClientSubscriptionRow, 'failures'>): Promise<void> {
  await db.deleteFrom('client_push_subscriptions').where('token_id', '=', row.token_id).execute();
  await db.insertInto('client_push_subscriptions').values(row).execute();
}

export function clientSubscriptionOfToken(db: Executor, tokenId: string): Promise<ClientSubscriptionRow | undefined> {
  return db.selectFrom('client_push_subscriptions').selectAll().where('token_id', '=', tokenId).executeTakeFirst();
}

export function findClientSubscription(db: Executor, id: string): Promise<ClientSubscriptionRow | undefined> {
  return db.selectFrom('client_push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Sets which notifications the token's subscription pushes; the row as it is now, or undefined when it has none. */
export async function updateClientSubscription(
  db: Executor,
  tokenId: string,
  change: { alerts: string; policy: string; now: number },
): Promise<ClientSubscriptionRow | undefined> {
  await db
    .updateTable('client_push_subscriptions')
    .set({ alerts: change.alerts, policy: change.policy, updated_at: change.now })
    .where('token_id', '=', tokenId)
    .execute();
  return clientSubscriptionOfToken(db, tokenId);
}

export async function deleteClientSubscriptionsOfTokens(db: Executor, tokenIds: readonly string[]): Promise<void> {
  await inChunks(tokenIds, async (chunk) => {
    await db.deleteFrom('client_push_subscriptions').where('token_id', 'in', chunk).execute();
    return [];
  });
}

/** The apps' subscriptions of these users with the alerts each asked for: which a batch of new notifications may go to. */
export function clientSubscriptionsOf(db: Executor, userIds: string[]): Promise<Array<{ id: string; user_id: string; alerts: string }>> {
  return inChunks(userIds, (chunk) =>
    db.selectFrom('client_push_subscriptions').select(['id', 'user_id', 'alerts']).where('user_id', 'in', chunk).orderBy('id').execute(),
  );
}

import type { Executor } from './schema.js';

/**
 * Settles a value an instance generates once and every process sharing the database must agree on
 * (`server_settings`): the first insert stores its candidate, an insert that finds one already
 * there does nothing, and every caller reads back whichever value won. Answers the stored value.
 */
export async function settleSetting(db: Executor, name: string, candidate: string, now: number = Date.now()): Promise<string | undefined> {
  await db
    .insertInto('server_settings')
    .values({ name, value: candidate, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

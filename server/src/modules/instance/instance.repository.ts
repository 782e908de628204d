import type { InstanceSettingsInput } from '#core/instance-settings';
import type { Executor } from '../../db/schema.js';

/** The one row of the settings. */
const ROW_ID = 'instance';

/** The stored settings, or undefined before the moderators first save. */
export async function readSettings(db: Executor): Promise<InstanceSettingsInput | undefined> {
  const row = await db
    .selectFrom('instance_settings')
    .select(['name', 'description', 'about', 'rules', 'contact'])
    .where('id', '=', ROW_ID)
    .executeTakeFirst();
  return row && { ...row, rules: JSON.parse(row.rules) as string[] };
}

/** Replaces the whole set (made on the first save). */
export async function writeSettings(db: Executor, settings: InstanceSettingsInput, by: string): Promise<void> {
  const values = { ...settings, rules: JSON.stringify(settings.rules), updated_at: Date.now(), updated_by: by };
  await db
    .insertInto('instance_settings')
    .values({ id: ROW_ID, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

import type { Kysely } from 'kysely';
import { skeleton } from '#core/text';

/** The name columns that carry a look-alike skeleton under a unique index. */
export const SKELETON_COLUMNS = [
  { table: 'users', name: 'username', column: 'username_skeleton' },
  { table: 'groups', name: 'name', column: 'name_skeleton' },
] as const;

/** Enough ids per statement to stay fast, few enough for either database's parameter limit. */
const CHUNK = 500;

/**
 * Sets every row's skeleton to what `skeleton` gives now. Rows may already hold look-alike pairs
 * under the new folding: the oldest row of each skeleton keeps it, the later ones keep their names
 * but get NULL (a unique index holds many NULLs) until they are renamed.
 *
 * Only rows whose value changes are written. They are cleared first, then filled: a row's new value
 * may still sit on another changed row until that one is rewritten, which the unique index refuses.
 * The skeleton is computed here rather than in SQL because neither database can fold confusables.
 */
export async function recomputeSkeletons(db: Kysely<any>, { table, name, column }: (typeof SKELETON_COLUMNS)[number]): Promise<void> {
  const rows: { id: string; name: string; stored: string | null }[] = await db
    .selectFrom(table)
    .select(['id', `${name} as name`, `${column} as stored`])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const seen = new Set<string>();
  const changed: { id: string; value: string | null }[] = [];
  for (const row of rows) {
    const computed = skeleton(row.name);
    const value = seen.has(computed) ? null : computed;
    seen.add(computed);
    if (value !== row.stored) changed.push({ id: row.id, value });
  }
  for (let i = 0; i < changed.length; i += CHUNK) {
    const ids = changed.slice(i, i + CHUNK).map((row) => row.id);
    await db.updateTable(table).set({ [column]: null }).where('id', 'in', ids).execute();
  }
  for (const { id, value } of changed) {
    if (value !== null) await db.updateTable(table).set({ [column]: value }).where('id', '=', id).execute();
  }
}

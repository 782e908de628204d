import { type Kysely, sql } from 'kysely';
import { skeleton } from '#core/text';

/**
 * The look-alike skeleton of every username and group name (core/text.ts `skeleton`), under a
 * unique index, so `bob` and `bоb` (a Cyrillic o) cannot both exist, even when two sign-ups race.
 *
 * Existing rows may already hold look-alike pairs. The oldest row of each skeleton keeps it; the
 * later ones keep their names but get NULL (both databases let a unique index hold many NULLs), and
 * get a skeleton again when they are renamed.
 *
 * The skeleton is computed here by the shared function rather than in SQL: neither database can
 * fold confusables. A later change of that function needs a migration that recomputes the column.
 */
const TABLES = [
  { table: 'users', name: 'username', column: 'username_skeleton' },
  { table: 'groups', name: 'name', column: 'name_skeleton' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, name, column } of TABLES) {
    await db.schema.alterTable(table).addColumn(column, 'text').execute();
    const rows: { id: string; name: string }[] = await db
      .selectFrom(table)
      .select(['id', `${name} as name`])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const seen = new Set<string>();
    for (const row of rows) {
      const value = skeleton(row.name);
      if (seen.has(value)) continue;
      seen.add(value);
      await db.updateTable(table).set({ [column]: value }).where('id', '=', row.id).execute();
    }
    await sql`CREATE UNIQUE INDEX ${sql.id(`${table}_${column}`)} ON ${sql.table(table)} (${sql.ref(column)})`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, column } of TABLES) {
    await sql`DROP INDEX IF EXISTS ${sql.id(`${table}_${column}`)}`.execute(db);
    await db.schema.alterTable(table).dropColumn(column).execute();
  }
}

import { type Kysely, sql } from 'kysely';
import { recomputeSkeletons, SKELETON_COLUMNS } from './name-skeleton-columns.js';

/**
 * The look-alike skeleton of every username and group name (core/text.ts `skeleton`), under a
 * unique index, so `bob` and `bоb` (a Cyrillic o) cannot both exist, even when two sign-ups race.
 * Existing look-alike pairs keep their names; the older one gets the skeleton (see recomputeSkeletons).
 * A later change of that function needs a migration that recomputes the column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const columns of SKELETON_COLUMNS) {
    const { table, column } = columns;
    await db.schema.alterTable(table).addColumn(column, 'text').execute();
    await recomputeSkeletons(db, columns);
    await sql`CREATE UNIQUE INDEX ${sql.id(`${table}_${column}`)} ON ${sql.table(table)} (${sql.ref(column)})`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, column } of SKELETON_COLUMNS) {
    await sql`DROP INDEX IF EXISTS ${sql.id(`${table}_${column}`)}`.execute(db);
    await db.schema.alterTable(table).dropColumn(column).execute();
  }
}

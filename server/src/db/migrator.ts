import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './schema';
import * as base from './migrations/20261122_01_base';

/** Every migration, by name; names sort in the order they run. */
const MIGRATIONS: Record<string, Migration> = {
  '20261122_01_base': base,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

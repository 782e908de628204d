import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAINTENANCE_TASKS } from '../../src/jobs';
import { maintenanceStep } from '../../src/modules/jobs/maintenance';
import { refreshPlannerStatistics } from '../../src/db/sqlite-statistics';
import { createUser } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';

/**
 * The SQLite planner keeps counts per index and no per-value samples: with samples, a statement
 * comparing an indexed column with a bound value is compiled again on every run.
 */
describe.skipIf(TEST_DB !== 'sqlite')('planner statistics on SQLite', () => {
  const t = useTestApp();
  const count = async (table: 'sqlite_stat1' | 'sqlite_stat4') => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.app.db)).rows[0]!.n);

  beforeAll(async () => {
    for (let i = 0; i < 5; i++) await createUser(t.app);
  });

  it('drops the samples a full ANALYZE gathered at the next maintenance run, and keeps the counts', async () => {
    await sql`analyze`.execute(t.app.db);
    expect(await count('sqlite_stat4')).toBeGreaterThan(0);
    const stat1 = await count('sqlite_stat1');
    expect(stat1).toBeGreaterThan(0);

    await maintenanceStep(MAINTENANCE_TASKS)(t.app, t.app.db, { lastRunAt: null }, Date.now());

    expect(await count('sqlite_stat4')).toBe(0);
    expect(await count('sqlite_stat1')).toBe(stat1);
  });

  it('analyses within the limit, which gathers no samples', async () => {
    await sql`delete from sqlite_stat1`.execute(t.app.db);
    await sql`analyze sqlite_master`.execute(t.app.db);
    expect(await refreshPlannerStatistics(t.app.db)).toEqual({ droppedSamples: 0 });
    // The users' table was never analysed since the counts went: optimize analyses it.
    const users = await sql<{ idx: string }>`select idx from sqlite_stat1 where tbl = 'users'`.execute(t.app.db);
    expect(users.rows.length).toBeGreaterThan(0);
    expect(await count('sqlite_stat4')).toBe(0);
  });
});

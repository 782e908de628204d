import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectOf, lockingRead, lockRows, notify } from '../../src/db/dialect';
import type { Database } from '../../src/db/schema';
import { searchMatches, searchTextContains } from '../../src/lib/search';
import { createUser } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';

/** A database of the other kind that only compiles: what it would be sent, without a server. */
function compilingOnly(dialect: 'sqlite' | 'postgres'): Kysely<Database> {
  const parts =
    dialect === 'postgres'
      ? { createAdapter: () => new PostgresAdapter(), createQueryCompiler: () => new PostgresQueryCompiler(), createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db) }
      : { createAdapter: () => new SqliteAdapter(), createQueryCompiler: () => new SqliteQueryCompiler(), createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db) };
  return new Kysely<Database>({ dialect: { ...parts, createDriver: () => new DummyDriver() } });
}

describe('database dialect', () => {
  const t = useTestApp();
  const other = TEST_DB === 'postgres' ? 'sqlite' : 'postgres';

  it('is read from the executor, a transaction included', async () => {
    expect(dialectOf(t.app.db)).toBe(TEST_DB);
    expect(await t.app.db.transaction().execute(async (trx) => dialectOf(trx))).toBe(TEST_DB);
    expect(dialectOf(compilingOnly(other))).toBe(other);
  });

  it('writes a search for the database it is sent to, whichever the process started on', () => {
    const sqlOf = (db: Kysely<Database>) => db.selectFrom('users').select('id').where(searchMatches(db, 'users', 'kůň')).compile().sql;
    expect(sqlOf(compilingOnly('postgres'))).toMatch(/"users"\."search_text" LIKE/);
    expect(sqlOf(compilingOnly('sqlite'))).toMatch(/"users"\."rowid" IN \(SELECT rowid FROM "users_fts"/);
    // The walk checks the folded text itself, the same plain LIKE on either database.
    const walked = (db: Kysely<Database>) => db.selectFrom('users').select('id').where(searchTextContains('users', 'kůň')).compile().sql;
    expect(walked(compilingOnly('postgres'))).toMatch(/"users"\."search_text" LIKE/);
    expect(walked(compilingOnly('sqlite'))).toMatch(/"users"\."search_text" LIKE/);
    expect(walked(compilingOnly('postgres'))).not.toMatch(/ILIKE/);
  });

  it('locks the rows a read finds only where the database locks rows', () => {
    const sqlOf = (db: Kysely<Database>) => db.selectFrom('groups').select('id').$call(lockingRead(db)).compile().sql;
    expect(sqlOf(compilingOnly('postgres'))).toMatch(/for update$/);
    expect(sqlOf(compilingOnly('sqlite'))).not.toMatch(/for update/);
    const skipping = compilingOnly('postgres').selectFrom('jobs').select('id').$call(lockingRead(compilingOnly('postgres'), { skipLocked: true }));
    expect(skipping.compile().sql).toMatch(/for update skip locked$/);
  });

  it('takes row locks in a transaction on PostgreSQL and sends nothing on SQLite', async () => {
    const user = await createUser(t.app);
    const sent: string[] = [];
    const recording = t.app.db.withPlugin({
      transformQuery: ({ node }) => {
        sent.push(JSON.stringify(node));
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    await recording.transaction().execute(async (trx) => {
      await lockRows(trx, 'users', [user.id]);
      await lockRows(trx, 'groups', [], 'share');
    });
    if (TEST_DB === 'postgres') {
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/ForUpdate/);
    } else {
      expect(sent).toEqual([]);
    }
  });

  it('sends a notification only on PostgreSQL, and says whether it did', async () => {
    expect(await notify(t.app.db, 'dialect_test', 'hello')).toBe(TEST_DB === 'postgres');
  });
});

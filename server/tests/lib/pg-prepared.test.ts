import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PLAN_FOR_VALUES, withPreparedStatements } from '../../src/db/pg-prepared';
import { searchTextContains } from '../../src/lib/search';
import { TEST_DB } from '../helpers/test-app';

/** A database on one connection, so what it prepared can be read back on the same session. */
async function onOneConnection(cap: number | undefined, run: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool, cap) }) });
  try {
    await run(db);
  } finally {
    await db.destroy();
  }
}

async function preparedTexts(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
  return rows.map((row) => row.statement);
}

describe.runIf(TEST_DB === 'postgres')('statements prepared on PostgreSQL connections', () => {
  it('prepares a data statement once and runs it again with other values', async () => {
    await onOneConnection(undefined, async (db) => {
      const plusOne = (n: number) => sql<{ n: number }>`select ${n}::int + 1 as n`.execute(db);
      expect((await plusOne(1)).rows).toEqual([{ n: 2 }]);
      expect((await plusOne(41)).rows).toEqual([{ n: 42 }]);
      expect((await preparedTexts(db)).filter((text) => text.includes('+ 1 as n'))).toHaveLength(1);
    });
  });

  it("plans a search for each call's words: its statement is sent unnamed, never kept", async () => {
    await onOneConnection(undefined, async (db) => {
      await sql`create temporary table posts (id int, search_text text)`.execute(db);
      await sql`insert into posts (id, search_text) values (1, 'coffee morning'), (2, 'coffee')`.execute(db);
      const find = (words: string) =>
        (db as Kysely<{ posts: { id: number; search_text: string } }>).selectFrom('posts').select('id').where(searchTextContains('posts', words)).orderBy('id').execute();
      expect(await find('coffee morning')).toEqual([{ id: 1 }]);
      expect(await find('coffee')).toEqual([{ id: 1 }, { id: 2 }]);
      const { rows } = await sql<{ n: number }>`select ${1}::int as n ${sql.raw(PLAN_FOR_VALUES)}`.execute(db);
      expect(rows).toEqual([{ n: 1 }]);
      const texts = await preparedTexts(db);
      expect(texts.some((text) => text.includes('LIKE'))).toBe(false);
      expect(texts.some((text) => text.includes(PLAN_FOR_VALUES))).toBe(false);
    });
  });

  it('sends schema changes as they come, unprepared', async () => {
    await onOneConnection(undefined, async (db) => {
      await sql`create temporary table prepared_probe (id int)`.execute(db);
      await sql`insert into prepared_probe (id) values (${7})`.execute(db);
      const texts = await preparedTexts(db);
      expect(texts.some((text) => /create temporary table/i.test(text))).toBe(false);
      expect(texts.some((text) => /insert into prepared_probe/i.test(text))).toBe(true);
    });
  });

  it('stops naming new statements on a connection past its cap and still answers them', async () => {
    await onOneConnection(2, async (db) => {
      for (const [i, column] of ['a', 'b', 'c'].entries()) {
        const { rows } = await sql<Record<string, number>>`select ${i}::int as ${sql.ref(column)}`.execute(db);
        expect(rows).toEqual([{ [column]: i }]);
      }
      const texts = await preparedTexts(db);
      expect(texts).toHaveLength(2);
      expect(texts.some((text) => text.includes('as "c"'))).toBe(false);
    });
  });

  /**
   * Another process's migration may change a table's columns under a statement this connection
   * prepared (`select *`): PostgreSQL then refuses to run it ("cached plan must not change result
   * type") until it is prepared again.
   */
  it('prepares a statement again when a change of the table has made its plan stale', async () => {
    await onOneConnection(undefined, async (db) => {
      await sql`create temporary table stale_probe (id int)`.execute(db);
      await sql`insert into stale_probe (id) values (1)`.execute(db);
      const all = () => sql<Record<string, unknown>>`select * from stale_probe where id = ${1}`.execute(db);
      expect((await all()).rows).toEqual([{ id: 1 }]);
      await sql`alter table stale_probe add column note text`.execute(db);
      expect((await all()).rows).toEqual([{ id: 1, note: null }]);
      expect((await all()).rows).toEqual([{ id: 1, note: null }]);
    });
  });

  it('inside a transaction, fails the statement once and prepares it again for the next one', async () => {
    await onOneConnection(undefined, async (db) => {
      await sql`create temporary table stale_trx (id int)`.execute(db);
      await sql`insert into stale_trx (id) values (1)`.execute(db);
      const all = (on: Kysely<unknown>) => sql<Record<string, unknown>>`select * from stale_trx where id = ${1}`.execute(on);
      expect((await all(db)).rows).toEqual([{ id: 1 }]);
      await sql`alter table stale_trx add column note text`.execute(db);
      // The transaction is already aborted by the refusal, so it cannot be retried inside it.
      await expect(db.transaction().execute((trx) => all(trx))).rejects.toThrow(/cached plan must not change result type/);
      expect((await db.transaction().execute((trx) => all(trx))).rows).toEqual([{ id: 1, note: null }]);
    });
  });
});

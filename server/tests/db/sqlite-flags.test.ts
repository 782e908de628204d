import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database';

/**
 * SQLite compiles a statement again whenever a 0 or 1 it compares a column with is bound anew,
 * and whenever a value compared with a column in a SELECT with a join is: on every run. The
 * server's SQLite dialect writes those 0s and 1s into the SQL, and every other value as `+?`.
 */
describe('the SQLite dialect writes a compared 0 or 1 into the SQL, and binds the rest as +?', () => {
  const { db } = openDatabase({ dataDir: '', sqliteFile: ':memory:' });

  it('writes 0 and 1 compared with = or is, and binds every other value', () => {
    const query = db
      .selectFrom('comments')
      .select('id')
      .where('deleted', '=', 0)
      .where('likes', '=', 1)
      .where('replies', '=', 2)
      .where('images', '>', 1)
      .where('post_id', '=', '1')
      .where('awaiting_pictures', 'is', 0)
      .compile();
    expect(query.sql).toBe(
      'select "id" from "comments" where "deleted" = 0 and "likes" = 1 and "replies" = +? and "images" > +? and "post_id" = +? and "awaiting_pictures" is 0',
    );
    expect(query.parameters).toEqual([2, 1, '1']);
  });

  it('binds the values of inserts, updates and raw SQL', () => {
    const insert = db.insertInto('rate_events').values({ key: 'k', created_at: 1 }).compile();
    expect(insert.parameters).toEqual(['k', 1]);
    const update = db.updateTable('posts').set({ likes: 1 }).where('id', '=', 'p').compile();
    expect(update.sql).toBe('update "posts" set "likes" = +? where "id" = +?');
    expect(update.parameters).toEqual([1, 'p']);
    const raw = db.selectFrom('posts').select('id').where(sql<boolean>`likes = ${1}`).compile();
    expect(raw.parameters).toEqual([1]);
  });

  it('compares, stores, pages and matches a value bound as +? as it would a plain one', async () => {
    await sql`create table plus (id integer primary key, n integer not null, t text not null)`.execute(db);
    await sql`insert into plus (id, n, t) values (1, 10, '10'), (2, 20, 'b'), (3, 30, 'ab')`.execute(db);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of this test's own
    const loose = db as any;
    const ids = async (query: { execute(): Promise<{ id: number }[]> }) => (await query.execute()).map((r) => r.id);
    // The column's affinity still applies to the bound value: a numeric string finds the integer.
    expect(await ids(loose.selectFrom('plus').select('id').where('n', '=', '20'))).toEqual([2]);
    expect(await ids(loose.selectFrom('plus').select('id').where('t', '=', '10'))).toEqual([1]);
    expect(await ids(loose.selectFrom('plus').select('id').where('t', 'like', '%b').orderBy('id'))).toEqual([2, 3]);
    expect(await ids(loose.selectFrom('plus').select('id').where('id', 'in', [1, 3]).orderBy('id').limit(1).offset(1))).toEqual([3]);
    await loose.insertInto('plus').values({ id: 4, n: 40, t: 'x' }).execute();
    expect(await loose.selectFrom('plus').selectAll().where('id', '=', 4).executeTakeFirst()).toEqual({ id: 4, n: 40, t: 'x' });
    // An index still serves a compared value.
    await sql`create index plus_t on plus (t)`.execute(db);
    const plan = await sql<{ detail: string }>`explain query plan select id from plus where t = ${'b'}`.execute(db);
    expect(plan.rows.map((r) => r.detail).join(' ')).toMatch(/USING (COVERING )?INDEX/);
  });

  it('answers as a bound value would', async () => {
    await sql`create table flags (id integer primary key, flag integer not null)`.execute(db);
    await sql`insert into flags (id, flag) values (1, 0), (2, 1), (3, 1)`.execute(db);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of this test's own
    const loose = db as any;
    for (const flag of [0, 1]) {
      const rows = await loose.selectFrom('flags').select('id').where('flag', '=', flag).orderBy('id').execute();
      expect(rows.map((r: { id: number }) => r.id)).toEqual(flag ? [2, 3] : [1]);
    }
  });
});

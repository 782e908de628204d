import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database';

/**
 * SQLite compiles a statement again whenever a 0 or 1 it compares a column with is bound anew,
 * which is on every run; the server's SQLite dialect writes those values into the SQL instead.
 */
describe('the SQLite dialect writes a compared 0 or 1 into the SQL', () => {
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
      'select "id" from "comments" where "deleted" = 0 and "likes" = 1 and "replies" = ? and "images" > ? and "post_id" = ? and "awaiting_pictures" is 0',
    );
    expect(query.parameters).toEqual([2, 1, '1']);
  });

  it('binds the values of inserts, updates and raw SQL', () => {
    const insert = db.insertInto('rate_events').values({ key: 'k', created_at: 1 }).compile();
    expect(insert.parameters).toEqual(['k', 1]);
    const update = db.updateTable('posts').set({ likes: 1 }).where('id', '=', 'p').compile();
    expect(update.sql).toBe('update "posts" set "likes" = ? where "id" = ?');
    expect(update.parameters).toEqual([1, 'p']);
    const raw = db.selectFrom('posts').select('id').where(sql<boolean>`likes = ${1}`).compile();
    expect(raw.parameters).toEqual([1]);
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

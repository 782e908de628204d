import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withStatementCache } from '../../src/db/statement-cache';

interface TestDb {
  item: { id: number; name: string };
}

const opened: SQLite.Database[] = [];

function open(size?: number) {
  const sqlite = new SQLite(':memory:');
  opened.push(sqlite);
  sqlite.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const prepare = vi.spyOn(sqlite, 'prepare');
  const cached = withStatementCache(sqlite, size);
  const db = new Kysely<TestDb>({ dialect: new SqliteDialect({ database: cached }) });
  return { sqlite, cached, prepare, db };
}

afterEach(() => {
  for (const sqlite of opened.splice(0)) if (sqlite.open) sqlite.close();
});

describe('withStatementCache: one prepared statement per SQL text', () => {
  it('prepares the same SQL once across many queries, and the answers stay right', async () => {
    const { db, prepare } = open();
    for (let i = 1; i <= 20; i++) await db.insertInto('item').values({ id: i, name: `n${i}` }).execute();
    for (let i = 1; i <= 20; i++) {
      const row = await db.selectFrom('item').select('name').where('id', '=', i).executeTakeFirst();
      expect(row?.name).toBe(`n${i}`);
    }
    expect(prepare).toHaveBeenCalledTimes(2);
    expect((await db.selectFrom('item').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n).toBe(20);
    expect(prepare).toHaveBeenCalledTimes(3);
  });

  it('gives different SQL different statements and the same SQL the same one', () => {
    const { cached } = open();
    const a = cached.prepare('SELECT 1 AS x');
    const b = cached.prepare('SELECT 2 AS x');
    expect(a).not.toBe(b);
    expect(cached.prepare('SELECT 1 AS x')).toBe(a);
    expect(a.get()).toEqual({ x: 1 });
    expect(b.get()).toEqual({ x: 2 });
  });

  it('keeps no more than its size, dropping the least recently used first', () => {
    const { cached, prepare } = open(3);
    const sqlOf = (n: number) => `SELECT ${n} AS x`;
    for (let n = 1; n <= 3; n++) cached.prepare(sqlOf(n));
    cached.prepare(sqlOf(1)); // 1 is now the most recently used: 2 is the oldest
    cached.prepare(sqlOf(4)); // past the size: 2 goes
    expect(prepare).toHaveBeenCalledTimes(4);
    for (const n of [1, 3, 4]) cached.prepare(sqlOf(n));
    expect(prepare).toHaveBeenCalledTimes(4);
    cached.prepare(sqlOf(2));
    expect(prepare).toHaveBeenCalledTimes(5);
    // Many distinct texts: the cache stays bounded (the oldest ones are prepared anew).
    for (let n = 100; n < 200; n++) cached.prepare(sqlOf(n));
    prepare.mockClear();
    for (let n = 197; n < 200; n++) cached.prepare(sqlOf(n));
    expect(prepare).not.toHaveBeenCalled();
    cached.prepare(sqlOf(196));
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('never shares a statement that is still being iterated', () => {
    const { cached } = open();
    cached.exec("INSERT INTO item (id, name) VALUES (1, 'a'), (2, 'b')");
    const text = 'SELECT id FROM item ORDER BY id';
    const first = cached.prepare(text);
    const iterator = first.iterate() as IterableIterator<{ id: number }>;
    expect(iterator.next().value).toEqual({ id: 1 });
    const second = cached.prepare(text);
    expect(second).not.toBe(first);
    expect(second.all()).toEqual([{ id: 1 }, { id: 2 }]);
    expect(iterator.next().value).toEqual({ id: 2 });
    expect(iterator.next().done).toBe(true);
    expect(cached.prepare(text)).toBe(first);
  });

  it('streams through Kysely with the cache in place', async () => {
    const { db } = open();
    await db.insertInto('item').values([{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c' }]).execute();
    for (let round = 0; round < 2; round++) {
      const names: string[] = [];
      for await (const row of db.selectFrom('item').select('name').orderBy('id').stream()) names.push(row.name);
      expect(names).toEqual(['a', 'b', 'c']);
    }
    const names: string[] = [];
    for await (const row of db.selectFrom('item').select('name').orderBy('id').stream()) {
      names.push(row.name);
      break;
    }
    expect(names).toEqual(['a']);
    expect(await db.selectFrom('item').select('name').orderBy('id').execute()).toHaveLength(3);
  });

  it('keeps transactions right: a commit keeps the rows, a rollback drops them, with the same statements', async () => {
    const { db, prepare } = open();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('item').values({ id: 1, name: 'kept' }).execute();
      expect(await trx.selectFrom('item').select('name').execute()).toEqual([{ name: 'kept' }]);
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('item').values({ id: 2, name: 'dropped' }).execute();
        expect(await trx.selectFrom('item').select('name').orderBy('id').execute()).toEqual([{ name: 'kept' }, { name: 'dropped' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db.selectFrom('item').select('name').orderBy('id').execute()).toEqual([{ name: 'kept' }]);
    // begin, commit, rollback, the insert and the two selects: each prepared once.
    expect(prepare).toHaveBeenCalledTimes(6);
  });

  it('leaves the rest of the database as it was: pragma, transaction, exec, close', () => {
    const { sqlite, cached } = open();
    expect(cached.pragma('foreign_keys = ON')).toEqual([]);
    expect(cached.pragma('foreign_keys', { simple: true })).toBe(1);
    const insert = cached.prepare('INSERT INTO item (id, name) VALUES (?, ?)');
    cached.transaction((rows: [number, string][]) => {
      for (const row of rows) insert.run(...row);
    })([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(sqlite.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 2 });
    expect(cached.open).toBe(true);
    expect(cached.inTransaction).toBe(false);
    cached.close();
    expect(sqlite.open).toBe(false);
  });
});

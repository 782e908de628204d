import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { reusableQuery } from '../../src/db/reusable-query';
import type { Database } from '../../src/db/schema';

const opened: Kysely<Database>[] = [];

/** A bare database holding only the table these tests use. */
function open(): Kysely<Database> {
  const sqlite = new SQLite(':memory:');
  sqlite.exec('CREATE TABLE rate_events (key TEXT NOT NULL, created_at INTEGER NOT NULL)');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  opened.push(db);
  return db;
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy();
});

describe('reusableQuery: built once per database, run with each call’s values', () => {
  it('answers each call with its own values from the statement of its shape', async () => {
    const db = open();
    const record = reusableQuery((d, key: string, now: number) => d.insertInto('rate_events').values({ key, created_at: now }));
    const count = reusableQuery((d, key: string, since: number) =>
      d.selectFrom('rate_events').select((eb) => eb.fn.countAll<number>().as('n')).where('key', '=', key).where('created_at', '>', since));
    expect(record.shapeOf(db, 'a', 10)).toBe('unknown');
    for (let i = 1; i <= 5; i++) expect(await record.changes(db, i % 2 ? 'a' : 'b', i * 10)).toBe(1);
    expect(record.shapeOf(db, 'z', 99)).toBe('bound');
    expect(await count.first(db, 'a', 0)).toEqual({ n: 3 });
    expect(await count.first(db, 'a', 10)).toEqual({ n: 2 });
    expect(await count.first(db, 'b', 0)).toEqual({ n: 2 });
    expect(await count.first(db, 'c', 0)).toEqual({ n: 0 });
  });

  it('keeps the values the builder wrote itself and counts the rows a change touched', async () => {
    const db = open();
    const record = reusableQuery((d, key: string) => d.insertInto('rate_events').values({ key, created_at: 7 }));
    const forget = reusableQuery((d, key: string) => d.deleteFrom('rate_events').where('key', '=', key).where('created_at', '=', 7));
    await record.run(db, 'x');
    await record.run(db, 'x');
    await db.insertInto('rate_events').values({ key: 'x', created_at: 8 }).execute();
    expect(await forget.changes(db, 'x')).toBe(2);
    expect(await forget.changes(db, 'x')).toBe(0);
    expect(await db.selectFrom('rate_events').select('created_at').execute()).toEqual([{ created_at: 8 }]);
  });

  it('runs on each database and transaction it is given', async () => {
    const [one, two] = [open(), open()];
    const record = reusableQuery((d, key: string) => d.insertInto('rate_events').values({ key, created_at: 1 }));
    await record.run(one, 'a');
    await one.transaction().execute((trx) => record.run(trx, 'b'));
    await record.run(two, 'c');
    expect((await one.selectFrom('rate_events').select('key').execute()).map((r) => r.key)).toEqual(['a', 'b']);
    expect((await two.selectFrom('rate_events').select('key').execute()).map((r) => r.key)).toEqual(['c']);
  });

  it('builds every time, with the right values, a builder that uses an argument for anything but a bound value', async () => {
    const db = open();
    const prefixed = reusableQuery((d, user: string) => d.insertInto('rate_events').values({ key: `like:${user}`, created_at: 1 }));
    await prefixed.run(db, 'u1');
    await prefixed.run(db, 'u2');
    expect(prefixed.shapeOf(db, 'u3')).toBe('built');
    const shifted = reusableQuery((d, key: string, now: number) =>
      d.selectFrom('rate_events').select('key').where('key', '=', key).where('created_at', '>', now - 1000));
    expect(await shifted.run(db, 'like:u2', 1000)).toMatchObject({ rows: [{ key: 'like:u2' }] });
    expect(await shifted.run(db, 'like:u2', 1001)).toMatchObject({ rows: [] });
    expect(shifted.shapeOf(db, 'k', 5000)).toBe('built');
    const written = reusableQuery((d, column: string) => d.selectFrom('rate_events').select(sql.ref(column).as('c')).orderBy('c'));
    expect((await written.run(db, 'key')).rows).toEqual([{ c: 'like:u1' }, { c: 'like:u2' }]);
    expect(written.shapeOf(db, 'key')).toBe('built');
  });
});

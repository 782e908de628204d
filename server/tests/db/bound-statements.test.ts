import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { boundShapeOf, runBound } from '../../src/db/bound-statements';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/** The value written into the statement's text rather than sent beside it. */
const sqlLiteral = (value: string) => sql<string>`${sql.lit(value)}`;

describe('statements bound per shape', () => {
  const t = useTestApp();

  it('answers each call from its own values once the shape is learnt', async () => {
    const [a, b, c] = [await createUser(t.app), await createUser(t.app), await createUser(t.app)];
    const db = t.app.db;
    const byIds = (ids: string[], minVersion: number) =>
      runBound(db, 'test.usersByIds', { ids, minVersion }, (q) =>
        db.selectFrom('users').select('username').where('id', 'in', q.ids).where('token_version', '>=', q.minVersion).orderBy('username'));
    const names = async (ids: string[]) => (await byIds(ids, 1)).map((row) => row.username);
    // token_version starts at 0; a positive minimum finds nobody until a version is raised.
    await db.updateTable('users').set({ token_version: 2 }).where('id', 'in', [a.id, b.id]).execute();
    expect(await names([a.id, c.id])).toEqual([a.username]);
    expect(boundShapeOf(db, 'test.usersByIds', { ids: [a.id, c.id], minVersion: 1 })).toBe('bound');
    expect(await names([b.id, c.id])).toEqual([b.username]);
    expect(await names([c.id, a.id])).toEqual([a.username]);
    expect((await byIds([a.id, b.id], 3)).length).toBe(0);
    // Another length is another shape, learnt on its first call.
    expect(boundShapeOf(db, 'test.usersByIds', { ids: [a.id], minVersion: 1 })).toBe('unknown');
    expect(await names([b.id])).toEqual([b.username]);
  });

  it('keeps a null, a zero or an absent value in the shape, so each takes its own branch', async () => {
    const user = await createUser(t.app);
    const db = t.app.db;
    const find = (id: string | null, version: number) =>
      runBound(db, 'test.branch', { id, version }, (q) => {
        let query = db.selectFrom('users').select('id');
        query = q.id === null ? query.where('id', 'is', null) : query.where('id', '=', q.id);
        return q.version > 0 ? query.where('token_version', '=', q.version) : query;
      });
    expect((await find(user.id, 0)).map((row) => row.id)).toEqual([user.id]);
    expect(await find(null, 0)).toEqual([]);
    expect(await find(user.id, 5)).toEqual([]);
    expect((await find(user.id, 0)).map((row) => row.id)).toEqual([user.id]);
  });

  it('builds every time a statement whose values are reworked or written into its text', async () => {
    const user = await createUser(t.app);
    const db = t.app.db;
    // The builder folds the name's case: a marker would be folded too, so no shape is kept.
    const byName = (name: string) =>
      runBound(db, 'test.folded', { name }, (q) => db.selectFrom('users').select('id').where('username_lower', '=', q.name.toLowerCase()));
    expect((await byName(user.username.toUpperCase())).map((row) => row.id)).toEqual([user.id]);
    expect(boundShapeOf(db, 'test.folded', { name: 'x' })).toBe('built');
    expect(await byName('nobody-by-that-name')).toEqual([]);
    const literal = (name: string) => runBound(db, 'test.literal', { name }, (q) => db.selectFrom('users').select('id').where('username', '=', sqlLiteral(q.name)));
    expect((await literal(user.username)).map((row) => row.id)).toEqual([user.id]);
    expect(boundShapeOf(db, 'test.literal', { name: 'x' })).toBe('built');
  });
});

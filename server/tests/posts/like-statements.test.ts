import { describe, expect, it } from 'vitest';
import { addMember, call, createGroup, createPost, useUsers } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';

/**
 * A like is the commonest write, and on SQLite every write holds the one Node process while it
 * runs: its checks (the post visible to the liker, a ban in its groups, a block with its author,
 * the liker's like) are read in one statement, and the new count comes back from the update.
 */
describe('statements per like and per comment', () => {
  let statements: string[] | undefined;
  const t = useTestApp({}, { onQuery: (sql) => statements?.push(sql) });
  const { alice, bob } = useUsers(t, 'alice', 'bob');

  async function statementsOf(run: () => Promise<void>): Promise<string[]> {
    const seen: string[] = [];
    statements = seen;
    try {
      await run();
    } finally {
      statements = undefined;
    }
    // PostgreSQL's signal to other processes that kept visitor pages changed goes out after the answer.
    return seen.filter((sql) => !sql.includes('pg_notify'));
  }

  it('liking and unliking a post in a group runs a fixed handful of statements', async () => {
    const group = await createGroup(t.app, alice, { isPrivate: true });
    await addMember(t.app, group.id, bob);
    const post = await createPost(t.app, alice, { groupIds: [group.id] });
    // The session's user; in the transaction, the checks, the rate limit's count and record (with
    // its lock on PostgreSQL), the like and the counter with its new value. (Thirteen on SQLite
    // before: a statement a check, and the count read again.)
    const expected = TEST_DB === 'postgres' ? 9 : 8;
    for (const liked of [true, false]) {
      const seen = await statementsOf(async () => {
        const res = await call(t.app, bob, { method: 'PATCH', url: `/api/post/${post.id}/like`, payload: {} });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ likes: liked ? 1 : 0, liked });
      });
      expect(seen, seen.join('\n')).toHaveLength(expected);
    }
  });

  it('a comment on a post reads the post once', async () => {
    const post = await createPost(t.app, alice);
    const seen = await statementsOf(async () => {
      const res = await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'hello', parent: post.id } });
      expect(res.statusCode, res.body).toBe(201);
    });
    const postReads = seen.filter((sql) => /^select "posts"\."id", "posts"\."author_id" from "posts"/.test(sql));
    expect(postReads, seen.join('\n')).toHaveLength(1);
  });
});

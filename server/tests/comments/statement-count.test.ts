import { beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '#core/text';
import { newId } from '../../src/lib/ids';
import { createGroup, addMember, createPost, type TestUser, useUsers } from '../helpers/fixtures';
import { useStatementCounter } from '../helpers/statements';

/**
 * What reading a post costs the database must not grow with its comments: a post page with 500
 * comments runs as many statements as one with 50. Every statement the app runs is counted while
 * one request is served.
 */
describe('statements per read of a busy post', () => {
  const { t, statementsOf } = useStatementCounter();
  const { alice, bob, carol } = useUsers(t, 'alice', 'bob', 'carol');

  type Thread = { postId: string; topLevel: string; deepest: string };
  const threads: Record<'small' | 'big', Thread> = {} as never;

  /**
   * A thread of `count` comments: a third on the post, the rest replies to an earlier comment,
   * most to recent ones so chains grow several levels deep; some mention a user, some are liked
   * by the reader, some are deleted markers. Counters as the app keeps them.
   */
  async function seedThread(author: TestUser, count: number, groupIds: string[] = []): Promise<Thread> {
    const post = await createPost(t.app, author, { groupIds });
    const start = Date.now() - count * 1000;
    const rows: { id: string; parent: string | null; depth: number }[] = [];
    const replies = new Map<string, number>();
    const people = [alice, bob, carol];
    for (let i = 0; i < count; i++) {
      let parent: (typeof rows)[number] | null = null;
      if (i % 3 !== 0 && rows.length > 0) parent = rows[Math.max(0, rows.length - 1 - (i % 4))]!;
      const id = newId();
      const deleted = i % 17 === 5 ? 1 : 0;
      const text = deleted ? '' : `comment ${i} on the busy post`;
      await t.app.db
        .insertInto('comments')
        .values({
          id,
          post_id: post.id,
          parent_comment_id: parent?.id ?? null,
          author_id: deleted ? null : people[i % 3]!.id,
          text,
          deleted,
          likes: i % 5 === 0 ? 1 : 0,
          search_text: foldForSearch(text),
          created_at: start + i * 1000,
        })
        .execute();
      if (parent) replies.set(parent.id, (replies.get(parent.id) ?? 0) + 1);
      if (!deleted && i % 4 === 0) {
        await t.app.db.insertInto('comment_mentions').values({ comment_id: id, position: 0, user_id: people[(i + 1) % 3]!.id, username: people[(i + 1) % 3]!.username }).execute();
      }
      if (!deleted && i % 5 === 0) {
        await t.app.db.insertInto('comment_likes').values({ comment_id: id, user_id: bob.id, created_at: start + i * 1000 }).execute();
      }
      rows.push({ id, parent: parent?.id ?? null, depth: parent ? (rows.find((r) => r.id === parent.id)!.depth + 1) : 0 });
    }
    for (const [id, n] of replies) await t.app.db.updateTable('comments').set({ replies: n }).where('id', '=', id).execute();
    await t.app.db.updateTable('posts').set({ comments: count }).where('id', '=', post.id).execute();
    const deepest = rows.reduce((a, b) => (b.depth > a.depth ? b : a));
    expect(deepest.depth).toBeGreaterThanOrEqual(3);
    const topLevel = rows.find((r) => r.parent === null && (replies.get(r.id) ?? 0) > 0)!.id;
    return { postId: post.id, topLevel, deepest: deepest.id };
  }

  beforeAll(async () => {
    // In a private group, so every read also checks who may see it.
    const group = await createGroup(t.app, alice, { isPrivate: true });
    await addMember(t.app, group.id, bob);
    threads.small = await seedThread(alice, 50, [group.id]);
    threads.big = await seedThread(alice, 500, [group.id]);
  }, 60_000);

  const cost = async (url: string): Promise<number> => (await statementsOf(bob, url)).length;

  const reads: [string, (thread: Thread) => string][] = [
    ['the post', (th) => `/api/post/${th.postId}`],
    ['its first page of comments', (th) => `/api/post/${th.postId}/comments`],
    ['a later page, most liked first', (th) => `/api/post/${th.postId}/comments?page=2&sort=popular`],
    ['the replies of a comment', (th) => `/api/post/${th.topLevel}/comments`],
    ['a deep comment in its chain of ancestors', (th) => `/api/comment/${th.deepest}/tree`],
  ];

  it.each(reads)('%s: the same few statements for 50 comments as for 500', async (_name, url) => {
    const small = await cost(url(threads.small));
    const big = await cost(url(threads.big));
    expect(small).toBeGreaterThan(0);
    expect(big).toBe(small);
    expect(big).toBeLessThanOrEqual(10);
  });
});

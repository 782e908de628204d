import { beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '#core/text';
import { newId } from '../../src/lib/ids';
import { addMember, createGroup, createPost, type TestUser, useUsers } from '../helpers/fixtures';
import { useStatementCounter } from '../helpers/statements';

/**
 * The hot reads served from the database, and how many statements each runs: on PostgreSQL every
 * one is a round trip to another process, so a read that gains one is slower there by that much.
 * The pages hold everything a post card reads (groups, private and public, mentions, the reader's
 * likes, a reply, a ban), so none of its statements is skipped for want of rows.
 */
describe('statements per hot read', () => {
  const { t, statementsOf } = useStatementCounter();
  const { alice, bob, carol, dave } = useUsers(t, 'alice', 'bob', 'carol', 'dave');
  let privateGroup = { id: '', name: '' };
  let publicGroup = { id: '', name: '' };
  let privatePost = '';
  let publicPost = '';
  let comment = '';

  beforeAll(async () => {
    privateGroup = await createGroup(t.app, alice, { isPrivate: true });
    publicGroup = await createGroup(t.app, carol);
    await addMember(t.app, privateGroup.id, bob);
    await addMember(t.app, publicGroup.id, bob, 'admin');
    await t.app.db.insertInto('group_bans').values({ group_id: publicGroup.id, user_id: alice.id, created_at: Date.now() }).execute();
    const start = Date.now() - 100_000;
    const original = await createPost(t.app, carol, { createdAt: start });
    for (let i = 1; i <= 12; i++) {
      const post = await createPost(t.app, [alice, carol][i % 2]!, {
        createdAt: start + i * 1000,
        groupIds: [[privateGroup.id, publicGroup.id], [publicGroup.id], []][i % 3]!,
        ...(i % 4 === 0 ? { replyTo: original.id } : {}),
      });
      if (i === 12) privatePost = post.id;
      if (i === 4) publicPost = post.id;
      await t.app.db.insertInto('post_mentions').values({ post_id: post.id, position: 0, user_id: bob.id, username: bob.username }).execute();
      if (i % 2 === 0) await t.app.db.insertInto('post_likes').values({ post_id: post.id, user_id: bob.id, created_at: start }).execute();
    }
    // Posts naming no group and nobody: their page reads no tags and no mentions.
    for (let i = 0; i < 3; i++) await createPost(t.app, dave, { createdAt: start + i });
    for (let i = 0; i < 24; i++) {
      const id = newId();
      const text = `comment ${i}`;
      await t.app.db
        .insertInto('comments')
        .values({ id, post_id: i % 2 ? privatePost : publicPost, parent_comment_id: i % 6 === 3 ? comment : null, author_id: alice.id, text, search_text: foldForSearch(text), created_at: start + i })
        .execute();
      if (i === 1) comment = id;
      await t.app.db.insertInto('comment_mentions').values({ comment_id: id, position: 0, user_id: bob.id, username: bob.username }).execute();
      if (i % 4 < 2) await t.app.db.insertInto('comment_likes').values({ comment_id: id, user_id: bob.id, created_at: start }).execute();
    }
  });

  // A feed's page and its posts are one statement.
  const reads: [string, () => TestUser | null, () => string, number][] = [
    ['the newest feed, signed in', () => bob, () => '/api/feed?sort=newest', 4],
    ['a private group\'s posts, signed in', () => bob, () => `/api/group/${privateGroup.name}/posts?sort=newest`, 6],
    ['a group\'s posts, signed out', () => null, () => `/api/group/${publicGroup.name}/posts?sort=newest`, 4],
    // A public group's posts are anyone's: its reader's membership is not asked for.
    ['a public group\'s posts, signed in', () => bob, () => `/api/group/${publicGroup.name}/posts?sort=newest`, 5],
    // The session, the author's id by name, the page with its posts.
    ['posts naming no group and nobody, signed in', () => bob, () => `/api/profile/posts/${dave.username}`, 3],
    ['a post in a private group, signed in', () => bob, () => `/api/post/${privatePost}`, 4],
    ['a post, signed out', () => null, () => `/api/post/${publicPost}`, 3],
    ['a post\'s comments, signed in', () => bob, () => `/api/post/${privatePost}/comments`, 5],
    ['a comment\'s replies, signed in', () => bob, () => `/api/post/${comment}/comments`, 6],
    ['a post\'s comments, signed out', () => null, () => `/api/post/${publicPost}/comments`, 4],
  ];

  it.each(reads)('%s', async (_name, user, url, expected) => {
    const statements = await statementsOf(user(), url());
    expect(statements, statements.join('\n')).toHaveLength(expected);
  });
});

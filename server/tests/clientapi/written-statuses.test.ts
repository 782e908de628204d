import { describe, expect, it } from 'vitest';
import { Status } from '#core/api/client-entities';
import type { Post } from '#core/api/posts';
import type { PersonRow } from '../../src/modules/clientapi/clientapi.repository';
import { writtenPostStatus } from '../../src/modules/clientapi/written-statuses';
import { addMember, createFollow, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { appGet, expectShape } from './client-calls';
import { appToken } from './oauth-helpers';

/**
 * Timelines write their statuses once and keep them for the next read of the same reader: what they
 * answer must be what the status itself reads as, and must follow every change at once.
 */
describe('statuses kept between reads of a timeline', () => {
  const t = useTestApp();

  async function reader(): Promise<{ user: TestUser; token: string }> {
    const user = await createUser(t.app);
    return { user, token: await appToken(t.app, user, 'read write') };
  }

  const home = async (token: string) => {
    const res = await appGet(t.app, '/api/v1/timelines/home', token);
    expect(res.status).toBe(200);
    return res.body as Status[];
  };

  it('answers each status of a timeline as the status reads alone, read after read', async () => {
    const { user, token } = await reader();
    const author = await createUser(t.app);
    const group = await createGroup(t.app, author, { isPrivate: true });
    await addMember(t.app, group.id, user);
    await createFollow(t.app, user, author);
    await createPost(t.app, author, { text: 'plain words #tagged' });
    await createPost(t.app, author, { text: 'in the group', groupIds: [group.id] });
    for (let read = 0; read < 2; read++) {
      const page = await home(token);
      expect(page).toHaveLength(2);
      for (const status of page) {
        expectShape(Status, status);
        expect(status).toEqual((await appGet(t.app, `/api/v1/statuses/${status.id}`, token)).body);
      }
      expect(page.map((s) => s.visibility)).toEqual(['private', 'public']);
    }
  });

  it('follows a like, an edit, the author\'s new follower and the reader\'s own like at the next read', async () => {
    const { user, token } = await reader();
    const other = await reader();
    const author = await createUser(t.app);
    await createFollow(t.app, user, author);
    await createFollow(t.app, other.user, author);
    const post = await createPost(t.app, author, { text: 'first words' });
    const first = (await home(token))[0]!;
    expect(first).toMatchObject({ id: post.id, favourites_count: 0, favourited: false, account: { followers_count: 2 } });

    const like = (as: string) => t.app.inject({ method: 'POST', url: `/api/v1/statuses/${post.id}/favourite`, headers: { authorization: `Bearer ${as}` } });
    expect((await like(other.token)).statusCode).toBe(200);
    expect((await home(token))[0]).toMatchObject({ favourites_count: 1, favourited: false });
    // Each reader reads their own like, the other's page read in between.
    expect((await home(other.token))[0]).toMatchObject({ favourites_count: 1, favourited: true });
    expect((await like(token)).statusCode).toBe(200);
    expect((await home(token))[0]).toMatchObject({ favourites_count: 2, favourited: true });
    expect((await home(other.token))[0]).toMatchObject({ favourites_count: 2, favourited: true });

    await createFollow(t.app, await createUser(t.app), author);
    expect((await home(token))[0]!.account.followers_count).toBe(3);

    const authorToken = await appToken(t.app, author, 'read write');
    const edited = await t.app.inject({ method: 'PUT', url: `/api/v1/statuses/${post.id}`, headers: { authorization: `Bearer ${authorToken}` }, payload: { status: 'second words' } });
    expect(edited.statusCode).toBe(200);
    const after = (await home(token))[0]!;
    expect(after.content).toContain('second words');
    expect(after.edited_at).not.toBeNull();
  });

  it('writes a status anew when the objects it was made from change afterwards', () => {
    const author: PersonRow = { id: 'a1', username: 'writer', bio: '', pfp_version: 0, created_at: 0, discoverable: true, indexable: true, remote_url: null, followers: 1, following: 0, statuses: 1, last_status_at: null };
    const post: Post = {
      _id: 'p1', text: 'words', author: { username: 'writer', pfp: 'a1', pfpUrl: '/pfp' }, createdAt: 1_764_489_600_000, likes: 0, liked: false, comments: 0, replyingTo: null,
      groups: [], mentions: [], itsme: false, adminGroups: [], pinnedGroups: [], ownedGroups: [], bannedGroups: [], canReply: true, images: 0, media: [], alts: [], contentWarning: null, editedAt: null,
    };
    const facts = { origin: 'https://kruh.example', private: false };
    const read = () => JSON.parse(writtenPostStatus('r1', post, author, facts).json) as Status;
    expect(read()).toMatchObject({ favourites_count: 0, account: { followers_count: 1 } });
    post.likes = 5;
    author.followers = 7;
    expect(read()).toMatchObject({ favourites_count: 5, account: { followers_count: 7 } });
    post.mentions.push({ _id: 'a2', username: 'friend' });
    expect(read().mentions.map((m) => m.acct)).toEqual(['friend']);
    expect(JSON.parse(writtenPostStatus('r1', post, author, { ...facts, private: true }).json)).toMatchObject({ visibility: 'private' });
    expect(JSON.parse(writtenPostStatus('r1', post, author, { ...facts, origin: 'https://other.example' }).json).url).toBe('https://other.example/p/p1');
  });
});

import { describe, expect, it } from 'vitest';
import type { Post, PostList } from '#core/api/posts';
import { waitForServiceWorker } from '../support/browser';
import { JOURNEY_VIEWPORT, composePost, text } from '../support/journeys';
import { outboxSize } from '../support/outbox';
import { api, createPost, createVerifiedUser, uniqueName } from '../support/server';
import { useE2eSuite } from '../support/suite';

/**
 * A day on a train: read online, lose the connection, reload and keep reading; write a post, a
 * comment and two likes, and a post to a group that bans the writer meanwhile; close the app and
 * open it again, still offline; back online, each lands exactly once and the refused post comes
 * back as a draft with the server's reason, translated.
 */
describe('journey: offline writing, survived across a closed app, delivered once', () => {
  const e2e = useE2eSuite();

  /** The people, names and posts of one try, made inside the test so a second try starts from fresh ones. */
  async function setUp() {
    const pond = uniqueName('pond');
    /** Texts carry the try's own mark: a second try must not find the first try's posts in the feed. */
    const mark = uniqueName('try');
    const said = (words: string) => `${words} (${mark})`;
    const [ava, rey] = [await createVerifiedUser(e2e.server), await createVerifiedUser(e2e.server)];
    const posts: Post[] = [];
    for (const words of ['Morning mist over the pond', 'Herons are back this week']) posts.push(await createPost(e2e.server, ava, { text: said(words) }));
    expect((await api(e2e.server, 'POST', '/comment/', { token: ava.token, body: { text: 'Photos to follow.', parent: posts[0]!._id } })).status).toBe(201);
    const group = await api(e2e.server, 'POST', '/group', {
      token: ava.token,
      body: { name: pond, description: 'Friends of the pond.', isPrivate: false, requestJoin: false, everyoneCanPost: true },
    });
    expect(group.status).toBe(201);
    expect((await api(e2e.server, 'PUT', `/group/${pond}/join`, { token: rey.token })).status).toBe(200);
    return { ava, rey, pond, posts, said };
  }

  it('keeps everything written offline through a closed app and sends each item once', async () => {
    const { ava, rey, pond, posts, said } = await setUp();
    const { server } = e2e;
    const reysPosts = async () => (await api<PostList>(server, 'GET', `/profile/posts/${rey.username}`, { token: ava.token })).body.posts;
    const postNow = async (id: string) => (await api<Post>(server, 'GET', `/post/${id}`, { token: ava.token })).body;
    const page = await e2e.visit('/feed', { as: rey, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    await main.getByText(posts[1]!.text).waitFor();
    await waitForServiceWorker(page);
    await page.goto(`${server.baseUrl}/p/${posts[0]!._id}`);
    await main.getByText('Photos to follow.').waitFor();

    // Offline: the post page still reads after a reload.
    await e2e.journey.context.setOffline(true);
    await page.reload();
    await main.getByText(posts[0]!.text).first().waitFor();
    await main.getByText('Photos to follow.').waitFor();

    // A comment and a like here, a like on the other post in the feed, and two posts.
    const commentBox = main.getByRole('textbox', { name: text('en', 'comments:box.label') });
    await commentBox.fill('Saw a kingfisher too!');
    await main.getByRole('button', { name: text('en', 'comments:box.submit'), exact: true }).first().click();
    // The box empties once the comment is queued; until then its own text would match too.
    await expect.poll(() => commentBox.inputValue()).toBe('');
    await main.getByText('Saw a kingfisher too!').waitFor();
    const likeIn = async (postId: string) => {
      const card = main.locator(`article[data-post-id="${postId}"]`).first();
      await card.getByRole('button', { name: text('en', 'post:like'), exact: true }).click();
      await card.getByRole('button', { name: text('en', 'post:unlike'), exact: true }).waitFor();
    };
    await likeIn(posts[0]!._id);
    await page.goto(`${server.baseUrl}/feed`);
    await likeIn(posts[1]!._id);
    await composePost(page, server.baseUrl, said('Written on the train, sent at home'));
    await composePost(page, server.baseUrl, said('A note for the pond group'), `/post?g=${pond}`);
    expect(await outboxSize(page, rey.id)).toBe(5);

    // Meanwhile the group bans Rey.
    expect((await api(server, 'PUT', `/group/${pond}/ban/${rey.id}`, { token: ava.token })).status).toBe(200);

    // The app is closed and opened again, still offline: everything still waits.
    await page.close();
    const reopened = await e2e.journey.context.newPage();
    await reopened.goto(`${server.baseUrl}/feed`);
    await reopened.getByRole('main').getByText(said('Written on the train, sent at home')).waitFor();
    expect(await outboxSize(reopened, rey.id)).toBe(5);

    // Online again: each item lands exactly once; the group post is refused.
    await e2e.journey.context.setOffline(false);
    await expect.poll(() => outboxSize(reopened, rey.id), { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => (await reysPosts()).map((p) => p.text)).toEqual([said('Written on the train, sent at home')]);
    expect(await postNow(posts[0]!._id)).toMatchObject({ likes: 1, comments: 2 });
    expect(await postNow(posts[1]!._id)).toMatchObject({ likes: 1 });
    const comments = (await api<{ comments: Array<{ text: string }> }>(server, 'GET', `/post/${posts[0]!._id}/comments`, { token: ava.token })).body.comments;
    expect(comments.filter((c) => c.text === 'Saw a kingfisher too!')).toHaveLength(1);

    // The refused post is back in its composer, with the reason in the person's language.
    await reopened.goto(`${server.baseUrl}/post?g=${pond}`);
    const again = reopened.getByRole('main');
    await expect.poll(() => again.getByRole('textbox', { name: text('en', 'compose:text_label') }).inputValue()).toBe(said('A note for the pond group'));
    await again.getByRole('alert').filter({ hasText: text('en', 'error:banned') }).waitFor();
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});

import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { PostList } from '#core/api/posts';
import type { Comment } from '#core/api/comments';
import { JOURNEY_VIEWPORT, text } from '../support/journeys';
import { outboxSize } from '../support/outbox';
import { api, createPost, createVerifiedUser, uniqueName } from '../support/server';
import { useE2eSuite } from '../support/suite';

const photo = async (name: string, background: string) => ({
  name,
  mimeType: 'image/png',
  buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background } }).png().toBuffer(),
});

/**
 * Writing a post as people do: two photos, a mention and a group picked from suggestions, a
 * hashtag in the text; then finding it everywhere it belongs and looking through its photos.
 */
describe('journey: compose a rich post and find it everywhere', () => {
  const e2e = useE2eSuite();

  /** The people and names of one try, made inside the test so a second try starts from fresh ones. */
  async function setUp() {
    const group = uniqueName('orchard');
    const words = `Pressing apples ${Date.now()} today #cider`;
    const [ada, finn] = [await createVerifiedUser(e2e.server), await createVerifiedUser(e2e.server)];
    const created = await api(e2e.server, 'POST', '/group', {
      token: ada.token,
      body: { name: group, description: 'Trees and what they give.', isPrivate: false, requestJoin: false, everyoneCanPost: true },
    });
    expect(created.status).toBe(201);
    return { ada, finn, group, words };
  }

  /** Picks `name` from the suggestions of the newest slot of one kind. */
  async function pick(page: Page, addLabel: string, slotLabel: string, name: string): Promise<void> {
    const main = page.getByRole('main');
    await main.getByRole('button', { name: addLabel }).click();
    await main.getByRole('combobox', { name: slotLabel }).last().fill(name);
    await main.getByRole('option').filter({ hasText: name }).click();
  }

  it('posts two photos with a mention, a group and a hashtag, finds the post, and browses the photos', async () => {
    const { ada, finn, group, words } = await setUp();
    const { server } = e2e;
    const en = (id: string, values?: Record<string, string | number>) => text('en', id, values);
    const page = await e2e.visit('/post', { as: ada, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');

    await main.getByRole('textbox', { name: en('compose:text_label') }).fill(words);
    await pick(page, en('compose:add_mention'), en('common:slot.mention_placeholder'), finn.username);
    await pick(page, en('compose:add_group'), en('common:slot.group_placeholder'), group);
    await main.locator('input[type=file]').setInputFiles([await photo('red.png', '#c0392b'), await photo('green.png', '#27ae60')]);
    await main.getByRole('button', { name: en('compose:remove_image', { index: 2 }) }).waitFor();
    await main.getByRole('button', { name: en('compose:submit'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // Stored as written: both photos, the mention and the group resolved to their ids.
    const stored = async () => (await api<PostList>(server, 'GET', `/group/${group}/posts`, { token: ada.token })).body.posts;
    // The text lands first; the photos follow it, uploaded by the outbox.
    await expect.poll(async () => (await stored()).map((p) => [p.text, p.media.length]), { timeout: 15_000 }).toEqual([[words, 2]]);
    const [post] = await stored();
    expect(post!.media).toHaveLength(2);
    expect(post!.mentions).toEqual([{ _id: finn.id, username: finn.username }]);
    expect(post!.groups.map((g) => [g.name, !!g._id])).toEqual([[group, true]]);

    // Found in the feed, under the hashtag, in the group and by search.
    for (const path of ['/feed', '/h/cider', `/g/${group}`, `/search?q=${encodeURIComponent('pressing apples')}`]) {
      await page.goto(`${server.baseUrl}${path}`);
      await main.locator(`article[data-post-id="${post!._id}"]`).first().waitFor({ timeout: 15_000 });
    }

    // The photos: open the first, swipe to the second, zoom, close with Escape.
    await page.goto(`${server.baseUrl}/p/${post!._id}`);
    const card = main.locator(`article[data-post-id="${post!._id}"]`).first();
    await card.getByRole('img', { name: en('post:image_alt', { index: 1 }) }).click();
    const gallery = page.getByRole('dialog');
    const counter = gallery.locator('.yarl__counter');
    await expect.poll(() => counter.textContent()).toBe(text('en', 'gallery:slide_label', { index: 1, total: 2 }));
    const box = await gallery.locator('.yarl__slide_current').boundingBox();
    if (!box) throw new Error('no slide on screen');
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.8, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.1, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => counter.textContent()).toContain('2');
    await gallery.getByRole('button', { name: en('gallery:zoom_in') }).click();
    await expect.poll(() => gallery.getByRole('button', { name: en('gallery:zoom_out') }).isEnabled()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => gallery.count()).toBe(0);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('picks a slot’s suggestion with the keys, in the composer and the comment box, and sends only when asked', async () => {
    const { ada, finn, group, words } = await setUp();
    const { server } = e2e;
    const en = (id: string) => text('en', id);
    const page = await e2e.visit('/post', { as: ada, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    // Posts and comments the server received since `mark` (its count of requests then).
    const sentSince = (mark: number) => server.requests.slice(mark).filter((r) => r.method === 'POST' && /^\/api\/(post|comment)\/?$/.test(r.path));
    const composing = server.requests.length;

    // The composer: the first suggestion is highlighted as the list opens, so a plain Enter picks the group.
    const textBox = main.getByRole('textbox', { name: en('compose:text_label') });
    await textBox.fill(words);
    await main.getByRole('button', { name: en('compose:add_group') }).click();
    const groupSlot = main.getByRole('combobox', { name: en('common:slot.group_placeholder') });
    await groupSlot.fill(group.slice(0, -3));
    const groupOption = main.getByRole('option', { name: `&${group}` });
    await groupOption.waitFor();
    await expect.poll(() => groupSlot.getAttribute('aria-activedescendant')).toBe(await groupOption.getAttribute('id'));
    await groupSlot.press('Enter');
    await expect.poll(() => groupSlot.inputValue()).toBe(group);
    expect(await groupSlot.getAttribute('aria-expanded')).toBe('false');
    expect(new URL(page.url()).pathname).toBe('/post');
    expect(await outboxSize(page, ada.id)).toBe(0);
    expect(sentSince(composing)).toEqual([]);
    await textBox.press('Control+Enter');
    await page.waitForURL((url) => url.pathname === '/');
    const stored = async () => (await api<PostList>(server, 'GET', `/group/${group}/posts`, { token: ada.token })).body.posts;
    await expect.poll(async () => (await stored()).map((p) => [p.text, p.groups.map((g) => [g.name, !!g._id])])).toEqual([[words, [[group, true]]]]);

    // The comment box: the same for a mention. The post's send is settled first: leaving the page
    // while its answer is on the way would send it again on the next page (applied once, by its key).
    await expect.poll(() => outboxSize(page, ada.id)).toBe(0);
    const post = await createPost(server, finn, { text: `Spare ladders ${Date.now()}` });
    const commenting = server.requests.length;
    await page.goto(`${server.baseUrl}/p/${post._id}`);
    const commentBox = main.getByRole('textbox', { name: en('comments:box.label') });
    await commentBox.fill('Ask the neighbour');
    await main.getByRole('button', { name: en('comments:box.add_mention') }).click();
    const mentionSlot = main.getByRole('combobox', { name: en('common:slot.mention_placeholder') });
    await mentionSlot.fill(finn.username.slice(0, -1));
    const mentionOption = main.getByRole('option', { name: `@${finn.username}` });
    await mentionOption.waitFor();
    await expect.poll(() => mentionSlot.getAttribute('aria-activedescendant')).toBe(await mentionOption.getAttribute('id'));
    await mentionSlot.press('Enter');
    await expect.poll(() => mentionSlot.inputValue()).toBe(finn.username);
    expect(await outboxSize(page, ada.id)).toBe(0);
    expect(sentSince(commenting)).toEqual([]);
    await commentBox.press('Control+Enter');
    const comments = async () => (await api<{ comments: Comment[] }>(server, 'GET', `/post/${post._id}/comments`, { token: ada.token })).body.comments;
    await expect.poll(async () => (await comments()).map((c) => [c.text, c.mentions.map((m) => m._id)])).toEqual([['Ask the neighbour', [finn.id]]]);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
  it('offers names typed into the text under it, and makes a typed @name a mention, on a phone', async () => {
    const { ada, finn, words } = await setUp();
    const carol = await createVerifiedUser(e2e.server);
    const { server } = e2e;
    const en = (id: string) => text('en', id);
    const page = await e2e.visit('/post', { as: ada, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    const textBox = main.getByRole('textbox', { name: en('compose:text_label') });

    // "@" and the start of a name: the suggestions open under the text, the first highlighted.
    // The box is disabled until its draft is read, and keys pressed into a box nobody can focus
    // are lost: a click waits for it to be enabled, as a person would.
    await textBox.click();
    await textBox.pressSequentially(`${words} with @${finn.username.slice(0, -1)}`);
    const list = main.getByRole('listbox', { name: en('common:slot.suggestions') });
    const option = list.getByRole('option', { name: `@${finn.username}` });
    await option.waitFor();
    await expect.poll(() => textBox.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
    const [field, shown] = [await textBox.boundingBox(), await list.boundingBox()];
    if (!field || !shown) throw new Error('the text or its suggestions are not on screen');
    expect(shown.y).toBeGreaterThanOrEqual(field.y + field.height - 1);
    expect(shown.x + shown.width).toBeLessThanOrEqual(JOURNEY_VIEWPORT.width);
    // Escape closes the list; typing on opens it again, and Enter takes the name without sending.
    await textBox.press('Escape');
    await expect.poll(() => list.count()).toBe(0);
    await textBox.pressSequentially(finn.username.slice(-1));
    await option.waitFor();
    await textBox.press('Enter');
    await expect.poll(() => textBox.inputValue()).toBe(`${words} with @${finn.username} `);
    await expect.poll(() => main.getByRole('combobox', { name: en('common:slot.mention_placeholder') }).inputValue()).toBe(finn.username);
    expect(new URL(page.url()).pathname).toBe('/post');

    // A name typed in full, never picked, is a mention too once the post leaves.
    await textBox.pressSequentially(`and @${carol.username}.`);
    await textBox.press('Control+Enter');
    await page.waitForURL((url) => url.pathname === '/');
    const mine = async () => (await api<PostList>(server, 'GET', `/profile/posts/${ada.username}`, { token: ada.token })).body.posts;
    await expect.poll(async () => (await mine()).map((p) => p.mentions.map((m) => m._id)), { timeout: 15_000 }).toEqual([[finn.id, carol.id]]);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});

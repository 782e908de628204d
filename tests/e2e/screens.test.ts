import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { text } from './support/journeys';
import { type TestUser, api, createPost, createVerifiedUser, uniqueName } from './support/server';
import { useE2eSuite } from './support/suite';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** What has the focus: its tag and its text. */
const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? '', text: document.activeElement?.textContent?.trim() ?? '' }));

/**
 * Moving between screens: a post opens from anywhere on its card, each screen names itself in the
 * tab and the history in the reader's language, and the focus lands on the new screen's heading.
 */
describe('screens', () => {
  const e2e = useE2eSuite();
  let author: TestUser;
  const words = `A card to tap ${Date.now()}`;
  let postId = '';

  beforeAll(async () => {
    author = await createVerifiedUser(e2e.server);
    postId = (await createPost(e2e.server, author, { text: words }))._id;
  });

  it.each([['phone', PHONE], ['desktop', DESKTOP]] as const)('opens a post tapped on its text, and its author from the name (%s)', async (_size, device) => {
    const page = await e2e.visit('/feed', device);
    // The app's card (main#main), not the one the server's first page draws before the app starts.
    const card = page.locator(`main#main article[data-post-id="${postId}"]`);
    await card.getByText(words).click();
    await page.waitForURL((url) => url.pathname === `/p/${postId}`);
    await page.goBack();
    await card.getByRole('link', { name: author.username, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/u/${author.username}`);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('names every screen in the tab, as the server does, in English and in Czech', async () => {
    const page = await e2e.visit('/feed', { ...PHONE, locale: 'en-US' });
    await page.locator(`main#main article[data-post-id="${postId}"]`).getByText(words).click();
    await expect.poll(() => page.title()).toBe(`@${author.username} on Kruh`);
    await page.locator(`main#main article[data-post-id="${postId}"]`).getByRole('link', { name: author.username, exact: true }).click();
    await expect.poll(() => page.title()).toBe(`@${author.username} on Kruh`);
    await page.getByRole('navigation', { name: text('en', 'common:nav.label') }).getByRole('link', { name: text('en', 'common:nav.search') }).click();
    await expect.poll(() => page.title()).toBe(`${text('en', 'search:title')} · Kruh`);

    const czech = await e2e.visit('/search', { ...PHONE, locale: 'cs-CZ' });
    await expect.poll(() => czech.title()).toBe(`${text('cs', 'search:title')} · Kruh`);
    await czech.goto(`${e2e.server.baseUrl}/u/${author.username}`);
    await expect.poll(() => czech.title()).toBe(`@${author.username} na Kruhu`);
  });

  it('puts the focus on the new screen\'s heading after a navigation and after a post is sent', async () => {
    const user = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/feed', { as: user, ...PHONE });
    const nav = page.getByRole('navigation', { name: text('en', 'common:nav.label') });
    await nav.getByRole('link', { name: text('en', 'common:nav.notifications') }).click();
    await page.getByRole('heading', { name: text('en', 'notifications:title'), level: 1 }).waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: text('en', 'notifications:title') });

    await nav.getByRole('link', { name: text('en', 'common:nav.newPost'), exact: true }).click();
    const box = page.getByRole('main').getByRole('textbox', { name: text('en', 'compose:text_label') });
    await box.fill(`Sent with the keyboard ${Date.now()}`);
    await page.getByRole('main').getByRole('button', { name: text('en', 'compose:submit') }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: text('en', 'feed:title') });
  });

  it('takes 512 characters in the composer as the server counts them, an emoji once', async () => {
    const user = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/post', { as: user, ...PHONE });
    await e2e.journey.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const box = page.getByRole('main').getByRole('textbox', { name: text('en', 'compose:text_label') });
    await box.click();
    await page.evaluate((emoji) => navigator.clipboard.writeText(emoji), '😀'.repeat(300));
    await page.keyboard.press('Control+V');
    await expect.poll(() => box.inputValue().then((value) => [...value].length)).toBe(300);
    await page.getByRole('main').getByText(text('en', 'editor:length', { length: 300, max: 512 })).waitFor();
  });

  it.each(['/notifications', '/account', '/post'])('asks a visitor opening %s to log in, then brings them back to it', async (path) => {
    const user = await createVerifiedUser(e2e.server);
    const page = await e2e.visit(path, PHONE);
    const main = page.getByRole('main');
    await main.getByText(text('en', 'auth:login.returns')).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await main.getByLabel(text('en', 'auth:login.identifier'), { exact: true }).fill(user.username);
    await main.getByLabel(text('en', 'auth:login.password'), { exact: true }).fill(user.password);
    await main.getByRole('button', { name: text('en', 'auth:login.submit'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === path);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it.each([['light', 'light'], ['dark', 'dark']] as const)('asks before a ban with a button naming it, readable under the pointer (%s)', async (_scheme, colorScheme) => {
    const [owner, member] = await Promise.all([createVerifiedUser(e2e.server), createVerifiedUser(e2e.server)]);
    const group = uniqueName('grp');
    expect((await api(e2e.server, 'POST', '/group', { token: owner.token, body: { name: group, description: '', requestJoin: false } })).status).toBe(201);
    expect((await api(e2e.server, 'PUT', `/group/${group}/join`, { token: member.token })).status).toBe(200);
    const page = await e2e.visit(`/g/${group}/members`, { as: owner, ...PHONE, colorScheme });
    await page.getByRole('main').getByRole('button', { name: `Ban ${member.username}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Ban ${member.username} from &${group}?` });
    const confirm = dialog.getByRole('button', { name: text('en', 'common:conf.ban_action', { username: member.username }), exact: true });
    await confirm.hover();
    const { violations } = await new AxeBuilder({ page }).include('[role="alertdialog"]').analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.failureSummary).join('; ')}`)).toEqual([]);
  });

  it('takes a mention slot\'s first suggestion on Enter, and hides the list when the focus leaves', async () => {
    const user = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/post', { as: user, ...PHONE });
    const main = page.getByRole('main');
    // Until its draft is read the composer takes no input (its text box is disabled meanwhile); on a
    // loaded machine the read takes longer than a poll's default second.
    await expect.poll(() => main.getByRole('textbox', { name: text('en', 'compose:text_label') }).isEnabled(), { timeout: 15_000 }).toBe(true);
    await main.getByRole('button', { name: text('en', 'compose:add_mention') }).click();
    const slot = main.getByRole('combobox', { name: text('en', 'common:slot.mention_placeholder') });
    await slot.fill(author.username.slice(0, -1));
    const list = main.getByRole('listbox', { name: text('en', 'common:slot.suggestions') });
    await list.waitFor();
    await main.getByRole('textbox', { name: text('en', 'compose:text_label') }).click();
    await list.waitFor({ state: 'detached' });
    await slot.click();
    await list.waitFor();
    await slot.press('Enter');
    await expect.poll(() => slot.inputValue()).toBe(author.username);
    expect(new URL(page.url()).pathname).toBe('/post');
  });

  it('online, keeps a refused post in the composer with its reason, and says so', async () => {
    const [owner, member] = await Promise.all([createVerifiedUser(e2e.server), createVerifiedUser(e2e.server)]);
    const group = uniqueName('grp');
    const created = await api(e2e.server, 'POST', '/group', {
      token: owner.token,
      body: { name: group, description: '', isPrivate: false, requestJoin: false, everyoneCanPost: false },
    });
    expect(created.status).toBe(201);
    expect((await api(e2e.server, 'PUT', `/group/${group}/join`, { token: member.token })).status).toBe(200);
    const page = await e2e.visit(`/post?g=${group}`, { as: member, ...PHONE });
    const main = page.getByRole('main');
    const box = main.getByRole('textbox', { name: text('en', 'compose:text_label') });
    await box.fill('Only admins post here');
    await main.getByRole('button', { name: text('en', 'compose:submit') }).click();
    // Said twice: at the editor, and in a toast.
    await expect.poll(() => page.getByRole('alert').filter({ hasText: text('en', 'error:need_admin') }).count()).toBe(2);
    expect(await box.inputValue()).toBe('Only admins post here');
    expect(new URL(page.url()).pathname).toBe('/post');
  });

  it('draws the edit dialog\'s mentions without the browser\'s fieldset groove', async () => {
    const user = await createVerifiedUser(e2e.server);
    const own = await createPost(e2e.server, user, { text: `Mentioning ${author.username}`, mentions: [author.username] });
    const page = await e2e.visit(`/p/${own._id}`, { as: user, ...PHONE });
    const card = page.locator(`main#main article[data-post-id="${own._id}"]`);
    await card.getByRole('button', { name: text('en', 'post:menu'), exact: true }).click();
    await page.getByRole('menuitem', { name: text('en', 'edits:edit'), exact: true }).click();
    const mentions = page.getByRole('dialog', { name: text('en', 'edits:title') }).getByRole('group', { name: text('en', 'editor:mentions') });
    expect(await mentions.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('none');
  });

  it.each(['en', 'cs'] as const)('keeps the phone\'s bottom bar to five places, each named on one line (%s)', async (language) => {
    const user = await createVerifiedUser(e2e.server, { language });
    const page = await e2e.visit('/feed', { as: user, ...PHONE, locale: language === 'cs' ? 'cs-CZ' : 'en-US' });
    const nav = page.getByRole('navigation', { name: text(language, 'common:nav.label') });
    await nav.getByRole('link', { name: text(language, 'common:nav.newPost'), exact: true }).waitFor();
    const lines = await nav.locator('.navbar__item').evaluateAll((items) =>
      items
        .filter((item) => getComputedStyle(item).display !== 'none')
        .map((item) => {
          const range = document.createRange();
          range.selectNodeContents(item.querySelector('.navbar__label')!);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        }),
    );
    expect(lines).toEqual([1, 1, 1, 1, 1]);
    // "You" once: the account, whose page links the public profile.
    await nav.getByRole('link', { name: user.username, exact: true }).click();
    await page.getByRole('main').getByRole('link', { name: text(language, 'account:profileLink') }).click();
    await page.waitForURL((url) => url.pathname === `/u/${user.username}`);
  });

  it('puts the focus on the heading once sign-up has sent its mail, rather than on the page\'s body', async () => {
    const page = await e2e.visit('/signup', PHONE);
    const main = page.getByRole('main');
    const username = uniqueName('newbie');
    await main.getByLabel(text('en', 'auth:signup.username'), { exact: true }).fill(username);
    await main.getByLabel(text('en', 'auth:signup.email'), { exact: true }).fill(`${username}@example.com`);
    await main.getByLabel(text('en', 'auth:signup.password'), { exact: true }).fill('Str0ng!pass');
    await main.getByLabel(text('en', 'auth:signup.repeat'), { exact: true }).fill('Str0ng!pass');
    await main.getByRole('button', { name: text('en', 'auth:signup.submit'), exact: true }).click();
    await main.getByRole('status').first().waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'H1', text: text('en', 'auth:signup.title') });
  });
});

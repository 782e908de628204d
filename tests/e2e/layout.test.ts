import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { nativeLookingControls } from './support/native-look';
import { type TestUser, api, createVerifiedUser } from './support/server';
import { animationsEnded, nextPaint, waitForServiceWorker } from './support/browser';
import { useE2eSuite } from './support/suite';

/**
 * How the app looks where people first land: a shared link or a reload opens any screen cold,
 * on a phone or a desktop, in English or Czech.
 */
describe('layout', () => {
  const e2e = useE2eSuite();
  let owner: TestUser;
  let friend: TestUser;
  const stamp = Date.now() % 1_000_000;
  const group = `layout${stamp}`;
  const tag = `layouttag${stamp}`;
  let postId: string;

  beforeAll(async () => {
    const { server } = e2e;
    [owner, friend] = (await Promise.all([1, 2].map(() => createVerifiedUser(server)))) as [TestUser, TestUser];
    expect((await api(server, 'POST', '/follow', { token: friend.token, body: { following: owner.id } })).status).toBe(201);
    expect((await api(server, 'POST', '/follow', { token: owner.token, body: { following: friend.id } })).status).toBe(201);
    const created = await api(server, 'POST', '/group', {
      token: owner.token,
      body: { name: group, description: 'Laid out', isPrivate: false, requestJoin: false, everyoneCanPost: true },
    });
    expect(created.status).toBe(201);
    expect((await api(server, 'PUT', `/group/${group}/join`, { token: friend.token })).status).toBe(200);
    const post = await api<{ _id: string }>(server, 'POST', '/post', {
      token: owner.token,
      body: { text: `A post worth a long thread #${tag}` },
    });
    expect(post.status).toBe(201);
    postId = post.body._id;
    // A thread several replies deep, answered by turns.
    let parent = postId;
    for (let depth = 0; depth < 8; depth += 1) {
      const author = depth % 2 === 0 ? friend : owner;
      const comment = await api<{ _id: string }>(server, 'POST', '/comment/', {
        token: author.token,
        body: { text: `Reply at depth ${depth} with words enough to fill a line or two on a phone`, parent },
      });
      expect(comment.status).toBe(201);
      parent = comment.body._id;
    }
    // A reply of the owner's own, shown under their profile's replies.
    // The friend's post, whose menu offers the owner report, mute and block, under a screenful of
    // newer ones, so a scroll can bring it to the bottom of a phone.
    for (const text of [`A friend's post with a long menu #${tag}`, ...[1, 2, 3, 4, 5, 6].map((n) => `A newer post, number ${n}`)]) {
      expect((await api(server, 'POST', '/post', { token: friend.token, body: { text } })).status).toBe(201);
    }
  });

  /** Waits for the route's own content, past the loading spinner. */
  async function settle(page: Page, ready: string): Promise<void> {
    await page
      .locator(ready)
      .first()
      .waitFor({ timeout: 20_000 })
      .catch((err: unknown) => {
        throw new Error(`${page.url()} never showed ${ready}: ${String(err)}`);
      });
    await page.waitForFunction(() => document.querySelector('#main .page-loading, #main .spinner') === null);
  }

  const DESKTOP = { width: 1366, height: 850 };
  const PHONE = { width: 390, height: 844 };

  /** A screen by its link, and what shows once it is drawn. */
  type Screen = { name: string; path: string; ready: string };

  const routes = (): Screen[] => [
    { name: 'feed', path: '/feed', ready: '#main article' },
    { name: 'post', path: `/p/${postId}`, ready: '#main .comment' },
    { name: 'profile', path: `/u/${owner.username}`, ready: '#main .subject-header' },
    { name: 'profile replies', path: `/u/${owner.username}/replies`, ready: '#main .profile-reply' },
    { name: 'profile followers', path: `/u/${owner.username}/followers`, ready: '#main .entity-list__item' },
    { name: 'profile groups', path: `/u/${owner.username}/groups`, ready: '#main .entity-list__item' },
    { name: 'hashtag', path: `/h/${tag}`, ready: '#main article' },
    { name: 'group', path: `/g/${group}`, ready: '#main .subject-header' },
    { name: 'group members', path: `/g/${group}/members`, ready: '#main .entity-list__item' },
    { name: 'create group', path: '/create-group', ready: '#main form' },
    { name: 'group settings', path: `/g/${group}/settings`, ready: '#main form' },
    { name: 'search', path: `/search?q=${tag}`, ready: '#main input' },
    { name: 'notifications', path: '/notifications', ready: '#main .notification' },
    { name: 'account', path: '/account', ready: '#main h1' },
    { name: 'notification settings', path: '/account/notification-settings', ready: '#main h1' },
  ];

  /** A few computed styles that tell a styled screen from a bare one. */
  function telltales(page: Page) {
    return page.evaluate(() => {
      const style = (selector: string) => {
        const element = document.querySelector(selector);
        return element ? getComputedStyle(element) : null;
      };
      const avatar = style('.subject-header__avatar');
      const list = style('#main .entity-list');
      const row = style('#main .entity-list__item');
      const danger = style('#main .button--danger');
      const tabs = style('#main .profile-tabs');
      return {
        avatarLooksNative: avatar ? avatar.backgroundColor !== 'rgba(0, 0, 0, 0)' || avatar.borderStyle !== 'none' : null,
        listBullets: list?.listStyleType ?? null,
        rowUnderline: row?.textDecorationLine ?? null,
        dangerBackground: danger?.backgroundColor ?? null,
        tabsDisplay: tabs?.display ?? null,
        width: document.documentElement.scrollWidth,
      };
    });
  }

  /** What tells a screen drawn without its styles: native-looking bits, bullets, underlines, overflow. */
  async function unstyled(page: Page, name: string, viewportWidth: number): Promise<string[]> {
    const look = await telltales(page);
    const problems: string[] = [];
    if (look.avatarLooksNative) problems.push(`${name}: the avatar looks like a native button`);
    if (look.listBullets !== null && look.listBullets !== 'none') problems.push(`${name}: the list has ${look.listBullets} bullets`);
    if (look.rowUnderline !== null && look.rowUnderline !== 'none') problems.push(`${name}: list rows are underlined`);
    if (look.dangerBackground !== null && look.dangerBackground !== 'rgb(220, 38, 38)') problems.push(`${name}: a danger button is ${look.dangerBackground}`);
    if (look.tabsDisplay !== null && look.tabsDisplay !== 'flex') problems.push(`${name}: the tabs are not laid out`);
    if (look.width > viewportWidth) problems.push(`${name}: ${look.width} px wide`);
    return problems;
  }

  /** What does not fit a phone: a page wider than the screen, text at its very edge, bottom-bar labels cut short. */
  async function unfitOnPhone(page: Page, name: string): Promise<string[]> {
    const found = await page.evaluate(() => {
      const width = document.documentElement.scrollWidth;
      // Text and controls in the page that touch the screen's left edge (where the text itself
      // starts, not its box: a centred line in a full-width box is not at the edge).
      const atEdge: string[] = [];
      const range = document.createRange();
      for (const element of document.querySelectorAll<HTMLElement>('#main *')) {
        if (element.closest('.visually-hidden')) continue;
        let left = Infinity;
        if (/^(IMG|INPUT|SELECT|TEXTAREA|BUTTON)$/.test(element.tagName)) {
          const rect = element.getBoundingClientRect();
          if (rect.width > 1 && rect.height > 1) left = rect.left;
        }
        for (const node of element.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) if (rect.width > 0) left = Math.min(left, rect.left);
        }
        if (left < 4) atEdge.push(`${element.tagName.toLowerCase()}.${element.className} "${element.textContent?.trim().slice(0, 30)}"`);
      }
      // Labels of the bottom bar cut short (the account's item is a username, which may be long).
      const cut = [...document.querySelectorAll<HTMLElement>('.navbar__item:not([data-nav="account"]) .navbar__label')]
        .filter((label) => label.scrollWidth > label.clientWidth + 1)
        .map((label) => label.textContent ?? '');
      return { width, atEdge: atEdge.slice(0, 3), cut };
    });
    const problems: string[] = [];
    if (found.width > PHONE.width) problems.push(`${name}: ${found.width} px wide`);
    if (found.atEdge.length > 0) problems.push(`${name}: at the edge: ${found.atEdge.join(', ')}`);
    if (found.cut.length > 0) problems.push(`${name}: cut labels: ${found.cut.join(', ')}`);
    return problems;
  }

  /**
   * Screens whose controls show only after a press or two, beside those of `routes()`: each step
   * leaves more on screen, checked after it.
   */
  const editingScreens = (): (Screen & { steps?: ((page: Page) => Promise<void>)[] })[] => [
    {
      name: 'new post with a mention, a warning and an image',
      path: '/post',
      ready: '#main .compose textarea:enabled',
      steps: [
        async (page) => {
          const main = page.getByRole('main');
          await main.getByRole('button', { name: '@ Add mention' }).click();
          await main.getByRole('button', { name: 'Content warning', exact: true }).click();
          const buffer = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#7a5230' } }).png().toBuffer();
          await main.locator('input[type=file]').setInputFiles([{ name: 'dot.png', mimeType: 'image/png', buffer }]);
          await main.getByRole('textbox', { name: 'Image description' }).waitFor();
        },
      ],
    },
    { name: 'group post', path: `/post?g=${group}`, ready: '#main .compose .slot input' },
    { name: 'reply post', path: `/post?rep=${postId}&author=${owner.username}`, ready: '#main .compose-from' },
    { name: 'account with its bio', path: '/account', ready: '#main #account-bio' },
    {
      name: "own post's menu and edit dialog",
      path: `/p/${postId}`,
      ready: '#main .comment-box textarea:enabled',
      steps: [
        async (page) => {
          const card = page.getByRole('main').getByRole('article').filter({ hasText: 'A post worth a long thread' }).first();
          await card.getByRole('button', { name: 'More actions' }).click();
          await card.getByRole('menuitem', { name: 'Edit' }).waitFor();
        },
        async (page) => {
          await page.getByRole('main').getByRole('menuitem', { name: 'Edit' }).click();
          const dialog = page.getByRole('dialog', { name: 'Edit post' });
          await dialog.getByRole('button', { name: 'Content warning', exact: true }).click();
          await dialog.getByRole('textbox', { name: 'Content warning' }).waitFor();
        },
      ],
    },
  ];

  /**
   * Light at desktop size and dark on a phone: each layout's own controls, in one context each.
   * Every screen is a new document opened by its link, so on the way each is also checked for what
   * a screen missing its lazily loaded styles shows (at desktop size), or for fitting the phone.
   */
  for (const pass of [
    { colorScheme: 'light', viewport: DESKTOP, check: (page: Page, name: string) => unstyled(page, name, DESKTOP.width) },
    { colorScheme: 'dark', viewport: PHONE, isMobile: true, hasTouch: true, check: unfitOnPhone },
  ] as const) {
    const { colorScheme, check, ...device } = pass;
    it(`draws every control of every screen in the app's look, none in the browser's, ${colorScheme === 'light' ? 'each styled when opened by its own link (light, desktop)' : 'each fitting a 390 px phone with a margin (dark, en-US)'}`, async () => {
      const { context } = await e2e.open({ as: owner, colorScheme, ...device });
      const page = await context.newPage();
      const seen = new Map<string, string[]>();
      const problems: string[] = [];
      const screens: ReturnType<typeof editingScreens> = [...routes(), ...editingScreens()];
      for (const screen of screens) {
        // Through a screen of its own between two, so the next screen's `ready` cannot match what
        // the last one left: the hash changes without a reload.
        await page.goto(`${e2e.server.baseUrl}/between-screens`);
        await page.locator('#main .status-page').waitFor();
        await page.goto(`${e2e.server.baseUrl}${screen.path}`);
        await page.locator('#main .status-page').waitFor({ state: 'detached' });
        await settle(page, screen.ready);
        problems.push(...(await check(page, screen.name)));
        const note = async () => {
          for (const control of await nativeLookingControls(page)) {
            const where = seen.get(control) ?? [];
            if (!where.includes(screen.name)) seen.set(control, [...where, screen.name]);
          }
        };
        await note();
        for (const step of screen.steps ?? []) {
          await step(page);
          await note();
        }
      }
      problems.push(...[...seen].map(([control, where]) => `${control} (${where.slice(0, 2).join(', ')}${where.length > 2 ? '…' : ''})`));
      expect(problems).toEqual([]);
    });
  }

  // English on a phone is checked by the dark pass above, on the way through every screen.
  it('fits every screen in a 390 px phone with a margin (cs-CZ)', async () => {
    const problems: string[] = [];
    const { context } = await e2e.open({ as: owner, viewport: PHONE, locale: 'cs-CZ', isMobile: true, hasTouch: true });
    const page = await context.newPage();
    for (const route of routes()) {
      // Each screen loaded afresh, as a link opens it: a change of the hash alone would leave the
      // last screen's elements in place while the next one loads.
      await page.goto('about:blank');
      await page.goto(`${e2e.server.baseUrl}${route.path}`);
      await settle(page, route.ready);
      problems.push(...(await unfitOnPhone(page, route.name)));
    }
    expect(problems).toEqual([]);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`greets a first visit without a toast, and shows toasts where they cover none of the controls that stay on screen (${viewport.width} px)`, async () => {
      const page = await e2e.visit('/feed', { as: owner, viewport });
      await settle(page, '#main article');
      // Ready for offline use is what the app is expected to be: nothing pops up to say so. The
      // worker's install, which a toast would follow, comes before it controls the page.
      await waitForServiceWorker(page);
      await nextPaint(page);
      expect(await page.locator('.toast').count()).toBe(0);
      await page.locator('#main article').first().getByRole('button', { name: 'Share' }).click();
      const toast = page.locator('.toast').first();
      await toast.waitFor();
      // Slid in.
      await animationsEnded(toast);
      const covered = await page.evaluate(() => {
        const box = document.querySelector('.toast')!.getBoundingClientRect();
        const controls = document.querySelectorAll<HTMLElement>(
          '.navbar :is(a, button, input), .topbar :is(a, button, input), .shell__aside :is(a, button, input)',
        );
        return [...controls]
          .filter((control) => {
            const rect = control.getBoundingClientRect();
            if (rect.width === 0 || rect.height === 0) return false;
            return rect.left < box.right && box.left < rect.right && rect.top < box.bottom && box.top < rect.bottom;
          })
          .map((control) => control.getAttribute('aria-label') ?? control.getAttribute('placeholder') ?? control.textContent?.trim() ?? control.tagName);
      });
      expect(covered).toEqual([]);
    });
  }

  it("opens a post's menu near the bottom of a phone above the bottom bar, uncovered by a toast, and closes it back to its button", async () => {
    const page = await e2e.visit('/feed', { as: owner, viewport: PHONE });
    await settle(page, '#main article');
    const card = page.getByRole('main').getByRole('article').filter({ hasText: "A friend's post with a long menu" }).first();
    await card.waitFor();
    // A toast up while the menu is open.
    await card.getByRole('button', { name: 'Share' }).click();
    await page.locator('.toast').first().waitFor();
    // The card's menu button just above the bottom bar, as after scrolling a feed.
    await card.getByRole('button', { name: 'More actions' }).evaluate((button) => {
      const barTop = document.querySelector('.navbar')!.getBoundingClientRect().top;
      window.scrollBy(0, button.getBoundingClientRect().bottom - (barTop - 8));
    });
    const button = card.getByRole('button', { name: 'More actions' });
    await button.press('Enter');
    await card.getByRole('menuitem', { name: /^Block @/ }).waitFor();
    await page.waitForFunction(() => document.querySelector('.toast:not(.toast--leaving)') !== null);
    const problems = await card.getByRole('menu').evaluate((menu) => {
      const barTop = document.querySelector('.navbar')!.getBoundingClientRect().top;
      const toasts = [...document.querySelectorAll('.toast')].map((toast) => toast.getBoundingClientRect());
      return [...menu.querySelectorAll<HTMLElement>('[role^=menuitem]')].flatMap((item) => {
        const name = item.textContent ?? '';
        const box = item.getBoundingClientRect();
        const found: string[] = [];
        if (box.top < 0 || box.left < 0 || box.right > innerWidth || box.bottom > innerHeight) found.push(`${name} is outside the screen`);
        if (box.bottom > barTop) found.push(`${name} reaches under the bottom bar`);
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (!item.contains(top)) found.push(`${name} is covered by ${top?.getAttribute('class') ?? top?.tagName ?? 'nothing'}`);
        // Where a toast and the entry share a patch of screen, the entry is what shows there.
        for (const t of toasts) {
          const [left, right, top, bottom] = [Math.max(t.left, box.left), Math.min(t.right, box.right), Math.max(t.top, box.top), Math.min(t.bottom, box.bottom)];
          if (left >= right || top >= bottom) continue;
          if (!item.contains(document.elementFromPoint((left + right) / 2, (top + bottom) / 2))) found.push(`${name} is under a toast`);
        }
        return found;
      });
    });
    expect(problems).toEqual([]);
    await page.keyboard.press('Escape');
    await card.getByRole('menu').waitFor({ state: 'detached' });
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('keeps the main column in place on desktop when the search column is not shown', async () => {
    const page = await e2e.visit('/feed', { as: owner, viewport: DESKTOP });
    await settle(page, '#main article');
    const mainLeft = () => page.locator('#main').evaluate((main) => main.getBoundingClientRect().left);
    const onFeed = await mainLeft();
    await page.goto(`${e2e.server.baseUrl}/search?q=${tag}`);
    await settle(page, '#main input');
    expect(await mainLeft()).toBe(onFeed);
  });
});

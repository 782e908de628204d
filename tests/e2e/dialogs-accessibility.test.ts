import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../server/src/modules/reports/admin';
import { AXE_TAGS, type Violation, blocking, describeViolations, settled } from './support/accessibility';
import { followRequests } from './support/requests-settling';
import { type TestServer, type TestUser, api, sessionStorageState, uniqueName } from './support/server';
import { useE2eSuite } from './support/suite';
import { VIEWPORTS, type World, seedWorld } from './support/world';

/**
 * Every dialog, sheet and menu of the app opened in a real browser and checked by axe, with the
 * focus inside it while open and back on what opened it once Escape closes it. The list below is
 * compared with the source: a new dialog the list does not open fails here.
 */

/** What the source draws as a dialog or a menu, besides the components that wrap one. */
const DIALOG_MARK = /<(Overlay|ConfirmDialog|ReportDialog|DeleteAccountDialog|PostEditDialog|PostHistoryDialog|LazyGallery|Gallery|Lightbox|dialog)\b|\s(role="(?:menu|dialog|alertdialog)"|aria-modal)/g;

/**
 * Files that define a dialog component for others to place: their own dialog is checked where
 * they are placed (Overlay.tsx is the modal layer itself).
 */
const DIALOG_COMPONENTS = new Set([
  'src/components/Overlay.tsx',
  'src/components/ConfirmDialog.tsx',
  'src/components/ReportDialog.tsx',
  'src/features/account/DeleteAccountDialog.tsx',
  'src/components/post/PostEdits.tsx',
  'src/components/Gallery.tsx',
  'src/components/LazyGallery.tsx',
]);

/** Each place the source opens a dialog or a menu: `file#what`, once per occurrence. */
function dialogSitesInSource(): string[] {
  const sites: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name)) {
        const file = relative(process.cwd(), path);
        if (DIALOG_COMPONENTS.has(file)) continue;
        for (const match of readFileSync(path, 'utf8').matchAll(DIALOG_MARK)) sites.push(`${file}#${match[1] ?? match[2]}`);
      }
    }
  };
  walk('src');
  return sites.sort();
}

interface Seeded extends World {
  /** The owner's edited post with a picture, a comment of the friend's with a picture and one of the owner's. */
  photoPostId: string;
  /** The friend's post in the group the owner runs. */
  groupPostId: string;
  applicant: string;
}

interface DialogVisit {
  name: string;
  /** The place(s) in the source (as `dialogSitesInSource` names them) this visit opens. */
  sites: string[];
  path: (world: Seeded) => string;
  /** Opens the dialog; answers the control the focus goes back to when it closes. */
  open: (page: Page, world: Seeded) => Promise<Locator>;
  /** Only on a phone (the layout has it only there). */
  phoneOnly?: boolean;
}

const OPEN = '[aria-modal="true"], [role="menu"]';
/** axe-core as the browser runs it (the context bypasses the app's CSP to add it). */
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const button = (page: Page, name: string | RegExp) => page.getByRole('button', { name, exact: typeof name === 'string' });
const click = async (control: Locator) => {
  await control.click();
  return control;
};
const postMenu = (page: Page) => page.locator('main .post-menu-button').first();
/** Opens the first card's menu and picks `entry`; the focus goes back to the menu's button. */
const fromPostMenu = async (page: Page, entry: string | RegExp) => {
  const toggle = await click(postMenu(page));
  await page.getByRole('menuitem', { name: entry }).click();
  return toggle;
};
const fromSafetyMenu = async (page: Page, entry: RegExp) => {
  const toggle = await click(page.locator('.safety-menu__button'));
  await page.getByRole('menuitem', { name: entry }).click();
  return toggle;
};

const VISITS: DialogVisit[] = [
  { name: 'search sheet', sites: ['src/app/shell/Shell.tsx#Overlay'], path: () => '/feed', phoneOnly: true, open: (page) => click(button(page, 'Open search')) },
  { name: 'post menu', sites: ['src/components/post/PostMenuPanel.tsx#role="menu"'], path: (w) => `/p/${w.photoPostId}`, open: (page) => click(postMenu(page)) },
  { name: 'edit post', sites: ['src/components/post/PostMenuPanel.tsx#PostEditDialog'], path: (w) => `/p/${w.photoPostId}`, open: (page) => fromPostMenu(page, 'Edit') },
  { name: 'delete post', sites: ['src/components/post/PostMenuPanel.tsx#ConfirmDialog'], path: (w) => `/p/${w.photoPostId}`, open: (page) => fromPostMenu(page, 'Delete') },
  { name: 'post history', sites: ['src/components/post/EditedMark.tsx#PostHistoryDialog'], path: (w) => `/p/${w.photoPostId}`, open: (page) => click(page.locator('main .post-edited').first()) },
  { name: 'post picture', sites: ['src/components/post/PostImages.tsx#LazyGallery'], path: (w) => `/p/${w.photoPostId}`, open: (page) => click(page.locator('main .post-image').first()) },
  { name: 'comment picture', sites: ['src/features/comments/CommentImage.tsx#LazyGallery'], path: (w) => `/p/${w.photoPostId}`, open: (page) => click(page.locator('main .comment-image button').first()) },
  { name: 'delete comment', sites: ['src/features/comments/CommentThread.tsx#ConfirmDialog'], path: (w) => `/p/${w.photoPostId}`, open: (page) => click(page.locator('main .comment-delete').first()) },
  { name: 'report comment', sites: ['src/features/comments/CommentThread.tsx#ReportDialog'], path: (w) => `/p/${w.photoPostId}`, open: (page) => click(page.locator('main .comment-report').first()) },
  { name: 'report post', sites: ['src/components/post/PostMenuPanel.tsx#ReportDialog'], path: (w) => `/p/${w.groupPostId}`, open: (page) => fromPostMenu(page, 'Report post') },
  { name: 'remove post from group', sites: ['src/components/post/PostMenuPanel.tsx#ConfirmDialog'], path: (w) => `/p/${w.groupPostId}`, open: (page) => fromPostMenu(page, /^Remove/) },
  { name: 'ban in group from a post', sites: ['src/components/post/PostMenuPanel.tsx#ConfirmDialog'], path: (w) => `/p/${w.groupPostId}`, open: (page) => fromPostMenu(page, /^Ban /) },
  { name: 'profile picture', sites: ['src/components/SubjectHeader.tsx#LazyGallery'], path: (w) => `/u/${w.friend.username}`, open: (page) => click(page.locator('main .subject-header__avatar')) },
  { name: 'follow menu', sites: ['src/features/profile/FollowControl.tsx#role="menu"'], path: (w) => `/u/${w.friend.username}`, open: (page) => click(page.locator('main .follow-menu button[aria-haspopup="menu"]')) },
  { name: 'profile menu', sites: ['src/components/safety/SafetyMenu.tsx#role="menu"'], path: (w) => `/u/${w.friend.username}`, open: (page) => click(page.locator('.safety-menu__button')) },
  { name: 'block user', sites: ['src/components/safety/UserSafety.tsx#ConfirmDialog'], path: (w) => `/u/${w.friend.username}`, open: (page) => fromSafetyMenu(page, /^Block/) },
  { name: 'report user', sites: ['src/features/profile/ProfilePage.tsx#ReportDialog'], path: (w) => `/u/${w.friend.username}`, open: (page) => click(page.locator('main .profile-report')) },
  { name: 'ban member', sites: ['src/features/groups/MembersList.tsx#ConfirmDialog'], path: (w) => `/g/${w.group}/members`, open: (page) => click(page.locator('main .group-user__actions .button--danger').first()) },
  { name: 'delete group', sites: ['src/features/groups/GroupSettingsPage.tsx#ConfirmDialog'], path: (w) => `/g/${w.group}/settings`, open: (page) => click(button(page, 'Delete group')) },
  {
    name: 'transfer ownership',
    sites: ['src/features/groups/TransferOwnership.tsx#ConfirmDialog'],
    path: (w) => `/g/${w.group}/settings`,
    open: async (page) => {
      await button(page, 'Transfer ownership').click();
      await page.locator('main input[name="new-owner"]').first().check();
      return click(button(page, 'Transfer'));
    },
  },
  {
    name: 'make group public',
    sites: ['src/features/groups/GroupForm.tsx#ConfirmDialog'],
    path: (w) => `/g/${w.privateGroup}/settings`,
    open: async (page) => {
      await page.locator('main input[name="isPrivate"]').nth(1).check();
      return click(page.locator('main .group-form button[type="submit"]'));
    },
  },
  { name: 'clear notifications', sites: ['src/features/notifications/NotificationsPage.tsx#ConfirmDialog'], path: () => '/notifications', open: (page) => click(button(page, 'Clear all')) },
  { name: 'GIF picker', sites: ['src/components/gifs/GifButton.tsx#Overlay'], path: () => '/post', open: (page) => click(button(page, 'GIF')) },
  { name: 'moderate a report', sites: ['src/components/moderation/ModerationLists.tsx#ConfirmDialog'], path: () => '/moderation', open: (page) => click(button(page, 'Dismiss').first()) },
  { name: 'decide a sign-up', sites: ['src/components/registration/Applications.tsx#ConfirmDialog'], path: () => '/moderation', open: (page, w) => click(button(page, `Approve ${w.applicant}`)) },
  {
    name: 'block a domain',
    sites: ['src/components/moderation/DomainBlocks.tsx#ConfirmDialog'],
    path: () => '/moderation',
    open: async (page) => {
      await page.getByRole('textbox', { name: 'Domain' }).fill('spam.example');
      return click(button(page, 'Block domain'));
    },
  },
  { name: 'suspend a person', sites: ['src/features/moderation/PeoplePage.tsx#ConfirmDialog'], path: () => '/moderation/people', open: (page, w) => click(button(page, `Suspend ${w.friend.username}`)) },
  { name: 'delete account', sites: ['src/features/account/AccountPage.tsx#DeleteAccountDialog'], path: () => '/account', open: (page) => click(button(page, 'Delete account')) },
  {
    // Last: it leaves a like waiting in the outbox.
    name: 'log out with items unsent',
    sites: ['src/features/account/AccountPage.tsx#ConfirmDialog'],
    path: (w) => `/p/${w.photoPostId}`,
    open: async (page) => {
      await page.route('**/api/post/*/like', (route) => route.abort('internetdisconnected'));
      await page.locator('main .post-like').first().click();
      await page.locator('[data-nav="account"] a').click();
      return click(button(page, 'Log out'));
    },
  },
  {
    // After the logout question, on the account screen it left: no page is loaded again with the bio unsaved.
    name: 'leave with the bio unsaved',
    sites: ['src/components/UnsavedChangesGuard.tsx#ConfirmDialog'],
    path: () => '/account',
    open: async (page) => {
      await page.locator('#account-bio').fill('Growing tomatoes, and some beans');
      return click(page.locator('[data-nav="feed"] a'));
    },
  },
];

async function uploadImage(server: TestServer, user: TestUser, id: string) {
  const photo = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#3b7a57' } }).png().toBuffer();
  const form = new FormData();
  form.append('id', id);
  form.append('index', '0');
  form.append('alt', 'A row of tomato plants');
  form.append('image', new Blob([photo], { type: 'image/png' }), 'garden.png');
  const uploaded = await fetch(`${server.baseUrl}/api/upload/image`, { method: 'POST', body: form, headers: { authorization: `Bearer ${user.token}` } });
  expect(uploaded.status).toBe(201);
}

async function seed(server: TestServer): Promise<Seeded> {
  const world = await seedWorld(server);
  const { owner, friend } = world;
  const created = async (reply: Promise<{ status: number; body: unknown }>) => {
    const { status, body } = await reply;
    expect(status, JSON.stringify(body)).toBeLessThan(300);
    return body as { _id: string };
  };
  await runAdminCommand(server.app.db, { grant: owner.username });
  const photo = await created(api(server, 'POST', '/post', { token: owner.token, body: { text: 'Rows of tomatoes', images: 1 } }));
  await uploadImage(server, owner, photo._id);
  await created(api(server, 'PATCH', `/post/${photo._id}`, { token: owner.token, body: { text: 'Rows and rows of tomatoes' } }));
  const comment = await created(api(server, 'POST', '/comment/', { token: friend.token, body: { text: 'Look at mine', parent: photo._id, images: 1 } }));
  await uploadImage(server, friend, comment._id);
  await created(api(server, 'POST', '/comment/', { token: owner.token, body: { text: 'Lovely', parent: photo._id } }));
  const groupPost = await created(api(server, 'POST', '/post', { token: friend.token, body: { text: 'Seeds to share', groups: [world.group] } }));
  await created(api(server, 'POST', '/report', { token: friend.token, body: { kind: 'post', id: world.postId, reason: 'Too many tomatoes' } }));
  await created(api(server, 'PUT', '/registration', { token: owner.token, body: { mode: 'approval', membersInvite: false } }));
  const applicant = uniqueName('cleo');
  await created(
    api(server, 'POST', '/auth/signup', { body: { username: applicant, email: `${applicant}@example.com`, password: 'Str0ng!pass', reason: 'I grow tomatoes too' } }),
  );
  return { ...world, photoPostId: photo._id, groupPostId: groupPost._id, applicant };
}

interface Pass {
  name: string;
  viewport: keyof typeof VIEWPORTS;
  dark: boolean;
}

/**
 * Light and dark on a phone, where a dialog is a full-screen sheet; the desktop draws it as a box
 * over the dimmed page, in the dark theme (the colours of a theme are the same at both sizes).
 */
const PASSES: Pass[] = [
  { name: 'phone, light', viewport: 'phone', dark: false },
  { name: 'phone, dark', viewport: 'phone', dark: true },
  { name: 'desktop, dark', viewport: 'desktop', dark: true },
];

/**
 * axe's violations inside what `selector` finds. axe comes with every page of the context (see
 * `visitAll`) rather than injected again for each of the many checks on one page.
 */
const violationsIn = async (page: Page, selector: string): Promise<Violation[]> =>
  blocking(
    await page.evaluate(
      async ({ include, tags }) => {
        const { axe } = window as unknown as { axe: typeof import('axe-core') };
        return (await axe.run({ include: [include] }, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })).violations;
      },
      { include: selector, tags: AXE_TAGS },
    ),
  );

/** Whether the focus is inside what `selector` finds (the dialog or menu just opened). */
const focusInside = (page: Page, selector: string) =>
  page.evaluate((open) => [...document.querySelectorAll(open)].some((dialog) => dialog.contains(document.activeElement)), selector);

describe('accessibility of every dialog and menu', () => {
  // A GIF service that never answers: the picker opens and says so. Federating, the moderators
  // block domains.
  const e2e = useE2eSuite({ env: { TENOR_KEY: 'test-key', TENOR_URL: 'http://127.0.0.1:9/v2/', FEDERATION: 'true' } });
  let world: Seeded;

  beforeAll(async () => {
    world = await seed(e2e.server);
  }, 60_000);

  it('opens every dialog and menu the app has', () => {
    // As many times as the source has them in one file (three confirmations in the post menu).
    expect(VISITS.flatMap((visit) => visit.sites).sort()).toEqual(dialogSitesInSource());
  });

  for (const pass of PASSES) {
    it(`has no serious or critical axe violation, the focus in and back (${pass.name})`, { timeout: 120_000 }, async () => {
      const { context } = await e2e.open({
        viewport: VIEWPORTS[pass.viewport],
        storageState: sessionStorageState(e2e.server, world.owner),
        bypassCSP: true,
        colorScheme: pass.dark ? 'dark' : 'light',
        reducedMotion: 'reduce',
      });
      const found = await visitAll(context, pass);
      expect(found).toEqual([]);
      expect(e2e.journey.log.pageErrors).toEqual([]);
    });
  }

  async function visitAll(context: BrowserContext, pass: Pass): Promise<string[]> {
    await context.addInitScript({ path: AXE_SOURCE });
    const page = await context.newPage();
    const requests = followRequests(page);
    const found: string[] = [];
    for (const visit of VISITS.filter((v) => pass.viewport === 'phone' || !v.phoneOnly)) {
      const path = visit.path(world);
      const screen = { name: `${visit.name} (${pass.name})`, path };
      // Dialogs of one screen follow each other on it: each closes as it came.
      if (new URL(page.url()).pathname !== path) {
        await page.goto(`${e2e.server.baseUrl}${path}`);
        await settled(page, requests, screen);
      }
      const opener = await visit.open(page, world);
      await page.locator(OPEN).first().waitFor();
      // What the dialog asks for (a history, the GIFs) answered and drawn before axe looks.
      await settled(page, requests, screen);
      if (!(await focusInside(page, OPEN))) found.push(`${screen.name}: the focus is not in the dialog`);
      found.push(...describeViolations(screen, await violationsIn(page, OPEN)));
      await page.keyboard.press('Escape');
      await page.locator(OPEN).first().waitFor({ state: 'detached' });
      if (!(await opener.evaluate((control) => control === document.activeElement))) {
        found.push(`${screen.name}: the focus did not come back to what opened it (${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))})`);
      }
    }
    return found;
  }
});

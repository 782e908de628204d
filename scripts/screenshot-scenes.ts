import type { Page } from 'playwright-core';
import type { World } from '../tests/e2e/support/world';

/**
 * Moments a plain page load never shows: a half-written post, an open menu, the first day of a
 * new account. Each is taken after the world's screens, in every language, theme and size.
 */
export interface Scene {
  /** A short name for reports and file names (and `--only`). */
  name: string;
  /** The path the browser opens. */
  path: string;
  /**
   * Whose eyes: the world's owner, or a newcomer who follows nobody and belongs to no group yet
   * (their empty tabs are the ones that suggest whom to follow and what to join).
   */
  as: 'owner' | 'newcomer';
  /** What a person does on the page before the picture; it ends once the page shows it. */
  act?: (page: Page) => Promise<void>;
}

const SETTLE_MS = 10_000;

/** The mention slot's button reads "@ Add mention" in every language. */
async function openMentionSlot(page: Page, query: string): Promise<void> {
  await page.getByRole('button', { name: /^@ / }).click();
  const slot = page.locator('main .slot-mention input').first();
  await slot.pressSequentially(query);
  // The matching names come from the server: show them when they come, the slot alone otherwise.
  await page
    .locator('main .slot-suggestions [role="option"]')
    .first()
    .waitFor({ timeout: 3_000 })
    .catch(() => undefined);
}

export function scenesOf(world: World): Scene[] {
  const friend = world.friend.username;
  return [
    {
      name: 'composer',
      path: '/post',
      as: 'owner',
      act: async (page) => {
        await page.locator('main textarea').first().fill(`Seedlings are up! Who wants some for their balcony? #${world.hashtag}`);
        await openMentionSlot(page, friend.slice(0, 3));
      },
    },
    {
      name: 'menu',
      path: '/feed',
      as: 'owner',
      act: async (page) => {
        await page.locator('main .post-menu-button').first().click();
        await page.locator('main [role="menu"]').first().waitFor({ timeout: SETTLE_MS });
      },
    },
    {
      name: 'following-empty',
      path: '/feed/following',
      as: 'newcomer',
      act: (page) => page.locator('main .suggestions').first().waitFor({ timeout: SETTLE_MS }),
    },
    {
      name: 'groups-empty',
      path: '/feed/groups',
      as: 'newcomer',
      act: (page) => page.locator('main .suggestions').first().waitFor({ timeout: SETTLE_MS }),
    },
  ];
}

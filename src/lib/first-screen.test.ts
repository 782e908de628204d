import { afterEach, describe, expect, it } from 'vitest';
import { FEED_DEFAULTS, FIRST_FEED_ELEMENT_ID, SORTS, TIMES } from '#core/listing';
import { FIRST_FEED_OFF_CLASS, firstFeedBootScript, firstScreenPreloadScript, opensOnExplore } from './first-screen';
import { pathOfOldAddress } from './old-hash-address';
import { takeFirstFeed } from './query/first-feed';
import { clearSession, storeSession } from './session-store';

const HASHES = ['', '#', '#/', '#/feed', '#feed', '#/feed?sort=popular&time=all', '#?sort=popular', '#/feed/following', '#/feed/groups', '#/u/alice', '#/p/p1', '#/login', '#/g/garden', '#/feedback'];
/** Real paths, and the old hash addresses the app turns into them. */
const ADDRESSES = [...HASHES.map((hash) => `/${hash}`), '/feed', '/feed?sort=popular&time=all', '/?sort=popular', '/feed/following', '/u/alice', '/p/p1', '/login', '/feedback'];

/** The address the app reads at `address` (an old hash address as the path it stands for). */
function appAddress(address: string): string {
  const url = new URL(address, 'http://app');
  return pathOfOldAddress(url) ?? `${url.pathname}${url.search}`;
}

/** What the head's script asks for at `address`, once a frame and a task have passed. */
async function preloadsAt(address: string, files: string[]): Promise<Array<{ rel: string; as: string; href: string; crossorigin: string | null }>> {
  window.history.replaceState(null, '', address);
  new Function(firstScreenPreloadScript(files))();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10)));
  return [...document.head.querySelectorAll('link')].map((l) => ({ rel: l.rel, as: l.getAttribute('as') ?? '', href: l.getAttribute('href') ?? '', crossorigin: l.getAttribute('crossorigin') }));
}

afterEach(() => {
  for (const link of document.head.querySelectorAll('link')) link.remove();
  window.history.replaceState(null, '', '/');
});

describe('the screen a cold start opens on', () => {
  it('knows the addresses of the explore feed', () => {
    expect(['', '#/', '#/feed', '#/feed?sort=popular'].map(opensOnExplore)).toEqual([true, true, true, true]);
    expect(['#/feed/groups', '#/u/alice', '#/login'].map(opensOnExplore)).toEqual([false, false, false]);
  });

  it.each(ADDRESSES)("the head's script asks for the feed's code at %j exactly when the app opens on the feed", async (address) => {
    const links = await preloadsAt(address, ['/assets/FeedPage-a.js', '/assets/shared-b.js', '/assets/shared-c.css']);
    expect(links).toEqual(
      opensOnExplore(appAddress(address))
        ? [
            { rel: 'modulepreload', as: '', href: '/assets/FeedPage-a.js', crossorigin: '' },
            { rel: 'modulepreload', as: '', href: '/assets/shared-b.js', crossorigin: '' },
            // As the loader of the app's chunks asks for the stylesheet later (in CORS mode), or the
            // browser fetches it a second time.
            { rel: 'preload', as: 'style', href: '/assets/shared-c.css', crossorigin: '' },
          ]
        : [],
    );
  });
});

describe("the head's script that hides the server's feed", () => {
  const addresses = [...ADDRESSES, '/#/feed?sort=newest&time=week', '/feed?time=month', '/?sort=sideways', '/#/feed?sort=popular&time=week', '/feed?sort=popular&time=week'];

  /** Whether the server's cards stay shown at `address`, as the head's script decides. */
  function shownAt(address: string): boolean {
    window.history.replaceState(null, '', address);
    document.documentElement.classList.remove(FIRST_FEED_OFF_CLASS);
    new Function(firstFeedBootScript(FEED_DEFAULTS, SORTS, TIMES))();
    return !document.documentElement.classList.contains(FIRST_FEED_OFF_CLASS);
  }

  /** Whether the app opens on the page the HTML carried at `address` (what the server drew). */
  function appTakesItAt(address: string): boolean {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = FIRST_FEED_ELEMENT_ID;
    block.textContent = '{"posts":[],"hasMore":false}';
    document.body.append(block);
    return takeFirstFeed(appAddress(address)) !== null;
  }

  afterEach(() => {
    clearSession();
    document.documentElement.classList.remove(FIRST_FEED_OFF_CLASS);
  });

  it.each(addresses)('shows them at %j exactly when the app opens on them, without a session and with one', (address) => {
    expect(shownAt(address)).toBe(appTakesItAt(address));
    storeSession('token-1', 'alice', 'u1');
    expect(shownAt(address)).toBe(false);
    expect(appTakesItAt(address)).toBe(false);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { firstScreenPreloadScript, opensOnExplore } from './first-screen';

const HASHES = ['', '#', '#/', '#/feed', '#feed', '#/feed?sort=popular&time=all', '#?sort=popular', '#/feed/following', '#/feed/groups', '#/u/alice', '#/p/p1', '#/login', '#/g/garden', '#/feedback'];

/** What the head's script asks for at `hash`, once a frame and a task have passed. */
async function preloadsAt(hash: string, files: string[]): Promise<Array<{ rel: string; as: string; href: string; crossorigin: string | null }>> {
  window.history.replaceState(null, '', `/${hash}`);
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

  it.each(HASHES)("the head's script asks for the feed's code at %j exactly when the app opens on the feed", async (hash) => {
    const links = await preloadsAt(hash, ['/assets/FeedPage-a.js', '/assets/shared-b.js', '/assets/shared-c.css']);
    expect(links).toEqual(
      opensOnExplore(hash)
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

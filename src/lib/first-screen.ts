/**
 * The screen a cold start opens on most often, the explore feed (the installed app's start address
 * and a bare visit both land there), and what the page does for it before any of the app's code
 * has run. Kept free of imports that touch the browser: the build reads it too.
 */

import { EXPLORE_PATHS } from '#core/app-paths';

/**
 * Whether `address` (`/feed?sort=popular`) opens on the explore feed; an old hash address
 * (`#/feed?sort=popular`) is read as the path it stands for.
 */
export function opensOnExplore(address: string): boolean {
  return EXPLORE_PATHS.includes(parseAddress(address).pathname);
}

/** An address (a path with its query, or an old hash address) as a URL to read its parts from. */
export const parseAddress = (address: string) => new URL(address.replace(/^#/, '') || '/', 'http://app');

/**
 * The classic script the build puts in the page's head: when the address opens on the explore
 * feed, it asks for that screen's code (`files`: scripts, and stylesheets ending in .css) beside the
 * app's entry script, instead of after the entry has downloaded and run, which on a phone is a
 * second wait of a second or more. It asks once the static shell has painted (a frame, then a
 * task), so those bytes do not hold back the first paint. It reads the path the way
 * opensOnExplore does for every address the app makes (an old hash address as its path, since the
 * app replaces it by that path); the test holds the two together.
 */
export function firstScreenPreloadScript(files: readonly string[]): string {
  return (
    `(function(){var h=location.hash,p=(h.indexOf("#/")===0?h.slice(1):location.pathname).split(/[?#]/)[0];` +
    `if(${JSON.stringify(EXPLORE_PATHS)}.indexOf(p)<0)return;` +
    `requestAnimationFrame(function(){setTimeout(function(){${JSON.stringify(files)}.forEach(function(f){` +
    `var l=document.createElement("link");if(/\\.css$/.test(f)){l.rel="preload";l.setAttribute("as","style")}else l.rel="modulepreload";` +
    `l.crossOrigin="";l.href=f;document.head.appendChild(l)})})})})();`
  );
}

/** The class the head's script sets on <html> when the server's first-page cards are not what the app opens on. */
export const FIRST_FEED_OFF_CLASS = 'first-feed-off';

/**
 * The classic script the page's head runs first: the server draws a visitor's explore feed as
 * plain HTML in the page at `/`, and when the app will open elsewhere (another address, a session,
 * another order) this hides those cards before they paint, showing the shell's spinner instead.
 * Its test holds it to the app's own condition (takeFirstFeed). `sorts` and `times` are the valid
 * values: an unknown one falls back to the default, as readListing does.
 */
export function firstFeedBootScript(defaults: { sort: string; time: string }, sorts: readonly string[], times: readonly string[]): string {
  return (
    `(function(){var off=true;try{var h=location.hash,a=new URL(h.indexOf("#/")===0?h.slice(1):location.pathname+location.search,"http://app"),q=a.searchParams,s=q.get("sort"),t=q.get("time");` +
    `off=${JSON.stringify(EXPLORE_PATHS)}.indexOf(a.pathname)<0||!!localStorage.getItem("token")` +
    `||(${JSON.stringify(sorts)}.indexOf(s)>=0&&s!==${JSON.stringify(defaults.sort)})||(${JSON.stringify(times)}.indexOf(t)>=0&&t!==${JSON.stringify(defaults.time)})}catch(e){}` +
    `if(off)document.documentElement.classList.add(${JSON.stringify(FIRST_FEED_OFF_CLASS)})})();`
  );
}

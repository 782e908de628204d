/**
 * The addresses of the app's screens, as real paths (`/p/<id>`, not `/#/p/<id>`): the one place the
 * web app's links, the server's mails, push notifications, feeds, sitemap and link previews take
 * them from. The web router's patterns are the same shapes (see src/app/routes.tsx).
 */

const part = (value: string) => encodeURIComponent(value);

export const appPaths = {
  home: () => '/',
  feed: () => '/feed',
  post: (id: string, comment?: string | null) => `/p/${part(id)}${comment ? `?c=${part(comment)}` : ''}`,
  user: (username: string) => `/u/${part(username)}`,
  group: (name: string) => `/g/${part(name)}`,
  hashtag: (tag: string) => `/h/${part(tag)}`,
  notifications: () => '/notifications',
  compose: () => '/post',
  login: () => '/login',
  search: () => '/search',
} as const;

/** The paths that open on the explore feed (the installed app's start, and a bare visit). */
export const EXPLORE_PATHS: readonly string[] = ['/', '/feed'];

/**
 * Feeds to follow (RSS 2.0) of what a visitor may read: a user's posts, a public group's posts and a
 * hashtag. Outside the screens' paths, so no screen and no feed can ever answer for the other.
 */
export const FEED_ROUTES = { user: '/rss/u/:username', group: '/rss/g/:name', hashtag: '/rss/h/:tag' } as const;

const fill = (route: string, value: string) => route.replace(/:\w+/, part(value));
export const feedPaths = {
  user: (username: string) => fill(FEED_ROUTES.user, username),
  group: (name: string) => fill(FEED_ROUTES.group, name),
  hashtag: (tag: string) => fill(FEED_ROUTES.hashtag, tag),
} as const;

/**
 * The build's folder of hashed files (vite's `build.assetsDir`): one missing there (a chunk gone
 * after a deploy) is a 404, never the app's page in its place.
 */
export const BUILD_ASSETS_FOLDER = 'assets';

/**
 * Paths that are the server's own, never a screen: the service worker leaves navigations to them to
 * the network, and the server never answers them with the app's page.
 */
export const SERVER_PATH_PREFIXES: readonly string[] = ['/api/', '/media/', '/.well-known/', '/rss/', '/share', '/metrics', '/ap/', '/nodeinfo/', `/${BUILD_ASSETS_FOLDER}/`];

/** Files the server answers at the root, never screens. */
const SERVER_FILES: readonly string[] = ['/robots.txt', '/sitemap.xml', '/sw.js', '/manifest.webmanifest'];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The server's own paths as one pattern (for the service worker's navigation route). */
export const serverPathPattern = () =>
  new RegExp(
    `^(?:${[
      ...SERVER_PATH_PREFIXES.map((prefix) => `${escapeRegExp(prefix.replace(/\/$/, ''))}(?:/|$)`),
      ...SERVER_FILES.map((file) => `${escapeRegExp(file)}$`),
    ].join('|')})`,
  );

/** Whether a path is the server's own rather than one of the app's screens. */
export const isServerPath = (path: string) => serverPathPattern().test(path);

/**
 * Screens that are personal or private: not for search engines (the server marks them `noindex`).
 * Matched on the path's first segment.
 */
export const UNINDEXED_SCREENS: readonly string[] = ['account', 'notifications', 'search', 'post', 'login', 'signup', 'verify', 'reset', 'moderation', 'create-group', 'oauth'];

/**
 * An old hash address (`#/p/<id>?c=1`, from mails already sent and bookmarks) as the real path it
 * stands for, or null when the hash is not an address (an in-page anchor).
 */
export function pathOfHash(hash: string): string | null {
  if (!hash.startsWith('#/')) return null;
  return hash.slice(1);
}

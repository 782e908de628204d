import { describe, expect, it } from 'vitest';
import { EXPLORE_PATHS, FEED_ROUTES, SERVER_PATH_PREFIXES, UNINDEXED_SCREENS, appPaths, feedPaths, isServerPath, pathOfHash, serverPathPattern } from './app-paths';

describe("the app's paths", () => {
  it('name each screen, its parts encoded as one segment', () => {
    expect(appPaths.home()).toBe('/');
    expect(appPaths.feed()).toBe('/feed');
    expect(appPaths.post('p1')).toBe('/p/p1');
    expect(appPaths.post('p1', 'c 2')).toBe('/p/p1?c=c%202');
    expect(appPaths.post('p1', null)).toBe('/p/p1');
    expect(appPaths.post('p1', '')).toBe('/p/p1');
    expect(appPaths.user('ann lee')).toBe('/u/ann%20lee');
    expect(appPaths.group('Bean/Growers')).toBe('/g/Bean%2FGrowers');
    expect(appPaths.hashtag('čaj')).toBe('/h/%C4%8Daj');
    expect(appPaths.notifications()).toBe('/notifications');
    expect(appPaths.compose()).toBe('/post');
    expect(appPaths.login()).toBe('/login');
    expect(appPaths.search()).toBe('/search');
    expect(EXPLORE_PATHS).toEqual(['/', '/feed']);
  });

  it('name the feeds to follow, from the routes the server registers', () => {
    expect(FEED_ROUTES).toEqual({ user: '/rss/u/:username', group: '/rss/g/:name', hashtag: '/rss/h/:tag' });
    expect(feedPaths.user('ann lee')).toBe('/rss/u/ann%20lee');
    expect(feedPaths.group('Bean Growers')).toBe('/rss/g/Bean%20Growers');
    expect(feedPaths.hashtag('swap')).toBe('/rss/h/swap');
  });

  it.each([
    '/api/feed', '/api', '/media/x.webp', '/rss/u/ann', '/.well-known/webfinger', '/ap/actors/1', '/nodeinfo/2.1',
    '/share', '/metrics', '/robots.txt', '/sitemap.xml', '/sw.js', '/manifest.webmanifest',
  ])('%s is the server\'s own', (path) => {
    expect(isServerPath(path)).toBe(true);
    expect(serverPathPattern().test(path)).toBe(true);
  });

  it.each(['/', '/feed', '/p/1', '/u/api', '/apis', '/api-docs-not', '/mediator', '/shared', '/robots.txt.html', '/x/sw.js', '/sitemap'])('%s is a screen', (path) => {
    expect(isServerPath(path)).toBe(false);
  });

  it('lists every server prefix and the personal screens', () => {
    expect(SERVER_PATH_PREFIXES).toEqual(expect.arrayContaining(['/api/', '/media/', '/.well-known/', '/rss/']));
    for (const prefix of SERVER_PATH_PREFIXES) expect(isServerPath(`${prefix.replace(/\/$/, '')}/x`)).toBe(true);
    // Personal, private or a form: never for search engines.
    expect([...UNINDEXED_SCREENS].sort()).toEqual(['account', 'create-group', 'login', 'moderation', 'notifications', 'oauth', 'post', 'reset', 'search', 'signup', 'verify']);
    expect(UNINDEXED_SCREENS).not.toContain('p');
  });

  it('reads an old hash address as the path it stands for', () => {
    expect(pathOfHash('#/p/p1?c=2')).toBe('/p/p1?c=2');
    expect(pathOfHash('#/')).toBe('/');
    expect(pathOfHash('#comments')).toBeNull();
    expect(pathOfHash('')).toBeNull();
    expect(pathOfHash('#')).toBeNull();
  });
});

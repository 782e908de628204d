import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { feedsApi } from '#core/api/feeds';
import { groupsApi } from '#core/api/groups';
import { profilesApi } from '#core/api/profiles';
import { FEED_ROUTES, UNINDEXED_SCREENS, appPaths, feedPaths } from '#core/app-paths';
import { type LinkLanguage, linkText, preferredLanguage } from './link-texts.js';
import { contentImageSize } from '../media/media.service.js';
import { postPicture } from './post-summary.js';
import { type FeedHead, rssOf } from './rss.js';
import { SITEMAP_MAX, publicGroupNames, publicUsernames } from './syndication.repository.js';
import { readAsVisitor } from './visitor-read.js';
import type { PostList } from '#core/api/posts';

/** How many of the newest posts a feed carries. */
export const FEED_ITEMS = 20;

const xmlEscape = (value: string) => value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Feeds to follow (RSS 2.0) of a user's posts, a public group's posts and a hashtag; robots.txt and a
 * sitemap of the public profiles and groups. Every post comes from the API's answer to a visitor,
 * so a feed carries exactly what a visitor could read in the app: never a private group's post, a
 * suspended author's, or a deleted one. A private group has no feed at all.
 */
export const syndicationRoutes: FastifyPluginAsync = async (app) => {
  const origin = app.config.publicUrl;
  const query = { page: 1, limit: FEED_ITEMS, sort: 'newest' } as const;

  async function sendFeed(reply: FastifyReply, head: FeedHead, list: PostList, language: LinkLanguage) {
    const pictures = list.posts.flatMap((post) => postPicture(post) ?? []);
    const sizes = new Map<string, number>();
    for (const picture of pictures) {
      const size = await contentImageSize(app, picture);
      if (size !== undefined) sizes.set(picture, size);
    }
    return reply
      .header('Cache-Control', 'no-cache')
      .type('application/rss+xml; charset=utf-8')
      .send(rssOf(origin, head, list.posts, language, sizes));
  }
  const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').send('Not found');

  app.get<{ Params: { username: string } }>(FEED_ROUTES.user, async (request, reply) => {
    const language = preferredLanguage(request.headers['accept-language']);
    const profile = await readAsVisitor(app, profilesApi.user, { username: request.params.username });
    const posts = profile && (await readAsVisitor(app, profilesApi.posts, { username: profile.user.username }, query));
    if (!profile || !posts) return notFound(reply);
    const { username, bio, pfpUrl } = profile.user;
    const head = { title: linkText(language, 'userFeed', { username }), description: bio || linkText(language, 'userTitle', { username }), page: appPaths.user(username), self: feedPaths.user(username), image: pfpUrl };
    return sendFeed(reply, head, posts, language);
  });

  app.get<{ Params: { name: string } }>(FEED_ROUTES.group, async (request, reply) => {
    const language = preferredLanguage(request.headers['accept-language']);
    const found = await readAsVisitor(app, groupsApi.get, { name: request.params.name });
    const group = found && !found.group.private ? found.group : null;
    const posts = group && (await readAsVisitor(app, groupsApi.posts, { name: group.name }, query));
    if (!group || !posts) return notFound(reply);
    const head = { title: linkText(language, 'groupFeed', { group: group.name }), description: group.description || linkText(language, 'groupTitle', { group: group.name }), page: appPaths.group(group.name), self: feedPaths.group(group.name), image: group.gpUrl };
    return sendFeed(reply, head, posts, language);
  });

  app.get<{ Params: { tag: string } }>(FEED_ROUTES.hashtag, async (request, reply) => {
    const language = preferredLanguage(request.headers['accept-language']);
    const tag = request.params.tag.replace(/^#/, '');
    const posts = await readAsVisitor(app, feedsApi.hashtag, { hashtag: tag }, query);
    if (!posts) return notFound(reply);
    const title = linkText(language, 'hashtagFeed', { tag });
    return sendFeed(reply, { title, description: title, page: appPaths.hashtag(tag), self: feedPaths.hashtag(tag) }, posts, language);
  });

  app.get('/robots.txt', async (_request, reply) => {
    const closed = ['/api/', '/media/', '/rss/', ...UNINDEXED_SCREENS.map((screen) => `/${screen}`)];
    const body = ['User-agent: *', ...closed.map((path) => `Disallow: ${path}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
    return reply.header('Cache-Control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(body);
  });

  app.get('/sitemap.xml', async (_request, reply) => {
    const users = await publicUsernames(app.db, SITEMAP_MAX);
    const groups = await publicGroupNames(app.db, SITEMAP_MAX - users.length);
    const paths = [appPaths.home(), ...users.map(appPaths.user), ...groups.map(appPaths.group)];
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      paths.map((path) => `  <url><loc>${xmlEscape(new URL(path, origin).href)}</loc></url>\n`).join('') +
      '</urlset>\n';
    return reply.header('Cache-Control', 'public, max-age=3600').type('application/xml; charset=utf-8').send(body);
  });
};

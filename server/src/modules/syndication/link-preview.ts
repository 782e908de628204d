import type { FastifyInstance } from 'fastify';
import { groupsApi } from '#core/api/groups';
import { postsApi } from '#core/api/posts';
import { profilesApi } from '#core/api/profiles';
import { UNINDEXED_SCREENS, appPaths, feedPaths } from '#core/app-paths';
import { excerpt, postPicture, postSummary } from './post-summary.js';
import { type LinkLanguage, linkText } from './link-texts.js';
import { readAsVisitor, visitorAnswer } from './visitor-read.js';

/** How long a preview's description runs (what chat apps and search results show of it). */
const DESCRIPTION_LENGTH = 200;
/** The app's icon: the picture of a preview that has none of its own. */
const SITE_IMAGE = '/icons/icon-512.png';

export interface Preview {
  title: string;
  description: string;
  /** The page's own address (its path), canonical. */
  path: string;
  image: string;
  type: 'website' | 'article' | 'profile';
  /** A feed that follows this page, linked as an alternate. */
  feed?: string;
  /** Personal or private: search engines keep out. */
  noindex: boolean;
  /** Names nobody (a user no account has): the page answers 404, still with the app in it. */
  missing?: boolean;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean).map((segment) => decodeURIComponent(segment));

/**
 * What a link to `path` shows when shared (a chat's card, a search result): the post, profile, group
 * or hashtag it names, read as a visitor reads the API. Anything a visitor may not read (a private
 * group's post, a suspended author's, a deleted post, a private group) gets the site's own preview,
 * never its text, author or picture.
 */
export async function previewOf(app: FastifyInstance, path: string, language: LinkLanguage): Promise<Preview> {
  // The site's own preview names the site, never the path asked for (it may hold a hidden post's id).
  const site: Preview = {
    title: linkText(language, 'site'),
    description: linkText(language, 'siteDescription'),
    path: appPaths.home(),
    image: SITE_IMAGE,
    type: 'website',
    noindex: false,
  };
  let segments: string[];
  try {
    segments = segmentsOf(path);
  } catch {
    return site;
  }
  const [screen, name, more] = segments;
  // What a visitor may not read (or what is not there) is the site's preview, kept out of search.
  const unreadable = { ...site, noindex: true };
  if (screen && UNINDEXED_SCREENS.includes(screen)) return { ...site, noindex: true };
  if (!name) return site;

  if (screen === 'p' && !more) {
    const post = await readAsVisitor(app, postsApi.get, { postId: name });
    if (!post) return unreadable;
    const { text } = postSummary(post, language);
    return {
      title: linkText(language, 'postTitle', { username: post.author.username }),
      description: excerpt(text, DESCRIPTION_LENGTH),
      path: appPaths.post(post._id),
      image: postPicture(post) ?? post.author.pfpUrl,
      type: 'article',
      noindex: false,
    };
  }
  if (screen === 'u') {
    const { status, reply: profile } = await visitorAnswer(app, profilesApi.user, { username: name });
    if (!profile) return { ...unreadable, missing: status === 404 };
    const { username, bio, pfpUrl } = profile.user;
    const title = linkText(language, 'userTitle', { username });
    return { title, description: excerpt(bio, DESCRIPTION_LENGTH) || title, path: appPaths.user(username), image: pfpUrl, type: 'profile', feed: feedPaths.user(username), noindex: false };
  }
  if (screen === 'g') {
    const found = await readAsVisitor(app, groupsApi.get, { name });
    if (!found || found.group.private) return unreadable;
    const { name: group, description, gpUrl } = found.group;
    const title = linkText(language, 'groupTitle', { group });
    return { title, description: excerpt(description, DESCRIPTION_LENGTH) || title, path: appPaths.group(group), image: gpUrl, type: 'website', feed: feedPaths.group(group), noindex: false };
  }
  if (screen === 'h' && !more) {
    const title = linkText(language, 'hashtagTitle', { tag: name });
    return { ...site, title, description: title, path: appPaths.hashtag(name), feed: feedPaths.hashtag(name) };
  }
  return site;
}

const attr = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The head's tags for a preview: title, description, canonical, Open Graph, Twitter's card, feed, robots. */
export function previewTags(preview: Preview, origin: string, language: LinkLanguage): string {
  const absolute = (path: string) => new URL(path, origin).href;
  const meta = (key: 'name' | 'property', name: string, content: string) => `<meta ${key}="${name}" content="${attr(content)}" />`;
  return [
    `<title>${attr(preview.title)}</title>`,
    meta('name', 'description', preview.description),
    `<link rel="canonical" href="${attr(absolute(preview.path))}" />`,
    meta('property', 'og:site_name', linkText(language, 'site')),
    meta('property', 'og:title', preview.title),
    meta('property', 'og:description', preview.description),
    meta('property', 'og:type', preview.type),
    meta('property', 'og:url', absolute(preview.path)),
    meta('property', 'og:image', absolute(preview.image)),
    meta('property', 'og:locale', language === 'cs' ? 'cs_CZ' : 'en_US'),
    meta('name', 'twitter:card', preview.image === SITE_IMAGE ? 'summary' : 'summary_large_image'),
    meta('name', 'twitter:title', preview.title),
    meta('name', 'twitter:description', preview.description),
    meta('name', 'twitter:image', absolute(preview.image)),
    ...(preview.feed ? [`<link rel="alternate" type="application/rss+xml" title="${attr(preview.title)}" href="${attr(absolute(preview.feed))}" />`] : []),
    ...(preview.noindex ? [meta('name', 'robots', 'noindex')] : []),
  ].join('\n    ');
}

/** The page with its own title and description replaced by a preview's tags. */
export function pageWithPreview(template: string, tags: string): string {
  // Function replacements: a string one would expand `$&` and the like found in a post's text.
  return template
    .replace(/\s*<title>[^<]*<\/title>/, () => '')
    .replace(/\s*<meta name="description"[^>]*>/, () => '')
    .replace('</head>', () => `  ${tags}\n  </head>`);
}

import type { ReplyOf } from '#core/api/endpoint';
import type { feedsApi } from '#core/api/feeds';
import { DELETED, LIMITS } from '#core/limits';
import { SORTS } from '#core/listing';
import { appPaths } from '#core/app-paths';
import { remoteNameOf, webUrlOf } from '#core/remote-names';
import { CARD_IMAGES, IMAGE_BOX, listingImagePriority } from '#core/post-layout';
import { tokenizeText } from '#core/text';
import { CARD_ICON_PATHS, type CardIconName } from '#core/ui/icon-paths';
import { relativeTime } from '#core/time';
import csCommon from '../../../../locales/cs/common.json' with { type: 'json' };
import csFeed from '../../../../locales/cs/feed.json' with { type: 'json' };
import csPost from '../../../../locales/cs/post.json' with { type: 'json' };
import enCommon from '../../../../locales/en/common.json' with { type: 'json' };
import enFeed from '../../../../locales/en/feed.json' with { type: 'json' };
import enPost from '../../../../locales/en/post.json' with { type: 'json' };
import type { LinkLanguage } from './link-texts.js';

/**
 * The explore feed's first page as plain HTML cards, in the markup and class names the app's own
 * feed draws (FeedPage, PostCard), so the inlined stylesheet paints them before any script runs and
 * the app's first drawing replaces them where they stand. Everything a post says is escaped; text
 * is shown as the app shows it (hashtags linked, the rest as written).
 */

type FirstFeed = ReplyOf<typeof feedsApi.explore>;
type FeedPost = FirstFeed['posts'][number];

export type ShellLanguage = LinkLanguage;
const CATALOGUES = {
  en: { common: enCommon, feed: enFeed, post: enPost },
  cs: { common: csCommon, feed: csFeed, post: csPost },
} as const;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text safe as an element's content and as a quoted attribute's value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** A catalogue's text by dotted key, with `{{name}}` filled (escaped) and, given a count, its plural form. */
function translator(language: ShellLanguage) {
  const plural = new Intl.PluralRules(language);
  return (ns: keyof (typeof CATALOGUES)['en'], key: string, values: Record<string, string | number> = {}): string => {
    const lookup = (path: string): unknown =>
      path.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), CATALOGUES[language][ns]);
    const count = values.count;
    const found = typeof count === 'number' ? (lookup(`${key}_${plural.select(count)}`) ?? lookup(`${key}_other`)) : lookup(key);
    const text = typeof found === 'string' ? found : key;
    return escapeHtml(text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? '')));
  };
}
type Translate = ReturnType<typeof translator>;


// The card's action icons, drawn as the app draws them in their outline form.
const icon = (name: CardIconName) =>
  `<svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false" data-icon="${name}" data-filled="false">` +
  `<g fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="${CARD_ICON_PATHS[name]}"></path></g></svg>`;


/** A name as the app's UserName draws it: a remote account's as its name and then its server. */
function nameOf(username: string, t: Translate): string {
  const remote = remoteNameOf(username);
  return remote ? `${escapeHtml(remote.name)} <span class="remote-host">${t('common', 'remote.on_host', { host: remote.host })}</span>` : escapeHtml(username);
}

/** The app's OpenOriginal: a remote post's page on its own server, in a new tab. */
function original(post: FeedPost, t: Translate): string {
  const url = webUrlOf(post.remote?.url);
  if (!post.remote || !url) return '';
  const label = t('common', 'remote.open_original_label', { host: post.remote.host });
  return `<a class="text-link remote-original" href="${escapeHtml(url)}" target="_blank" rel="noopener nofollow ugc" aria-label="${label}">${t('common', 'remote.open_original')}</a>`;
}

function header(post: FeedPost, t: Translate, now: number): string {
  const { username, pfp, pfpUrl } = post.author;
  const avatar = pfpUrl || `/media/pfp/${pfp || 'default'}.jpeg`;
  const author =
    username === DELETED
      ? `<span class="post-author">${t('post', 'deleted_user')}</span>`
      : `<a class="post-author" href="${escapeHtml(appPaths.user(username))}">${nameOf(username, t)}</a>`;
  const { unit, value } = relativeTime(post.createdAt, now);
  const time = `<time datetime="${new Date(post.createdAt).toISOString()}">${t('common', `time.${unit}`, { count: value })}</time>`;
  return (
    `<header class="post-header"><img class="avatar" width="40" height="40" loading="lazy" decoding="async" alt="${t('post', 'avatar_alt', { username })}" src="${escapeHtml(avatar)}">` +
    `${author}<span class="post-time"><a class="" href="${escapeHtml(appPaths.post(post._id))}"><span class="tooltip-anchor">${time}</span></a></span>${original(post, t)}</header>`
  );
}

function tags(post: FeedPost): string {
  if (post.groups.length === 0 && post.mentions.length === 0) return '';
  const item = (kind: string, sign: string, name: string, href: string | null) =>
    `<li class="tag tag-${kind}">${href ? `<a href="${escapeHtml(href)}">` : '<span>'}${sign}${escapeHtml(name)}${href ? '</a>' : '</span>'}</li>`;
  return `<ul class="post-tags">${post.groups.map((g) => item('group', '&amp;', g.name, g._id ? appPaths.group(g.name) : null)).join('')}${post.mentions
    .map((m) => item('mention', '@', m.username, m._id ? appPaths.user(m.username) : null))
    .join('')}</ul>`;
}

/** The text, folded at the height the app folds a long one at (its "Show more" comes with the app). */
function text(post: FeedPost): string {
  const runs = tokenizeText(post.text).map((token) =>
    token.kind === 'hashtag' ? `<a class="hashtag" href="${escapeHtml(appPaths.hashtag(token.tag))}">${escapeHtml(token.value)}</a>` : `<span>${escapeHtml(token.value)}</span>`,
  );
  return `<div class="post-text" style="max-height: ${LIMITS.collapsedPostPx}px; overflow: hidden;">${runs.join('')}</div>`;
}

function images(post: FeedPost, priority: ReturnType<typeof listingImagePriority>, t: Translate): string {
  const shown = (post.media ?? []).slice(0, CARD_IMAGES);
  if (shown.length === 0) return '';
  const box = IMAGE_BOX[shown.length as 1 | 2];
  const pictures = shown.map((url, i) => {
    const alt = post.alts?.[i]?.trim() || t('post', 'image_alt', { index: i + 1 });
    const loading = priority === 'lazy' ? ' loading="lazy" decoding="async"' : ' loading="eager"';
    const high = priority === 'high' && i === 0 ? ' fetchpriority="high"' : '';
    return `<button type="button" class="post-image"><img width="${box.width}" height="${box.height}"${loading}${high} alt="${escapeHtml(alt)}" src="${escapeHtml(url)}"></button>`;
  });
  return `<div class="post-images post-images-${shown.length}" style="aspect-ratio: ${box.ratio};">${pictures.join('')}</div>`;
}

/** The content warning, with the post behind it kept out of the page, as the app first shows it. */
function warning(post: FeedPost, t: Translate): string {
  const said = escapeHtml(post.contentWarning?.trim() ?? '');
  return (
    `<div class="post-warning"><span class="post-warning-text"><span class="post-warning-label">${t('post', 'content_warning')}: </span>${said}</span>` +
    `<button type="button" class="link-button post-warning-toggle" aria-expanded="false">${t('post', 'show_content')}</button></div><div class="post-warning-content"></div>`
  );
}

function actions(post: FeedPost, t: Translate): string {
  return (
    `<div class="post-actions"><button type="button" class="action post-like" aria-pressed="false" aria-label="${t('post', 'like')}">${icon('like')}</button>` +
    `<span class="post-likes like-count"><span aria-hidden="true">${post.likes}</span><span class="visually-hidden">${t('post', 'likes', { count: post.likes })}</span></span>` +
    `<a class="action post-comments" href="${escapeHtml(appPaths.post(post._id))}">${icon('comment')}<span class="action__count" aria-hidden="true">${post.comments}</span>` +
    `<span class="visually-hidden">${t('post', 'comments', { count: post.comments })}</span></a>` +
    `<button type="button" class="action post-share" aria-label="${t('post', 'share')}">${icon('share')}</button></div>`
  );
}

/** The app's SharedBy: the community of another server that passed a remote post on. */
function sharedBy(post: FeedPost, t: Translate): string {
  if (!post.sharedBy) return '';
  const { username } = post.sharedBy;
  return `<div class="post-shared">${t('common', 'remote.shared_by')} <a class="text-link" href="${escapeHtml(appPaths.user(username))}">${nameOf(username, t)}</a></div>`;
}

function card(post: FeedPost, priority: ReturnType<typeof listingImagePriority>, t: Translate, now: number): string {
  const body = post.contentWarning?.trim() ? warning(post, t) : `${text(post)}${images(post, priority, t)}`;
  return `<li><article class="post-card" data-post-id="${escapeHtml(post._id)}">${sharedBy(post, t)}${header(post, t, now)}${tags(post)}${body}${actions(post, t)}</article></li>`;
}

/** The class of the server's feed, and of what shows in its place when the app opens elsewhere. */
export const FIRST_FEED_CLASS = 'first-feed';
export const FIRST_FEED_FALLBACK_CLASS = 'first-feed-fallback';

/** The explore screen with the feed's first page, as the app draws it for a visitor. */
export function firstFeedHtml(feed: FirstFeed, language: ShellLanguage, now: number = Date.now()): string {
  const t = translator(language);
  const cards = feed.posts.map((post, i) => card(post, listingImagePriority(feed.posts, i), t, now)).join('');
  const sorts = SORTS.map((sort) => `<option value="${sort}">${t('common', `listing.sort.${sort}`)}</option>`).join('');
  return (
    `<section class="feed-page ${FIRST_FEED_CLASS}"><h1 class="visually-hidden">${t('feed', 'title')}</h1>` +
    `<nav class="feed-tabs" aria-label="${t('feed', 'tabs.label')}"><a aria-current="page" class="active" href="${appPaths.feed()}">${t('feed', 'tabs.explore')}</a></nav>` +
    `<div class="listing-controls"><label><span class="visually-hidden">${t('common', 'listing.sort.label')}</span>` +
    `<select aria-label="${t('common', 'listing.sort.label')}">${sorts}</select></label></div>` +
    `<ul class="post-list">${cards}</ul></section>`
  );
}

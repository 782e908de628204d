import type { Post } from '#core/api/posts';
import { type LinkLanguage, linkText } from './link-texts.js';

/** How long a post's title is when shown outside the app (a feed item, a link preview). */
const TITLE_LENGTH = 80;

/** Cut at a word boundary within `length` characters, with an ellipsis when anything was cut. */
export function excerpt(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > length / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * What a post says outside the app. A post behind a content warning shows the warning only: the
 * author asked readers to choose before seeing it, and a feed reader or a preview cannot ask.
 */
export function postSummary(post: Pick<Post, 'text' | 'contentWarning' | 'images'>, language: LinkLanguage): { title: string; text: string } {
  if (post.contentWarning) {
    const warning = linkText(language, 'contentWarning', { warning: post.contentWarning });
    return { title: excerpt(warning, TITLE_LENGTH), text: warning };
  }
  const text = post.text.trim() || (post.images ? linkText(language, 'pictures', { count: post.images }) : '');
  return { title: excerpt(text, TITLE_LENGTH), text };
}

/** The post's first picture when the reader may see it (none behind a content warning). */
export const postPicture = (post: Pick<Post, 'media' | 'contentWarning'>): string | null => (post.contentWarning ? null : (post.media[0] ?? null));

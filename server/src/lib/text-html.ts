import { appPaths } from '#core/app-paths';
import { tokenizeText } from '#core/text';
import { absolute } from './absolute-url.js';

/** Text as HTML that shows it as written: every character markup could start with is escaped. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Escaped HTML in paragraphs: a blank line starts one, a single line break stays a break. */
export function inParagraphs(html: string): string {
  return html
    .split(/(?:\r?\n){2,}/)
    .map((paragraph) => `<p>${paragraph.replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * A post's or comment's text as the HTML other servers and fediverse apps show: every character of
 * the text escaped, the hashtags linked to their page and the mentions to the profile (a remote
 * account's to its actor on its own server, where `remoteActors` names it by username), lines kept.
 * No markup of the author's ever gets through, whatever the text holds.
 */
export function writingHtml(origin: string, text: string, mentionNames: readonly string[], remoteActors: ReadonlyMap<string, string> = new Map()): string {
  const link = (path: string, attributes: string, inner: string) => `<a href="${escapeHtml(absolute(origin, path))}" ${attributes}>${inner}</a>`;
  const html = tokenizeText(text, [...mentionNames])
    .map((token) => {
      if (token.kind === 'hashtag') return link(appPaths.hashtag(token.tag), 'class="mention hashtag" rel="tag"', `#<span>${escapeHtml(token.value.slice(1))}</span>`);
      if (token.kind === 'mention')
        return `<span class="h-card">${link(remoteActors.get(token.username) ?? appPaths.user(token.username), 'class="u-url mention"', `@<span>${escapeHtml(token.value.slice(1))}</span>`)}</span>`;
      return escapeHtml(token.value);
    })
    .join('');
  return inParagraphs(html);
}

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
export function writingHtml(origin: string, text: string, mentionNames: readonly string[], remoteActors: ReadonlyMap<string, string> = NO_ACTORS): string {
  if (remoteActors.size > 0) return htmlOf(origin, text, mentionNames, remoteActors);
  const context = mentionNames.length === 0 ? origin : `${origin}\u0000${mentionNames.join('\u0000')}`;
  let byContext = writtenHtml.get(text);
  let html = byContext?.get(context);
  if (html === undefined) {
    html = htmlOf(origin, text, mentionNames, remoteActors);
    writtenCharacters += text.length + context.length + html.length;
    if (writtenCharacters > WRITTEN_HTML_CHARACTERS) {
      writtenHtml.clear();
      byContext = undefined;
      writtenCharacters = text.length + context.length + html.length;
    }
    if (byContext === undefined) {
      byContext = new Map();
      writtenHtml.set(text, byContext);
    }
    byContext.set(context, html);
  }
  return html;
}

const NO_ACTORS: ReadonlyMap<string, string> = new Map();

/**
 * HTML already written, by text and then by origin and mention names: an app reads the same posts
 * page after page and from every timeline, and tokenizing a text again was a tenth of a home
 * timeline's JavaScript. A text read from the database is a new string each time, so it is looked
 * up as it is, not joined into a longer key first. Emptied whole once the keys and answers pass
 * about 4 million characters.
 */
const writtenHtml = new Map<string, Map<string, string>>();
const WRITTEN_HTML_CHARACTERS = 4_000_000;
let writtenCharacters = 0;

function htmlOf(origin: string, text: string, mentionNames: readonly string[], remoteActors: ReadonlyMap<string, string>): string {
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

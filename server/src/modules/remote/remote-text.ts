import sanitizeHtml from 'sanitize-html';
import { LIMITS } from '#core/limits';
import { lineCount, storedLength, trimText } from '#core/text';
import { normalizeContentWarning } from '#core/validation';
import { hostWithPortOf } from '../../lib/hosts.js';

/**
 * What other servers send as HTML, turned into Kruh's plain text before anything is stored. Kruh
 * never shows a remote server's markup: sanitize-html first cuts the document down to paragraphs,
 * line breaks and links (every other tag goes, with the content of scripts and styles, and every
 * attribute but a link's address and class), then that small, well-formed remainder is read into
 * text: paragraphs and breaks become line breaks, a link its text, entities their characters.
 */

/** What sanitize-html leaves, read back as tokens. */
const TOKEN = /<p>|<\/p>|<br \/>|<a(?: href="([^"]*)")?(?: class="([^"]*)")?>|<\/a>|[^<]+/g;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };
const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] ?? entity);

/** A link's host in its one spelling (hosts.ts), with its port: a mention of `kruh.example.` is local. */
const hostOf = (href: string): string | null => {
  const url = URL.parse(href);
  return url ? hostWithPortOf(url) : null;
};

/**
 * A mention link's text as Kruh writes a mention: `@name` for someone of this instance, `@name@host`
 * for someone elsewhere (Mastodon links only `@name`, the host being the link's).
 */
function mentionText(text: string, href: string, localHost: string | null): string {
  const handle = text.trim();
  if (!handle.startsWith('@')) return text;
  const host = hostOf(href);
  const [name, written] = handle.slice(1).split('@');
  if (host && host === localHost) return `@${name}`;
  if (written || !host) return handle;
  return `@${name}@${host}`;
}

/**
 * The plain text of remote HTML. `localOrigin` is the instance's own address, so a mention of one
 * of its users reads as a local mention.
 */
export function htmlToText(html: string, localOrigin?: string): string {
  const clean = sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'a'],
    allowedAttributes: { a: ['href', 'class'] },
    allowedSchemes: ['http', 'https'],
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template'],
  });
  const localHost = localOrigin ? hostOf(localOrigin) : null;
  let out = '';
  let link: { href: string; mention: boolean; text: string } | null = null;
  for (const match of clean.matchAll(TOKEN)) {
    const [token, href, classes] = match;
    if (token === '<p>' || token === '</p>') {
      out += '\n\n';
    } else if (token === '<br />') {
      if (link) link.text += '\n';
      else out += '\n';
    } else if (token.startsWith('<a')) {
      const mention = (classes ?? '').split(/\s+/).includes('mention') && !(classes ?? '').split(/\s+/).includes('hashtag');
      link = { href: decode(href ?? ''), mention, text: '' };
    } else if (token === '</a>') {
      if (link) out += link.mention ? mentionText(link.text, link.href, localHost) : link.text;
      link = null;
    } else {
      // Whitespace in HTML text is one space wherever it breaks the source's lines.
      const text = decode(token).replace(/[ \t\r\n\f]+/g, ' ');
      if (link) link.text += text;
      else out += text;
    }
  }
  if (link) out += link.text;
  return out
    .split('\n')
    .map((line) => line.replace(/^ +| +$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const ELLIPSIS = '…';

/** The text cut to at most `maxLength` characters and LIMITS.textMaxLines lines, an ellipsis marking a cut. */
export function clipText(text: string, maxLength: number = LIMITS.textMaxLength): string {
  let out = trimText(text);
  let cut = false;
  if (lineCount(out) > LIMITS.textMaxLines) {
    out = trimText(out.split(/\r\n|\n/).slice(0, LIMITS.textMaxLines).join('\n'));
    cut = true;
  }
  if (storedLength(out) > maxLength) {
    out = trimText([...out].slice(0, maxLength - 1).join(''));
    cut = true;
  }
  if (cut && storedLength(out) >= maxLength) out = [...out].slice(0, maxLength - 1).join('');
  return cut ? `${out}${ELLIPSIS}` : out;
}

/** A remote post's or comment's HTML as the text Kruh stores, within the text limits. */
export const remoteText = (html: string, localOrigin?: string) => clipText(htmlToText(html, localOrigin));

/** A content warning (a Note's `summary`) as Kruh stores one: one line, within its limit; null for none. */
export function remoteContentWarning(html: string | null | undefined): string | null {
  const line = normalizeContentWarning(html ? htmlToText(html) : null);
  return line ? clipText(line, LIMITS.contentWarningMaxLength) : null;
}

/** A picture's description, within its limit. */
export const remoteAlt = (text: string | null | undefined) => (text ? clipText(text.replace(/\s+/g, ' '), LIMITS.imageAltMaxLength) : '');

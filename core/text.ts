/**
 * Parsing of post text shared by the server (hashtag index, search) and the web app (links in
 * post cards): #hashtags, @mentions and &group tags, all Unicode-aware.
 */
const HASHTAG = /(^|[^\p{L}\p{N}_&#@])#([\p{L}\p{N}_]+)/gu;

/** Distinct hashtags of a text, lowercased, in order of first appearance. */
export function extractHashtags(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(HASHTAG)) {
    const tag = match[2]!;
    if (/[\p{L}_]/u.test(tag)) seen.add(tag.toLowerCase());
  }
  return [...seen];
}

export type TextToken =
  | { kind: 'text'; value: string }
  | { kind: 'hashtag'; value: string; tag: string };

/** Splits text into plain runs and hashtag tokens, for rendering links to /h/{hashtag}. */
export function tokenizeText(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  let last = 0;
  for (const match of text.matchAll(HASHTAG)) {
    const tag = match[2]!;
    if (!/[\p{L}_]/u.test(tag)) continue;
    const start = match.index + match[1]!.length;
    if (start > last) tokens.push({ kind: 'text', value: text.slice(last, start) });
    tokens.push({ kind: 'hashtag', value: `#${tag}`, tag: tag.toLowerCase() });
    last = start + tag.length + 1;
  }
  if (last < text.length) tokens.push({ kind: 'text', value: text.slice(last) });
  return tokens;
}

/**
 * Folds text for search: lowercase, diacritics removed, so "zluty" finds "žlutý". The server stores
 * this form in search columns and folds queries the same way.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A hashtag as typed in a URL or a query: without its #, lowercased. */
export function normalizeHashtag(tag: string): string {
  return tag.replace(/^#/, '').toLowerCase();
}

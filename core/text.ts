import { remove as foldConfusables } from 'confusables';

/**
 * Parsing of post text shared by the server (hashtag index, search) and the web app (links in
 * post cards): #hashtags, @mentions and &group tags, all Unicode-aware. Also what a person sees of
 * a text: its lines, whether it shows anything at all, and the look-alike skeleton of a name.
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
  | { kind: 'hashtag'; value: string; tag: string }
  | { kind: 'mention'; value: string; username: string };

/** A letter, digit or underscore: what may not touch a tag on either side. */
const WORD_CHAR = '[\\p{L}\\p{N}_]';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Patterns made lately, by their names: a page of posts by the same few people asks for the same ones, and compiling a pattern is dear. */
const mentionPatterns = new Map<string, RegExp | null>();

/**
 * Where the text names one of these users as @name: names may hold spaces and punctuation, so only
 * the names a post mentions are looked for (the longest first, so "@ann lee" wins over "@ann").
 */
function mentionPattern(usernames: readonly string[]): RegExp | null {
  if (usernames.length === 0) return null;
  const key = usernames.join('\n');
  let pattern = mentionPatterns.get(key);
  if (pattern === undefined) {
    const names = [...new Set(usernames.filter((n) => n !== ''))].sort((a, b) => b.length - a.length);
    // Not running into a longer word, nor into a host: "@bob@other.example" is not the local "@bob".
    pattern = names.length === 0 ? null : new RegExp(`(^|[^\\p{L}\\p{N}_&#@])@(${names.map(escapeRegExp).join('|')})(?!${WORD_CHAR}|@${WORD_CHAR})`, 'giu');
    if (mentionPatterns.size >= 1_000) mentionPatterns.clear();
    mentionPatterns.set(key, pattern);
  }
  return pattern;
}

/** The characters of the name in a fediverse handle. */
const HANDLE_NAME_CHARS = '\\p{L}\\p{N}_.-';

/**
 * A fediverse handle written into a text, `@name@host`: the host is a domain of two labels or
 * more, with a port when it names one, and neither end runs into a word or another handle.
 */
const HANDLE = new RegExp(`(^|[^\\p{L}\\p{N}_&#@])@([${HANDLE_NAME_CHARS}]+)@([\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+(?::\\d+)?)(?![\\p{L}\\p{N}_@])`, 'gu');

/** Whether a name can be written in a handle as a text names one: letters, digits, `_`, `.` and `-`. */
export function isHandleName(name: string): boolean {
  return new RegExp(`^[${HANDLE_NAME_CHARS}]+$`, 'u').test(name);
}

/**
 * A local name typed into a text as `@name`: letters, digits, `_`, `.` and `-`, not inside a word
 * or a tag, and not the start of a handle (`@name@host`, which names an account of another server).
 */
const TYPED_NAME = new RegExp(`(^|[^\\p{L}\\p{N}_&#@])@([${HANDLE_NAME_CHARS}]+)(?![${HANDLE_NAME_CHARS}@])`, 'gu');

/**
 * The distinct local names a text types as `@name` (compared in any case), as first written; a
 * full stop or dash right after the name ends the sentence, not the name.
 */
export function typedNamesInText(text: string): string[] {
  const found = new Map<string, string>();
  for (const match of text.matchAll(TYPED_NAME)) {
    const name = match[2]!.replace(/[.-]+$/u, '');
    if (name !== '' && !found.has(name.toLowerCase())) found.set(name.toLowerCase(), name);
  }
  return [...found.values()];
}

/** A name being typed right before the caret: `@` (an account) or `&` (a group), and what follows it so far. */
export interface TypedTag {
  sign: '@' | '&';
  /** Where the sign stands in the text. */
  start: number;
  query: string;
}

const TAG_BEFORE_CARET = new RegExp(`(^|[^\\p{L}\\p{N}_&#@])([@&])([${HANDLE_NAME_CHARS}]*)$`, 'u');

/** The `@name` or `&name` the caret stands at the end of, or null. */
export function typedTagAt(text: string, caret: number): TypedTag | null {
  const match = TAG_BEFORE_CARET.exec(text.slice(0, caret));
  if (!match) return null;
  return { sign: match[2] as '@' | '&', start: match.index + match[1]!.length, query: match[3]! };
}

/** The distinct handles a text names as `@name@host` (compared in any case), as `name@host` first written. */
export function handlesInText(text: string): string[] {
  const found = new Map<string, string>();
  for (const match of text.matchAll(HANDLE)) {
    const handle = `${match[2]}@${match[3]}`;
    if (!found.has(handle.toLowerCase())) found.set(handle.toLowerCase(), handle);
  }
  return [...found.values()];
}

function tokenizeHashtags(text: string, tokens: TextToken[]): void {
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
}

/**
 * Splits text into plain runs, hashtag tokens (for links to /h/{hashtag}) and @mentions of the
 * given users (for links to their profiles); a mention token carries the name as given.
 */
export function tokenizeText(text: string, mentions: readonly string[] = []): TextToken[] {
  const tokens: TextToken[] = [];
  const pattern = mentionPattern(mentions);
  let last = 0;
  for (const match of pattern ? text.matchAll(pattern) : []) {
    const start = match.index + match[1]!.length;
    const typed = match[2]!;
    tokenizeHashtags(text.slice(last, start), tokens);
    const username = mentions.find((n) => n.toLowerCase() === typed.toLowerCase()) ?? typed;
    tokens.push({ kind: 'mention', value: `@${typed}`, username });
    last = start + typed.length + 1;
  }
  tokenizeHashtags(text.slice(last), tokens);
  return tokens;
}

/** The given usernames the text names as @name (compared case-insensitively), as given. */
export function mentionsInText(text: string, usernames: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const token of tokenizeText(text, usernames)) if (token.kind === 'mention') found.add(token.username);
  return found;
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

/**
 * Characters that draw nothing: soft hyphen, zero-width space/joiners, word joiner and invisible
 * operators, direction marks, embeddings, overrides and isolates, the byte-order mark, and the
 * fillers that fonts render blank (Hangul fillers, braille blank, Khmer inherent vowels,
 * Mongolian vowel separator, combining grapheme joiner).
 */
const INVISIBLE_CLASS =
  '\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\u2800\\u3164\\uFEFF\\uFFA0';
/** Whitespace of every kind; JavaScript's \s leaves out NEL (U+0085). */
const SPACE_CLASS = '\\s\\u0085';
/** Variation selectors and tag characters: they change the look of a character before them, alone they show nothing. */
const MODIFIER_CLASS = '\\uFE00-\\uFE0F\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}';

// These classes list combining characters (grapheme joiner, variation selectors) on purpose, each
// matched alone rather than joined to the character before it.
/* eslint-disable no-misleading-character-class */
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');
// Combining marks count too: without a letter to sit on they draw only a stray accent, so a text of
// nothing but marks (U+0301 three times) shows nothing a reader can call a name or a post.
const EMPTY_LOOKING = new RegExp(`[${INVISIBLE_CLASS}${SPACE_CLASS}${MODIFIER_CLASS}\\p{M}]`, 'gu');
// Modifiers stay at the ends: the selector after a final emoji picks how it is drawn.
const EDGES = new RegExp(`^[${INVISIBLE_CLASS}${SPACE_CLASS}]+|[${INVISIBLE_CLASS}${SPACE_CLASS}]+$`, 'gu');
/** Characters no name may hold: controls, format characters (zero-width, direction), invisible fillers, whitespace other than a space. */
const NAME_REFUSED = new RegExp(`[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}${INVISIBLE_CLASS}${MODIFIER_CLASS}]|[^\\S ]`, 'u');
/* eslint-enable no-misleading-character-class */
/** Every line break a person sees: CR LF, LF, CR, vertical tab, form feed, NEL, line and paragraph separators. */
// The vertical tab is spelled \u000B rather than \v: Stryker's regex mutator rewrites \v as \V, which
// a u-flag regex refuses, so the mutated module would not load at all.
// eslint-disable-next-line no-control-regex -- the vertical tab is one of the line breaks
const LINE_BREAK = /\r\n|[\n\u000B\f\r\u0085\u2028\u2029]/u;

/** Number of lines as displayed, whichever line breaks the text uses. */
export function lineCount(text: string): number {
  return text.split(LINE_BREAK).length;
}

/** The text without whitespace and invisible characters at either end: what is stored and measured. */
export function trimText(text: string): string {
  return text.replace(EDGES, '');
}

/** The length a limit measures: characters (not UTF-16 units) of the text as stored. */
export function storedLength(text: string): number {
  return [...trimText(text)].length;
}

/**
 * The `maxLength` a text field may carry for `text` so that typing stops at `max` characters as
 * storedLength counts them: a field counts UTF-16 units, two for an emoji, and the ends a trim
 * drops; the units the text holds beyond its counted characters are added back.
 */
export function fieldMaxLength(text: string, max: number): number {
  return text.length + max - storedLength(text);
}

/**
 * `text` with `inserted` put in place of its `start`-`end` units (a selection), cut by whole
 * characters to what fits within `max` as storedLength counts; with the caret after the insert.
 */
export function insertWithin(text: string, start: number, end: number, inserted: string, max: number): { text: string; caret: number } {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const characters = [...inserted];
  const withFirst = (count: number) => characters.slice(0, count).join('');
  // A character more never shortens the measured text, so the most that fit is found by halving.
  let fits = 0;
  let over = characters.length + 1;
  while (over - fits > 1) {
    const count = Math.floor((fits + over) / 2);
    if (storedLength(before + withFirst(count) + after) <= max) fits = count;
    else over = count;
  }
  const piece = withFirst(fits);
  return { text: before + piece + after, caret: start + piece.length };
}

/** Whether the text shows nothing: only whitespace, invisible characters and combining marks (or nothing at all). */
export function isBlank(text: string): boolean {
  return text.replace(EMPTY_LOOKING, '') === '';
}

/**
 * A name as stored: NFKC-normalised (full-width, ligature and styled letters become plain ones),
 * without surrounding whitespace.
 */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').trim();
}

/** Whether a name holds a character a reader cannot see or that reorders what they see. */
export function hasHiddenCharacters(name: string): boolean {
  return NAME_REFUSED.test(name);
}

/**
 * Characters that reorder or hide the text around them without showing themselves: direction
 * embeddings, overrides and isolates, zero-width spaces, word joiners and invisible operators, the
 * byte-order mark. The zero-width joiners and the direction marks stay: emoji sequences and
 * scripts such as Persian need them, and they turn no text around.
 */
const HIDING = /[\u200B\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/gu;

/** A text without the characters that reorder or hide what is around it, trimmed as stored (trimText). */
export function withoutHidingCharacters(text: string): string {
  return trimText(text.replace(HIDING, ''));
}

/**
 * Latin letters and digits that many fonts draw alike, folded after lowercasing: a capital I, a small
 * l, a 1 and a bar ("pauI", "pau1", "pau|", "paul"), and an O and a 0. Lowercasing first puts the
 * small i in the first class too; names are unique in any case anyway, so "paui" is the same name
 * as "pauI".
 */
const LOOK_ALIKE_LATIN: Readonly<Record<string, string>> = { i: 'l', '1': 'l', '|': 'l', '0': 'o' };

/**
 * The words a text spells, whatever it is dressed in: NFKC, invisible characters dropped,
 * confusable letters of other scripts folded to Latin ones (Cyrillic "о" to "o"), diacritics
 * removed, lowercased, runs of whitespace as one space. Latin letters stay the letters they are, so
 * the profanity check reads "Cui" as the name it is.
 */
export function plainLetters(text: string): string {
  const visible = text.normalize('NFKC').replace(INVISIBLE, '');
  return foldConfusables(visible)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(new RegExp(`[${SPACE_CLASS}]+`, 'gu'), ' ')
    .trim();
}

/**
 * What a text looks like, for telling look-alikes apart: its `plainLetters` with I/l/1/| and O/0
 * folded together. Two names with the same skeleton are the same name to a reader, so only one of
 * them may exist. Stored skeletons depend on this function: changing it needs a migration that
 * recomputes them.
 */
export function skeleton(text: string): string {
  return plainLetters(text).replace(/[i1|0]/gu, (ch) => LOOK_ALIKE_LATIN[ch]!);
}

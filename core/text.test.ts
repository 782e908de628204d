import { describe, expect, it } from 'vitest';
import { listingSearchParams, timeWindowStart } from './listing';
import {
  extractHashtags, fieldMaxLength, foldForSearch, insertWithin, handlesInText, typedNamesInText, typedTagAt, hasHiddenCharacters, isBlank, lineCount, mentionsInText, normalizeHashtag, normalizeName, skeleton, storedLength, tokenizeText, trimText, withoutHidingCharacters,
} from './text';
import { relativeTime } from './time';

describe('hashtags', () => {
  it('extracts distinct Unicode hashtags, lowercased', () => {
    expect(extractHashtags('#Praha je #krásná, #praha! a#not #123 #rok_2026')).toEqual(['praha', 'krásná', 'rok_2026']);
  });

  it('tokenizes text around hashtags', () => {
    expect(tokenizeText('hi #Čau there')).toEqual([
      { kind: 'text', value: 'hi ' },
      { kind: 'hashtag', value: '#Čau', tag: 'čau' },
      { kind: 'text', value: ' there' },
    ]);
  });

  it('normalizes a hashtag from a URL', () => expect(normalizeHashtag('#Žluť')).toBe('žluť'));
});

describe('search folding', () => {
  it('removes case and diacritics', () => {
    expect(foldForSearch('Žlutý KŮŇ')).toBe('zluty kun');
    expect(foldForSearch('zluty')).toBe(foldForSearch('žlutý'));
  });
});

describe('relative time', () => {
  const now = Date.UTC(2026, 10, 22);
  const ago = (ms: number) => relativeTime(now - ms, now);
  const MIN = 60_000;
  const DAY = 24 * 60 * MIN;
  it.each([
    [0, 'minute', 1],
    [59 * MIN, 'minute', 59],
    [60 * MIN, 'hour', 1],
    [23 * 60 * MIN, 'hour', 23],
    [DAY, 'day', 1],
    [6 * DAY, 'day', 6],
    [7 * DAY, 'week', 1],
    [29 * DAY, 'week', 4],
    [30 * DAY, 'month', 1],
    [364 * DAY, 'month', 12],
    [365 * DAY, 'year', 1],
    [800 * DAY, 'year', 2],
  ])('%d ms ago -> %s %d', (ms, unit, value) => expect(ago(ms)).toEqual({ unit, value }));
});

describe('listing parameters', () => {
  it('omits the default sort and sends time only for popular', () => {
    expect(listingSearchParams('newest', 'week')).toEqual({});
    expect(listingSearchParams('newest', 'day')).toEqual({});
    expect(listingSearchParams('popular', 'week')).toEqual({ sort: 'popular' });
    expect(listingSearchParams('popular', 'all')).toEqual({ sort: 'popular', time: 'all' });
    expect(listingSearchParams('popular', 'all', { sort: 'popular', time: 'all' })).toEqual({});
  });

  it('computes window starts', () => {
    expect(timeWindowStart('all', 1000)).toBe(0);
    expect(timeWindowStart('day', 86_400_000 * 2)).toBe(86_400_000);
  });
});

describe('text as a person reads it', () => {
  it.each([
    ['one line', 1],
    ['a\nb', 2],
    ['a\r\nb', 2],
    ['a\rb', 2],
    ['a\u2028b', 2],
    ['a\u2029b', 2],
    ['a\u0085b', 2],
    ['a\vb', 2],
    ['a\fb', 2],
    ['a\n\r\nb\rc\u2028d\u2029e\u0085f\vg\fh', 9],
  ])('counts the lines of %j as %i', (text, lines) => expect(lineCount(text)).toBe(lines));

  it.each([
    '',
    ' \t\n',
    '\u200B\u200C\u200D',
    '\u2060\uFEFF',
    '\u3164\u3164',
    '\u2800',
    '\u115F\u1160\uFFA0',
    '\u200E\u200F',
    '\u202A\u202B\u202C\u202D\u202E',
    '\u2066\u2067\u2068\u2069',
    '\u00A0\u2003\u3000\u0085\u2028\u2029',
    '\u00AD\u034F\u180E',
    ' \uFE0F ',
    // Combining marks with no letter under them: a stray accent, a Thai tone mark, a spacing mark.
    '\u0301\u0301\u0301',
    ' \u0301 \u0E48 ',
    '\u0903',
  ])('reads %j as blank', (text) => expect(isBlank(text)).toBe(true));

  it.each(['a', '\u200Ba\u200B', '.', '👍', '\u3164x', 'e\u0301', '\u0301e'])('reads %j as not blank', (text) => expect(isBlank(text)).toBe(false));

  it('trims whitespace and invisible characters at both ends only', () => {
    expect(trimText('\u200B \u3164 hello\u200Bworld \u2800\n\u2029')).toBe('hello\u200Bworld');
    // The variation selector after a final emoji decides how it is drawn, so it stays.
    expect(trimText(' ❤\uFE0F ')).toBe('❤\uFE0F');
  });

  it('drops what hides or turns text around from a text, keeping the joiners of emoji and scripts and the direction marks', () => {
    expect(withoutHidingCharacters(' I grow \u202Ebeans\u202C and \u2067peas\u200B\u2069\uFEFF\u2060 ')).toBe('I grow beans and peas');
    expect(withoutHidingCharacters('🧑\u200D🌾 \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645 \u200Fok\u200E.')).toBe('🧑\u200D🌾 \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645 \u200Fok\u200E.');
  });

  it('measures a length in characters of the trimmed text', () => {
    expect(storedLength(' 👍 ahoj\u200B ')).toBe(6);
  });

  it('lets a field hold as many characters as the server counts, an emoji once', () => {
    expect(fieldMaxLength('', 512)).toBe(512);
    expect(fieldMaxLength('👍'.repeat(256), 512)).toBe(768);
    expect(fieldMaxLength(' ab ', 512)).toBe(514);
    const pasted = insertWithin('', 0, 0, '😀'.repeat(300), 512);
    expect([...pasted.text]).toHaveLength(300);
    expect(pasted.caret).toBe(600);
    const full = insertWithin('ab', 1, 1, '😀'.repeat(600), 512);
    expect(storedLength(full.text)).toBe(512);
    expect(full.text.endsWith('😀b')).toBe(true);
    expect(insertWithin('x'.repeat(512), 512, 512, 'y', 512).text).toBe('x'.repeat(512));
    expect(insertWithin('hello world', 6, 11, 'there', 512)).toEqual({ text: 'hello there', caret: 11 });
  });

  it('normalises names with NFKC and trims them', () => {
    expect(normalizeName(' ＢＯＢ ')).toBe('BOB');
    expect(normalizeName('\uFB01sh')).toBe('fish');
    expect(normalizeName('𝐛𝐨𝐛')).toBe('bob');
    expect(normalizeName('Žofie')).toBe('Žofie');
  });

  it.each([
    ['bob\u0000', true],
    ['b\u0007ob', true],
    ['b\u200Bob', true],
    ['b\u200Dob', true],
    ['bob\u200E', true],
    ['\u202Ebob', true],
    ['bob\u2066', true],
    ['b\u00ADob', true],
    ['b\uFEFFob', true],
    ['b\u3164ob', true],
    ['b\u2800ob', true],
    ['b\tob', true],
    ['b\u2028ob', true],
    ['b\u00A0ob', true],
    ['b\uFE0Fob', true],
    ['bob smith', false],
    ['Žofie_99', false],
    ['日本語', false],
  ])('finds hidden characters in %j: %s', (name, hidden) => expect(hasHiddenCharacters(name)).toBe(hidden));

  it('gives look-alikes one skeleton', () => {
    const bob = skeleton('bob');
    for (const lookAlike of ['bоb' /* Cyrillic o */, 'BOB', 'ВОВ' /* Cyrillic */, 'ｂｏｂ', '𝐛𝐨𝐛', 'b\u200Bob', 'bób', ' bob ']) {
      expect(skeleton(lookAlike)).toBe(bob);
    }
    expect(skeleton('раураl')).toBe('paypal');
    expect(skeleton('bob  smith')).toBe(skeleton('bob smith'));
  });

  it('folds a capital I, a small l and a 1 together, and an O and a 0, in any case', () => {
    for (const lookAlike of ['pauI6832', 'pau16832', 'PAUL6832', 'paui6832']) expect(skeleton(lookAlike)).toBe('paul6832');
    for (const lookAlike of ['b0b', 'BOB', 'B0B']) expect(skeleton(lookAlike)).toBe('bob');
    expect(skeleton('1I0')).toBe('llo');
    for (const lookAlike of ['al|ce', 'a|ice', 'ALICE', 'a1ice']) expect(skeleton(lookAlike)).toBe(skeleton('alice'));
  });

  it('keeps different names apart', () => {
    expect(skeleton('bob')).not.toBe(skeleton('rob'));
    expect(skeleton('anna1')).not.toBe(skeleton('anna2'));
    expect(skeleton('日本')).not.toBe(skeleton('日本語'));
  });
});

describe('mentions in text', () => {
  it('splits out the @names of the mentioned users, as they are named, beside hashtags', () => {
    expect(tokenizeText('hi @Ann Lee and @bob, see #Praha', ['ann lee', 'bob'])).toEqual([
      { kind: 'text', value: 'hi ' },
      { kind: 'mention', value: '@Ann Lee', username: 'ann lee' },
      { kind: 'text', value: ' and ' },
      { kind: 'mention', value: '@bob', username: 'bob' },
      { kind: 'text', value: ', see ' },
      { kind: 'hashtag', value: '#Praha', tag: 'praha' },
    ]);
  });

  it('leaves alone names nobody mentions, longer words and addresses', () => {
    expect(tokenizeText('@carol and @bobby wrote to x@bob', ['bob'])).toEqual([{ kind: 'text', value: '@carol and @bobby wrote to x@bob' }]);
    expect(tokenizeText('@a.b (c)', ['a.b'])).toEqual([
      { kind: 'mention', value: '@a.b', username: 'a.b' },
      { kind: 'text', value: ' (c)' },
    ]);
  });

  it('takes the longest name that fits, skips blank names, and matches none when none is given', () => {
    // "ann" is listed first: only the longest-first order finds "@ann lee" whole.
    expect(tokenizeText('@ann lee waves', ['', 'ann', 'ann lee'])).toEqual([
      { kind: 'mention', value: '@ann lee', username: 'ann lee' },
      { kind: 'text', value: ' waves' },
    ]);
    expect(tokenizeText('@ann', ['ann', 'ann'])).toEqual([{ kind: 'mention', value: '@ann', username: 'ann' }]);
    expect(tokenizeText('@ waves @', [''])).toEqual([{ kind: 'text', value: '@ waves @' }]);
    expect(tokenizeText('@ann', [])).toEqual([{ kind: 'text', value: '@ann' }]);
    // Not inside a word, a tag or another mention, and not running into a longer word.
    expect(tokenizeText('a@ann #@ann &@ann @@ann @ann_x @ann2', ['ann'])).toEqual([{ kind: 'text', value: 'a@ann #@ann &@ann @@ann @ann_x @ann2' }]);
    expect(tokenizeText('(@ann) @ann.', ['ann']).filter((t) => t.kind === 'mention')).toHaveLength(2);
    // A name with characters special in patterns is matched as written.
    expect(tokenizeText('@a+b and @axb', ['a+b']).filter((t) => t.kind === 'mention')).toEqual([{ kind: 'mention', value: '@a+b', username: 'a+b' }]);
  });

  it('does not take a local name for the start of a handle on another server', () => {
    expect(tokenizeText('@bob@other.example and @bob@1.2', ['bob'])).toEqual([{ kind: 'text', value: '@bob@other.example and @bob@1.2' }]);
    expect(tokenizeText('@bob@other.example, @bob@ and @bob', ['bob', 'bob@other.example'])).toEqual([
      { kind: 'mention', value: '@bob@other.example', username: 'bob@other.example' },
      { kind: 'text', value: ', ' },
      { kind: 'mention', value: '@bob', username: 'bob' },
      { kind: 'text', value: '@ and ' },
      { kind: 'mention', value: '@bob', username: 'bob' },
    ]);
  });

  it('names the mentioned users the text holds', () => {
    expect([...mentionsInText('thanks @ANN', ['ann', 'bob'])]).toEqual(['ann']);
    expect(mentionsInText('no names', ['ann']).size).toBe(0);
  });

  it('finds the same names again with the same list, in text after text, and others with another list', () => {
    for (const text of ['@ann and @bob', '@bob then @ann, @ann', 'to @ann']) {
      const expected = ['ann', 'bob'].filter((name) => text.includes(`@${name}`));
      expect([...mentionsInText(text, ['ann', 'bob'])].sort()).toEqual(expected);
    }
    expect([...mentionsInText('@ann and @bob', ['bob'])]).toEqual(['bob']);
    expect([...mentionsInText('@ann and @bob', ['', 'bob'])]).toEqual(['bob']);
    expect(mentionsInText('@ann', ['']).size).toBe(0);
  });
});

describe('fediverse handles in text', () => {
  it('finds each @name@host once, in any case, as first written', () => {
    expect(handlesInText('@Bob@Other.example hi @bob@other.EXAMPLE, @ann_b.c-d@x-y.social.')).toEqual(['Bob@Other.example', 'ann_b.c-d@x-y.social']);
    expect(handlesInText('to (@bob@a.b.c)\n@eve@čaj.cz')).toEqual(['bob@a.b.c', 'eve@čaj.cz']);
  });

  it('keeps a port, and needs a host of two labels or more', () => {
    expect(handlesInText('@bob@127.0.0.1:8080 @ann@localhost @eve@host:12')).toEqual(['bob@127.0.0.1:8080']);
    expect(handlesInText('@bob@a.b:x')).toEqual(['bob@a.b']);
  });

  it('finds none inside a word, a tag, an address or a longer handle', () => {
    expect(handlesInText('x@bob@a.b #@bob@a.b &@bob@a.b @@bob@a.b @bob@a.b_c @bob@a.b@c.d @@a.b bob@a.b @bob@.b @bob@a.')).toEqual([]);
    expect(handlesInText('')).toEqual([]);
  });
});

describe('hashtag boundaries', () => {
  it('leaves a # followed by digits only as plain text', () => {
    expect(tokenizeText('room #101 now')).toEqual([{ kind: 'text', value: 'room #101 now' }]);
    expect(extractHashtags('room #101 now')).toEqual([]);
  });

  it('adds no empty text before a hashtag that opens the text, nor after one that closes it', () => {
    expect(tokenizeText('#a')).toEqual([{ kind: 'hashtag', value: '#a', tag: 'a' }]);
    expect(tokenizeText('#a #b')).toEqual([
      { kind: 'hashtag', value: '#a', tag: 'a' },
      { kind: 'text', value: ' ' },
      { kind: 'hashtag', value: '#b', tag: 'b' },
    ]);
    expect(tokenizeText('hi #a')).toEqual([
      { kind: 'text', value: 'hi ' },
      { kind: 'hashtag', value: '#a', tag: 'a' },
    ]);
  });

  it('keeps a text without hashtags as one run, and an empty text as none', () => {
    expect(tokenizeText('just words')).toEqual([{ kind: 'text', value: 'just words' }]);
    expect(tokenizeText('')).toEqual([]);
  });

  it('drops only a leading # from a hashtag typed in a URL', () => {
    expect(normalizeHashtag('Praha')).toBe('praha');
    expect(normalizeHashtag('C#')).toBe('c#');
    expect(normalizeHashtag('##a')).toBe('#a');
  });
});

describe('skeletons, every occurrence', () => {
  it('drops every invisible character, not only the first', () => {
    expect(skeleton('b\u200Bo\u200Bb')).toBe('bob');
    expect(skeleton('\u2060b\u00ADo\uFEFFb\u200D')).toBe('bob');
  });

  it('reads every run of whitespace as one space', () => {
    expect(skeleton('bob  the\t\tmaker\u3000\u3000now')).toBe('bob the maker now');
  });

  it('drops the marks of any script, as diacritics', () => {
    // A Thai tone mark is a combining mark that the look-alike folding keeps; the skeleton drops it.
    expect(skeleton('\u0E01\u0E48')).toBe(skeleton('\u0E01'));
  });
});

describe('names typed as @name', () => {
  it('finds each local name once, in any case, without the sentence around it', () => {
    expect(typedNamesInText('Hi @bob and @carol. (@Bob) @ann_b.c-d, @Žofie!')).toEqual(['bob', 'carol', 'ann_b.c-d', 'Žofie']);
  });

  it('leaves out handles of other servers, addresses, tags and a lone @', () => {
    expect(typedNamesInText('@eve@other.example mail bob@example.com #@x &@y @@z @ alone')).toEqual([]);
  });

  it('drops every full stop and dash that ends a sentence, and a name made only of them', () => {
    expect(typedNamesInText('see @bob... and @carol.- or @dan-.')).toEqual(['bob', 'carol', 'dan']);
    expect(typedNamesInText('wait @... what @-- now')).toEqual([]);
  });

  it('tells the tag the caret stands at the end of', () => {
    expect(typedTagAt('Hi @bo', 6)).toEqual({ sign: '@', start: 3, query: 'bo' });
    expect(typedTagAt('to &cat', 7)).toEqual({ sign: '&', start: 3, query: 'cat' });
    expect(typedTagAt('@', 1)).toEqual({ sign: '@', start: 0, query: '' });
    expect(typedTagAt('Hi @bob there', 13)).toBeNull();
    expect(typedTagAt('Hi @bob there', 7)).toEqual({ sign: '@', start: 3, query: 'bob' });
    expect(typedTagAt('mail bob@ex', 11)).toBeNull();
  });
});

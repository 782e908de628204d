import cs from 'naughty-words/cs.json' with { type: 'json' };
import de from 'naughty-words/de.json' with { type: 'json' };
import en from 'naughty-words/en.json' with { type: 'json' };
import es from 'naughty-words/es.json' with { type: 'json' };
import fr from 'naughty-words/fr.json' with { type: 'json' };
import it from 'naughty-words/it.json' with { type: 'json' };
import pl from 'naughty-words/pl.json' with { type: 'json' };
import { plainLetters } from './text.js';

/**
 * Profanity check: a large built-in list (LDNOOBW via naughty-words: English, Czech and more),
 * whole words, case-insensitive. Text and list are both compared as their plain letters, so
 * diacritics ("curak" matches "čurák"), full-width or styled letters, letters of other scripts that
 * look Latin (a Cyrillic "о") and invisible characters inside a word ("f\u200Buck", a soft hyphen)
 * hide nothing. Latin letters that look alike (I and l) are not folded together as they are for
 * names, since that would read real names as swear words ("Cui" as "cul"). Phrases are matched as
 * whole word sequences.
 */
const LISTS: readonly string[][] = [en, cs, de, fr, es, it, pl];

const words = (s: string): string[] => plainLetters(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

const single = new Set<string>();
const phrases: string[][] = [];
for (const list of LISTS) {
  for (const entry of list) {
    const parts = words(entry);
    if (parts.length === 1) single.add(parts[0]!);
    else if (parts.length > 1) phrases.push(parts);
  }
}

export function containsProfanity(text: string): boolean {
  // Usernames like "bad_word99" hide words behind separators and digits.
  const tokens = words(text.replace(/\d+/g, ' '));
  if (tokens.some((t) => single.has(t))) return true;
  const joined = ` ${tokens.join(' ')} `;
  return phrases.some((p) => joined.includes(` ${p.join(' ')} `));
}

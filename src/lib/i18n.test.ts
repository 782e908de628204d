import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_KEYS, INFO_KEYS } from '#core/errors';
import { createI18n, formatRelativeTime, LANGUAGES, translateMessage } from './i18n';

const LOCALES = join(process.cwd(), 'locales');
const PLURAL = /_(zero|one|two|few|many|other)$/;

function read(lng: string, ns: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(LOCALES, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;
}

/** Flattened keys: nested objects joined with dots. */
function keysOf(catalogue: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    value && typeof value === 'object' ? keysOf(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

const namespaces = (lng: string) =>
  readdirSync(join(LOCALES, lng))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

describe('locale catalogues', () => {
  it('offer the same namespaces in every language', () => {
    for (const lng of LANGUAGES) expect(namespaces(lng)).toEqual(namespaces('en'));
  });

  it.each(LANGUAGES)('translate every error and info key of the catalogue in %s', (lng) => {
    const errors = read(lng, 'error');
    const info = read(lng, 'info');
    for (const key of ERROR_KEYS) expect(typeof errors[key], `error/${key} in ${lng}`).toBe('string');
    for (const key of INFO_KEYS) expect(typeof info[key], `info/${key} in ${lng}`).toBe('string');
    for (const key of [...Object.keys(errors)]) expect(ERROR_KEYS as readonly string[]).toContain(key);
    for (const key of [...Object.keys(info)]) expect(INFO_KEYS as readonly string[]).toContain(key);
  });

  it.each(namespaces('en'))('namespace %s has the same keys in en and cs (plurals per language)', (ns) => {
    const base = (lng: string) => [...new Set(keysOf(read(lng, ns)).map((k) => k.replace(PLURAL, '')))].sort();
    expect(base('cs')).toEqual(base('en'));
    for (const lng of LANGUAGES) {
      const keys = keysOf(read(lng, ns));
      // i18next reads `x_other` as a plural form of `x`: a bare key beside it would be shadowed or confused.
      const clashes = keys.filter((k) => PLURAL.test(k) && keys.includes(k.replace(PLURAL, '')));
      expect(clashes, `${ns} in ${lng}: bare keys with plural-looking siblings`).toEqual([]);
      const plurals = new Set(keys.filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
      // Every plural key carries each integer form the language needs (Czech: one, few, other).
      const needed = new Intl.PluralRules(lng).resolvedOptions().pluralCategories.filter((c) => c !== 'many');
      for (const key of plurals) {
        for (const form of needed) expect(keys, `${ns}:${key}_${form} in ${lng}`).toContain(`${key}_${form}`);
      }
    }
  });

  it('has no empty texts', () => {
    for (const lng of LANGUAGES) {
      for (const ns of namespaces(lng)) {
        const catalogue = read(lng, ns);
        for (const key of keysOf(catalogue)) {
          const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
          expect(typeof value === 'string' && value.trim() !== '', `${lng}/${ns}:${key}`).toBe(true);
        }
      }
    }
  });
});

describe('translateMessage', () => {
  it('looks error/ and info/ messages up in their namespaces', () => {
    const en = createI18n({ lng: 'en' });
    expect(translateMessage(en.t, 'error/passwords_dont_match')).toBe("Passwords don't match.");
    expect(translateMessage(en.t, 'info/signup_email')).toMatch(/verify/);
    const cs = createI18n({ lng: 'cs' });
    expect(translateMessage(cs.t, 'error/passwords_dont_match')).toBe('Hesla se neshodují.');
  });

  it('shows an unknown message as it came rather than nothing', () => {
    const en = createI18n({ lng: 'en' });
    expect(translateMessage(en.t, 'error/not_a_key')).toBe('error/not_a_key');
  });

  it('looks plain keys up in the default namespace', () => {
    const en = createI18n({ lng: 'en' });
    expect(translateMessage(en.t, 'nav.feed')).toBe('Feed');
  });
});

describe('dates and relative time', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  const ago = (ms: number) => now - ms;
  const MIN = 60_000;
  const DAY = 24 * 60 * MIN;

  it('uses the units with English plurals', () => {
    const { t } = createI18n({ lng: 'en' });
    expect(formatRelativeTime(t, ago(10_000), now)).toBe('1 minute ago');
    expect(formatRelativeTime(t, ago(5 * MIN), now)).toBe('5 minutes ago');
    expect(formatRelativeTime(t, ago(3 * 60 * MIN), now)).toBe('3 hours ago');
    expect(formatRelativeTime(t, ago(DAY), now)).toBe('1 day ago');
    expect(formatRelativeTime(t, ago(14 * DAY), now)).toBe('2 weeks ago');
    expect(formatRelativeTime(t, ago(90 * DAY), now)).toBe('3 months ago');
    expect(formatRelativeTime(t, ago(800 * DAY), now)).toBe('2 years ago');
  });

  it('uses Czech plural forms (one, few, other)', () => {
    const { t } = createI18n({ lng: 'cs' });
    expect(formatRelativeTime(t, ago(MIN), now)).toBe('před 1 minutou');
    expect(formatRelativeTime(t, ago(3 * MIN), now)).toBe('před 3 minutami');
    expect(formatRelativeTime(t, ago(2 * DAY), now)).toBe('před 2 dny');
    expect(formatRelativeTime(t, ago(5 * DAY), now)).toBe('před 5 dny');
    expect(formatRelativeTime(t, ago(400 * DAY), now)).toBe('před 1 rokem');
    expect(formatRelativeTime(t, ago(5 * 365 * DAY), now)).toBe('před 5 lety');
  });
});

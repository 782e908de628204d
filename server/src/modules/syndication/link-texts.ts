import cs from '../../../../locales/cs/links.json' with { type: 'json' };
import en from '../../../../locales/en/links.json' with { type: 'json' };

/**
 * The words the server puts in what it shows outside the app (feeds, link previews), from the web
 * app's catalogue (locales/<lng>/links.json), in the language the visitor's browser prefers.
 */

export type LinkLanguage = 'en' | 'cs';
const CATALOGUES: Record<LinkLanguage, Record<string, string>> = { en, cs };
/** A key of the catalogue, a plural's without its `_one`/`_other` ending. */
type Key = { [K in keyof typeof en]: K extends `${infer Base}_${'one' | 'other'}` ? Base : K }[keyof typeof en];

/** The first of our languages the Accept-Language header asks for, by its weights; English otherwise. */
export function preferredLanguage(header: string | undefined): LinkLanguage {
  const asked = (header ?? '')
    .split(',')
    .map((entry, order) => {
      const [tag = '', ...rest] = entry.trim().split(';');
      const q = Number(rest.find((param) => param.trim().startsWith('q='))?.trim().slice(2) ?? 1);
      return { primary: tag.toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  const found = asked.find((entry): entry is typeof entry & { primary: LinkLanguage } => entry.primary in CATALOGUES);
  return found?.primary ?? 'en';
}

/** The text of `key` with `{{name}}` filled in; a `count` picks the plural form as the language has it. */
export function linkText(language: LinkLanguage, key: Key, values: Readonly<Record<string, string | number>> = {}): string {
  const catalogue = CATALOGUES[language];
  const plural = typeof values.count === 'number' ? `${key}_${new Intl.PluralRules(language).select(values.count)}` : null;
  const template = (plural && catalogue[plural]) ?? (plural && catalogue[`${key}_other`]) ?? catalogue[key] ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => String(values[name] ?? ''));
}

import { LANGUAGES, provideLanguage } from '../lib/i18n';
import { byNamespace } from '../lib/locales/namespaces';

const files = import.meta.glob<Record<string, unknown>>('/locales/*/*.json', { eager: true, import: 'default' });

/** Every language at hand from the start, so a test's i18n instance translates at once. */
export function provideAllLanguages(): void {
  for (const lng of LANGUAGES) {
    const own = Object.fromEntries(Object.entries(files).filter(([path]) => path.startsWith(`/locales/${lng}/`)));
    provideLanguage(lng, byNamespace(own));
  }
}

import i18next, { type TFunction, type i18n as I18n } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { relativeTime } from '#core/time';

/** English and Czech; English is the fallback. */
export const LANGUAGES = ['en', 'cs'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_NAMESPACE = 'common';

type Catalogue = Record<string, unknown>;

// Bundled at build time, so every text is there offline without a network round trip.
const files = import.meta.glob<Catalogue>('/locales/*/*.json', { eager: true, import: 'default' });

/** { en: { common: {...}, error: {...} }, cs: {...} } from locales/<lng>/<ns>.json. */
export function bundledResources(): Record<string, Record<string, Catalogue>> {
  const resources: Record<string, Record<string, Catalogue>> = {};
  for (const [path, catalogue] of Object.entries(files)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, lng, ns] = match as unknown as [string, string, string];
    (resources[lng] ??= {})[ns] = catalogue;
  }
  return resources;
}

/**
 * Language from the query string (lng), the stored choice, the browser, then the page, in that
 * order. Tests pass `lng` to pin it.
 */
export function createI18n(options: { lng?: string } = {}): I18n {
  const instance = i18next.createInstance();
  const resources = bundledResources();
  if (!options.lng) instance.use(LanguageDetector);
  void instance.use(initReactI18next).init({
    resources,
    ...(options.lng ? { lng: options.lng } : {}),
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    ns: Object.keys(resources.en ?? {}),
    defaultNS: DEFAULT_NAMESPACE,
    fallbackNS: DEFAULT_NAMESPACE,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    detection: {
      order: ['querystring', 'localStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupLocalStorage: 'lng',
      caches: ['localStorage'],
    },
  });
  instance.on('languageChanged', (lng) => {
    if (typeof document !== 'undefined') document.documentElement.lang = lng;
  });
  if (typeof document !== 'undefined' && instance.language) document.documentElement.lang = instance.language;
  return instance;
}

let appInstance: I18n | undefined;

/** The app's one instance, created on first use. */
export function getI18n(): I18n {
  appInstance ??= createI18n();
  return appInstance;
}

/** The current language reduced to a supported one. */
export function currentLanguage(i18n: I18n): Language {
  const lng = (i18n.resolvedLanguage ?? i18n.language ?? 'en').slice(0, 2);
  return (LANGUAGES as readonly string[]).includes(lng) ? (lng as Language) : 'en';
}

/**
 * Server and client messages are `error/<key>` or `info/<key>`: namespace error or info,
 * key after the slash. Anything else is looked up as a plain key of the default namespace.
 */
export function translateMessage(t: TFunction, message: string, values?: Record<string, unknown>): string {
  const match = /^(error|info)\/(.+)$/.exec(message);
  if (match) {
    const [, ns, key] = match as unknown as [string, string, string];
    return t(key, { ns, defaultValue: message, ...values });
  }
  return t(message, { defaultValue: message, ...values });
}

/** "November 2026" / "listopad 2026": the long month and year. */
export function formatMonthYear(time: number | Date, lng: string): string {
  const date = typeof time === 'number' ? new Date(time) : time;
  return new Intl.DateTimeFormat(lng, { month: 'long', year: 'numeric' }).format(date);
}

/** "5 minutes ago" with the plural rules of the current language. */
export function formatRelativeTime(t: TFunction, then: number, now: number = Date.now()): string {
  const { unit, value } = relativeTime(then, now);
  return t(`time.${unit}`, { ns: 'common', count: value });
}

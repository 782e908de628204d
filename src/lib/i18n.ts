import i18next, { type i18n as I18n, type Namespace, type TFunction } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { parseErrorMessage, parseInfoMessage } from '#core/errors';
import { relativeTime } from '#core/time';

/** English and Czech; English is the fallback. */
export const LANGUAGES = ['en', 'cs'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_NAMESPACE = 'common';

type Catalogue = Record<string, unknown>;
/** A language's catalogues by namespace: { common: {...}, error: {...} }. */
export type LanguageResources = Record<string, Catalogue>;

// One chunk per language, fetched when it is first used: a visitor downloads their own language
// only, and the service worker precaches both, so either is there offline.
const loaders: Record<Language, () => Promise<{ default: LanguageResources }>> = {
  en: () => import('./locales/en'),
  cs: () => import('./locales/cs'),
};
const loaded: Partial<Record<Language, LanguageResources>> = {};

/** A language tag reduced to a supported language (English otherwise). */
export function supportedLanguage(lng: string | undefined): Language {
  const short = (lng ?? 'en').slice(0, 2);
  return (LANGUAGES as readonly string[]).includes(short) ? (short as Language) : 'en';
}

/** Fetches a language's texts (once) and adds them to `instance` when given. */
export async function loadLanguage(lng: string | undefined, instance?: I18n): Promise<Language> {
  const language = supportedLanguage(lng);
  loaded[language] ??= (await loaders[language]()).default;
  if (instance) addLanguage(instance, language, loaded[language]);
  return language;
}

/** Texts already at hand (tests give every language this way, so an instance is ready at once). */
export function provideLanguage(lng: Language, resources: LanguageResources): void {
  loaded[lng] = resources;
}

function addLanguage(instance: I18n, lng: Language, resources: LanguageResources): void {
  for (const [ns, catalogue] of Object.entries(resources)) {
    if (!instance.hasResourceBundle(lng, ns)) instance.addResourceBundle(lng, ns, catalogue, true, true);
  }
}

/**
 * Language from the query string (lng), the stored choice, the browser, then the page, in that
 * order. Tests pass `lng` to pin it. Texts of languages already loaded are there at once; another
 * language chosen later is fetched, and screens redraw when its texts arrive.
 */
export function createI18n(options: { lng?: string } = {}): I18n {
  const instance = i18next.createInstance();
  const resources: Record<string, LanguageResources> = { ...loaded };
  if (!options.lng) instance.use(LanguageDetector);
  void instance.use(initReactI18next).init({
    resources,
    ...(options.lng ? { lng: options.lng } : {}),
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    ns: [DEFAULT_NAMESPACE],
    defaultNS: DEFAULT_NAMESPACE,
    fallbackNS: DEFAULT_NAMESPACE,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    // Texts added later (a language fetched after a switch) redraw the screens that use them.
    react: { bindI18nStore: 'added' },
    detection: {
      order: ['querystring', 'localStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupLocalStorage: 'lng',
      caches: ['localStorage'],
    },
  });
  instance.on('languageChanged', (lng) => {
    if (typeof document !== 'undefined') document.documentElement.lang = lng;
    void loadLanguage(lng, instance).catch((err: unknown) => console.warn('language', err));
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

/**
 * Switches to `lng` with its texts already there: a language changed to before its texts arrive
 * stays resolved to the fallback, so the choice, the dates and whatever asks for the current
 * language would keep the old one until a reload.
 */
export async function switchLanguage(instance: I18n, lng: Language): Promise<void> {
  await loadLanguage(lng, instance);
  await instance.changeLanguage(lng);
}

/** The current language reduced to a supported one. */
export function currentLanguage(i18n: I18n): Language {
  return supportedLanguage(i18n.resolvedLanguage ?? i18n.language);
}

/**
 * A `t` of whichever namespace a screen works in, for helpers shared by screens. Such a helper
 * cannot know the screen's namespace, so it names the namespace of every key it looks up
 * (`{ ns: 'error' }`); the key is then checked against that namespace's catalogue.
 */
export type AnyNamespaceT = TFunction<Namespace>;

/**
 * Server and client messages are `error/<key>` or `info/<key>`: namespace error or info, key after
 * the slash, known to `core/errors.ts`, so each key of that list must have its text (a type error
 * otherwise). Anything else is a key of the screens' catalogues, written with its namespace
 * (`post:share_copied`); a message nobody knows is shown as it came rather than as nothing.
 */
export function translateMessage(t: AnyNamespaceT, message: string, values?: Record<string, unknown>): string {
  const error = parseErrorMessage(message);
  if (error) return t(error, { ns: 'error', ...values });
  const info = parseInfoMessage(message);
  if (info) return t(info, { ns: 'info', ...values });
  return t(message, { defaultValue: message, ...values });
}

/** "5 minutes ago" with the plural rules of the current language. */
export function formatRelativeTime(t: AnyNamespaceT, then: number, now: number = Date.now()): string {
  const { unit, value } = relativeTime(then, now);
  return t(`time.${unit}`, { ns: 'common', count: value });
}

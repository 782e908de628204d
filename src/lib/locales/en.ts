import { byNamespace } from './namespaces';

/** Every text of the app in English, one chunk fetched when the language is first used. */
export default byNamespace(import.meta.glob<Record<string, unknown>>('/locales/en/*.json', { eager: true, import: 'default' }));

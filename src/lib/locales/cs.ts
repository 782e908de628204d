import { byNamespace } from './namespaces';

/** Every text of the app in Czech, one chunk fetched when the language is first used. */
export default byNamespace(import.meta.glob<Record<string, unknown>>('/locales/cs/*.json', { eager: true, import: 'default' }));

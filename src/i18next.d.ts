import 'i18next';
import type { Resources } from './lib/locales/resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    fallbackNS: 'common';
    returnNull: false;
    resources: Resources;
  }
}

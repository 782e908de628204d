import { describeAccessibility } from './support/accessibility';

/** The screens a visitor who is not logged in reaches, checked by axe (see accessibility.test.ts). */
describeAccessibility('accessibility of every screen, logged out', [
  { name: 'desktop, English, logged out', viewport: 'desktop', language: 'en', loggedIn: false },
  { name: 'phone, Czech, logged out', viewport: 'phone', language: 'cs', loggedIn: false },
]);

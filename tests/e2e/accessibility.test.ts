import { describeAccessibility } from './support/accessibility';

/**
 * Every screen, checked by axe in a real browser, in both viewports, both languages and both
 * themes, logged in and out. Each dimension is covered at least once without running every
 * combination: every screen is checked in the dark theme once (the logged-in desktop pass in
 * Czech) and in the light theme three times. The logged-out passes are in
 * accessibility-visitor.test.ts.
 */
describeAccessibility('accessibility of every screen, logged in', [
  { name: 'phone, English, logged in', viewport: 'phone', language: 'en', loggedIn: true },
  { name: 'desktop, Czech, logged in, dark', viewport: 'desktop', language: 'cs', loggedIn: true, dark: true },
]);

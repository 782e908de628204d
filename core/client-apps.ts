
/**
 * Apps of the client API (the protocol fediverse apps speak): the permissions an app may ask for,
 * and what a registration must look like. Shared with the web app, whose consent screen names the
 * same scopes.
 */

/** The address an app gives when it shows the code for the user to copy instead of being redirected. */
export const OUT_OF_BAND_REDIRECT = 'urn:ietf:wg:oauth:2.0:oob';

/** The top scopes; each grants all of its own sub-scopes. */
export const TOP_SCOPES = ['read', 'write', 'follow', 'push', 'profile'] as const;

const READ_SCOPES = [
  'accounts', 'blocks', 'bookmarks', 'favourites', 'filters', 'follows', 'lists', 'mutes', 'notifications', 'search', 'statuses',
] as const;
const WRITE_SCOPES = [
  'accounts', 'blocks', 'bookmarks', 'conversations', 'favourites', 'filters', 'follows', 'lists', 'media', 'mutes',
  'notifications', 'reports', 'statuses',
] as const;

/** Every scope an app may ask for: the top ones and their sub-scopes (`read:statuses`...). */
export const CLIENT_SCOPES: readonly string[] = [
  ...TOP_SCOPES,
  ...READ_SCOPES.map((scope) => `read:${scope}`),
  ...WRITE_SCOPES.map((scope) => `write:${scope}`),
];

/** What an app is granted when it names no scope. */
export const DEFAULT_SCOPES = ['read'] as const;

export const CLIENT_APP_LIMITS = {
  nameMax: 100,
  websiteMax: 2000,
  redirectUriMax: 2000,
  redirectUrisMax: 10,
} as const;

/** Scopes as apps send them: one string split on spaces (or plus signs, as some form encoders leave them). */
export const parseScopes = (scopes: string | undefined): string[] => [...new Set((scopes ?? '').split(/[\s+]/u).filter(Boolean))];

/** Redirect addresses as apps send them: a list, or one string with one address a line. */
export const parseRedirectUris = (uris: string | readonly string[] | undefined): string[] =>
  (typeof uris === 'string' ? uris.split(/\s/u) : (uris ?? [])).map((uri) => uri.trim()).filter(Boolean);

/**
 * An absolute URL of any scheme (apps come back through their own, `myapp://`), without a fragment;
 * the out-of-band address is one (`urn:`).
 */
function isRedirectUri(uri: string): boolean {
  if (uri.length > CLIENT_APP_LIMITS.redirectUriMax || !URL.canParse(uri)) return false;
  const url = new URL(uri);
  return url.hash === '' && !['javascript:', 'data:', 'file:'].includes(url.protocol);
}

const isWebAddress = (uri: string) =>
  uri.length <= CLIENT_APP_LIMITS.websiteMax && URL.canParse(uri) && ['http:', 'https:'].includes(new URL(uri).protocol);

export interface ClientAppInput {
  name: string;
  redirectUris: string[];
  scopes: string[];
  website: string | null;
}

export type ClientAppRefusal = 'invalid_app_name' | 'invalid_redirect_uri' | 'invalid_scope' | 'invalid_app_website';

/** The first broken rule of a registration already parsed, as a catalogue key, or null. */
export function validateClientApp(app: ClientAppInput): ClientAppRefusal | null {
  const name = app.name.trim();
  if (name === '' || [...name].length > CLIENT_APP_LIMITS.nameMax) return 'invalid_app_name';
  if (app.redirectUris.length === 0 || app.redirectUris.length > CLIENT_APP_LIMITS.redirectUrisMax) return 'invalid_redirect_uri';
  if (!app.redirectUris.every(isRedirectUri)) return 'invalid_redirect_uri';
  if (!app.scopes.every((scope) => CLIENT_SCOPES.includes(scope))) return 'invalid_scope';
  if (app.website !== null && !isWebAddress(app.website)) return 'invalid_app_website';
  return null;
}

/**
 * The sub-scopes the old `follow` scope stands for: apps registered before the finer scopes still
 * name it to manage follows, blocks and mutes.
 */
const FOLLOW_GRANTS: readonly string[] = ['read:follows', 'write:follows', 'read:blocks', 'write:blocks', 'read:mutes', 'write:mutes'];

/**
 * Whether scopes granted to an app cover `needed`: the scope itself, its top scope (`read` covers
 * `read:statuses`), `follow` for what it stood for, and for `profile` (the signed-in account only)
 * any scope that reads accounts.
 */
export function grantsScope(granted: readonly string[], needed: string): boolean {
  // A scope with no colon is its own top scope.
  const top = needed.split(':')[0] ?? needed;
  if (granted.includes(needed) || granted.includes(top)) return true;
  if (FOLLOW_GRANTS.includes(needed) && granted.includes('follow')) return true;
  return needed === 'profile' && (granted.includes('read') || granted.includes('read:accounts'));
}

/** Whether every scope asked for is one the app registered with (or covered by one of them). */
export const scopesWithin = (asked: readonly string[], registered: readonly string[]): boolean =>
  asked.every((scope) => CLIENT_SCOPES.includes(scope) && grantsScope(registered, scope));

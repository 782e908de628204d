import { describe, expect, it } from 'vitest';
import {
  CLIENT_APP_LIMITS,
  CLIENT_SCOPES,
  type ClientAppInput,
  DEFAULT_SCOPES,
  OUT_OF_BAND_REDIRECT,
  TOP_SCOPES,
  grantsScope,
  parseRedirectUris,
  parseScopes,
  scopesWithin,
  validateClientApp,
} from './client-apps';

const app = (change: Partial<ClientAppInput> = {}): ClientAppInput => ({
  name: 'Pocket Kruh',
  redirectUris: ['https://app.example/callback'],
  scopes: ['read'],
  website: null,
  ...change,
});

describe('client app scopes', () => {
  it('offers the top scopes and each read and write sub-scope an app may name', () => {
    expect(OUT_OF_BAND_REDIRECT).toBe('urn:ietf:wg:oauth:2.0:oob');
    expect(TOP_SCOPES).toEqual(['read', 'write', 'follow', 'push', 'profile']);
    expect(DEFAULT_SCOPES).toEqual(['read']);
    expect(CLIENT_SCOPES).toEqual([
      'read', 'write', 'follow', 'push', 'profile',
      'read:accounts', 'read:blocks', 'read:bookmarks', 'read:favourites', 'read:filters', 'read:follows', 'read:lists',
      'read:mutes', 'read:notifications', 'read:search', 'read:statuses',
      'write:accounts', 'write:blocks', 'write:bookmarks', 'write:conversations', 'write:favourites', 'write:filters',
      'write:follows', 'write:lists', 'write:media', 'write:mutes', 'write:notifications', 'write:reports', 'write:statuses',
    ]);
    expect(CLIENT_APP_LIMITS).toEqual({ nameMax: 100, websiteMax: 2000, redirectUriMax: 2000, redirectUrisMax: 10 });
  });

  it('reads scopes split on spaces or plus signs, each once, and none from nothing', () => {
    expect(parseScopes('read write:statuses  follow')).toEqual(['read', 'write:statuses', 'follow']);
    expect(parseScopes('read+write\tread\npush')).toEqual(['read', 'write', 'push']);
    expect(parseScopes(' read ')).toEqual(['read']);
    expect(parseScopes('')).toEqual([]);
    expect(parseScopes(undefined)).toEqual([]);
  });

  it('reads redirect addresses from a list or from one string, trimmed, dropping blanks', () => {
    expect(parseRedirectUris('https://a.example/cb\nmyapp://back  https://b.example/cb')).toEqual(['https://a.example/cb', 'myapp://back', 'https://b.example/cb']);
    expect(parseRedirectUris([' https://a.example/cb ', '', '  '])).toEqual(['https://a.example/cb']);
    expect(parseRedirectUris(undefined)).toEqual([]);
    expect(parseRedirectUris('')).toEqual([]);
  });
});

describe('a client app registration', () => {
  it('takes a name, redirect addresses of any scheme or out of band, known scopes and a web site', () => {
    expect(validateClientApp(app())).toBeNull();
    expect(validateClientApp(app({ redirectUris: [OUT_OF_BAND_REDIRECT, 'myapp://oauth', 'https://a.example/cb?x=1'] }))).toBeNull();
    expect(validateClientApp(app({ scopes: [...CLIENT_SCOPES] }))).toBeNull();
    expect(validateClientApp(app({ scopes: [] }))).toBeNull();
    expect(validateClientApp(app({ website: 'https://app.example' }))).toBeNull();
    expect(validateClientApp(app({ website: 'http://app.example' }))).toBeNull();
  });

  it('needs a name that shows something, of at most 100 characters (an emoji counts once)', () => {
    expect(validateClientApp(app({ name: '' }))).toBe('invalid_app_name');
    expect(validateClientApp(app({ name: '   ' }))).toBe('invalid_app_name');
    expect(validateClientApp(app({ name: 'a'.repeat(100) }))).toBeNull();
    expect(validateClientApp(app({ name: 'a'.repeat(101) }))).toBe('invalid_app_name');
    expect(validateClientApp(app({ name: '😀'.repeat(100) }))).toBeNull();
    expect(validateClientApp(app({ name: ` ${'a'.repeat(100)} ` }))).toBeNull();
  });

  it('needs one to ten redirect addresses, each absolute, without a fragment, of a safe scheme, within 2000 characters', () => {
    expect(validateClientApp(app({ redirectUris: [] }))).toBe('invalid_redirect_uri');
    const many = (n: number) => Array.from({ length: n }, (_, i) => `https://a.example/cb${i}`);
    expect(validateClientApp(app({ redirectUris: many(10) }))).toBeNull();
    expect(validateClientApp(app({ redirectUris: many(11) }))).toBe('invalid_redirect_uri');
    for (const uri of ['/callback', 'not a url', 'https://a.example/cb#here', 'javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd']) {
      expect(validateClientApp(app({ redirectUris: ['https://a.example/cb', uri] })), uri).toBe('invalid_redirect_uri');
    }
    const base = 'https://a.example/';
    expect(validateClientApp(app({ redirectUris: [base + 'x'.repeat(2000 - base.length)] }))).toBeNull();
    expect(validateClientApp(app({ redirectUris: [base + 'x'.repeat(2001 - base.length)] }))).toBe('invalid_redirect_uri');
  });

  it('refuses a scope it does not know', () => {
    expect(validateClientApp(app({ scopes: ['read', 'admin:read'] }))).toBe('invalid_scope');
    expect(validateClientApp(app({ scopes: ['read:everything'] }))).toBe('invalid_scope');
  });

  it('takes a web site only as an http or https address within 2000 characters', () => {
    for (const website of ['', 'app.example', 'ftp://app.example', 'myapp://home']) {
      expect(validateClientApp(app({ website })), website).toBe('invalid_app_website');
    }
    const base = 'https://app.example/';
    expect(validateClientApp(app({ website: base + 'x'.repeat(2000 - base.length) }))).toBeNull();
    expect(validateClientApp(app({ website: base + 'x'.repeat(2001 - base.length) }))).toBe('invalid_app_website');
  });

  it('tells the first broken rule: name, then addresses, then scopes, then web site', () => {
    const broken = { name: '', redirectUris: [], scopes: ['nope'], website: 'nope' };
    expect(validateClientApp(broken)).toBe('invalid_app_name');
    expect(validateClientApp({ ...broken, name: 'ok' })).toBe('invalid_redirect_uri');
    expect(validateClientApp({ ...broken, name: 'ok', redirectUris: ['myapp://x'] })).toBe('invalid_scope');
    expect(validateClientApp({ ...broken, name: 'ok', redirectUris: ['myapp://x'], scopes: ['read'] })).toBe('invalid_app_website');
  });
});

describe('what granted scopes cover', () => {
  it('covers a scope by itself and a sub-scope by its top scope, never the other way', () => {
    expect(grantsScope(['read:statuses'], 'read:statuses')).toBe(true);
    expect(grantsScope(['read'], 'read:statuses')).toBe(true);
    expect(grantsScope(['read:statuses'], 'read')).toBe(false);
    expect(grantsScope(['read'], 'write:statuses')).toBe(false);
    expect(grantsScope(['write'], 'write')).toBe(true);
    expect(grantsScope([], 'read')).toBe(false);
    // A name that merely starts like a top scope is not under it.
    expect(grantsScope(['read'], 'readx')).toBe(false);
  });

  it('lets follow stand for the follows, blocks and mutes it once covered', () => {
    for (const scope of ['read:follows', 'write:follows', 'read:blocks', 'write:blocks', 'read:mutes', 'write:mutes']) {
      expect(grantsScope(['follow'], scope)).toBe(true);
    }
    expect(grantsScope(['follow'], 'read:statuses')).toBe(false);
    expect(grantsScope(['follow'], 'write:statuses')).toBe(false);
  });

  it('covers profile by profile, read or read:accounts only', () => {
    expect(grantsScope(['profile'], 'profile')).toBe(true);
    expect(grantsScope(['read'], 'profile')).toBe(true);
    expect(grantsScope(['read:accounts'], 'profile')).toBe(true);
    expect(grantsScope(['read:statuses', 'write'], 'profile')).toBe(false);
    expect(grantsScope(['profile'], 'read:accounts')).toBe(false);
  });

  it('keeps what an app asks for within what it registered, known scopes only', () => {
    expect(scopesWithin(['read:statuses', 'write'], ['read', 'write'])).toBe(true);
    expect(scopesWithin([], ['read'])).toBe(true);
    expect(scopesWithin(['read', 'write'], ['read'])).toBe(false);
    expect(scopesWithin(['read'], ['read:statuses'])).toBe(false);
    expect(scopesWithin(['admin:read'], ['read', 'admin:read'])).toBe(false);
    expect(scopesWithin(['read:follows'], ['follow'])).toBe(true);
  });
});

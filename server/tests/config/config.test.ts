import { afterEach, describe, expect, it } from 'vitest';
import { COUNTS_STALE_MS, ConfigError, FEDERATION_FETCH_TIMEOUT_MS, FEDERATION_LOOKUP_TIMEOUT_MS, STREAM_DEFAULTS, loadConfig, parseMediaUrl } from '../../src/config';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('GET /api/config', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers nulls and false when Google and Tenor are not configured', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ googleClientId: null, tenorEnabled: false, mediaUrl: null, federation: false });
  });

  it('answers the Google client id and that GIFs are on, never the Tenor key', async () => {
    t = await createTestApp({ GOOGLE_CLIENT_ID: 'client-123.apps.googleusercontent.com', TENOR_KEY: 'secret-key' });
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ googleClientId: 'client-123.apps.googleusercontent.com', tenorEnabled: true, mediaUrl: null, federation: false });
    expect(res.body).not.toContain('secret-key');
  });
});

describe('MEDIA_URL, the content host of media', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const cspOf = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);
  const directive = (csp: string, name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';

  it('is checked at start: an absolute http(s) URL without a query, kept without its trailing slash', () => {
    expect(parseMediaUrl(undefined)).toEqual({ url: undefined });
    expect(parseMediaUrl('')).toEqual({ url: undefined });
    expect(parseMediaUrl('https://media.example.com')).toEqual({ url: 'https://media.example.com' });
    expect(parseMediaUrl('https://media.example.com/')).toEqual({ url: 'https://media.example.com' });
    expect(parseMediaUrl('http://cdn.example.com:8080/kruh/')).toEqual({ url: 'http://cdn.example.com:8080/kruh' });
    for (const bad of ['media.example.com', '/media', 'ftp://media.example.com', 'javascript:alert(1)', 'https://media.example.com/?a=1', 'https://media.example.com/#x', 'https://user:pw@media.example.com', 'not a url']) {
      expect(parseMediaUrl(bad)).toEqual({ problem: expect.stringContaining('MEDIA_URL') });
    }
    expect(() => loadConfig({ MEDIA_URL: 'media.example.com', JWT_SECRET: 'x'.repeat(32) })).toThrow(ConfigError);
    expect(() => loadConfig({ MEDIA_URL: 'media.example.com', JWT_SECRET: 'x'.repeat(32) })).toThrow(/MEDIA_URL must be an absolute http/);
    expect(loadConfig({ MEDIA_URL: 'https://media.example.com/', JWT_SECRET: 'x'.repeat(32) }).mediaUrl).toBe('https://media.example.com');
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32) }).mediaUrl).toBeUndefined();
  });

  it('unset: the config answers mediaUrl null, the CSP admits no other image host, /media keeps its same-origin policy', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({ googleClientId: null, tenorEnabled: false, mediaUrl: null, federation: false });
    const csp = cspOf(res);
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: blob: https://media.tenor.com https://*.googleusercontent.com");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://accounts.google.com/gsi/");
    const media = await t.app.inject({ method: 'GET', url: '/media/pfp/default.jpeg' });
    expect(media.statusCode).toBe(200);
    expect(media.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(media.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('set: the config tells the web app, the CSP admits its origin for images and the service worker, /media may be read from it', async () => {
    t = await createTestApp({ MEDIA_URL: 'https://media.example.com/kruh/' });
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({ googleClientId: null, tenorEnabled: false, mediaUrl: 'https://media.example.com/kruh', federation: false });
    const csp = cspOf(res);
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: blob: https://media.tenor.com https://*.googleusercontent.com https://media.example.com");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://accounts.google.com/gsi/ https://media.example.com");
    expect(directive(csp, 'script-src')).not.toContain('media.example.com');
    const media = await t.app.inject({ method: 'GET', url: '/media/pfp/default.jpeg' });
    expect(media.statusCode).toBe(200);
    expect(media.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(media.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('VISITOR_CACHE_MS and VISITOR_CACHE_COUNTS_MS, how long kept visitor pages last', () => {
  const load = (env: Record<string, string>) => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env });

  it('default to ten seconds and to COUNTS_STALE_MS, and take any whole number of milliseconds, 0 included', () => {
    expect(load({})).toMatchObject({ visitorCacheMs: 10_000, visitorCacheCountsMs: COUNTS_STALE_MS });
    expect(load({ VISITOR_CACHE_MS: '0', VISITOR_CACHE_COUNTS_MS: '0' })).toMatchObject({ visitorCacheMs: 0, visitorCacheCountsMs: 0 });
    expect(load({ VISITOR_CACHE_COUNTS_MS: '250' }).visitorCacheCountsMs).toBe(250);
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['-1', '1.5', 'soon']) {
      expect(() => load({ VISITOR_CACHE_COUNTS_MS: bad })).toThrow(`VISITOR_CACHE_COUNTS_MS must be a whole number of milliseconds, got "${bad}"`);
      expect(() => load({ VISITOR_CACHE_MS: bad })).toThrow(`VISITOR_CACHE_MS must be a whole number of milliseconds, got "${bad}"`);
    }
  });
});

describe('STREAMS_PER_ACCOUNT and STREAMS_PER_ADDRESS, the caps on open notification streams', () => {
  const load = (env: Record<string, string>) => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env });

  it('default to a few per account and more per address, and take any whole number of at least 1', () => {
    expect(load({}).streams).toEqual(STREAM_DEFAULTS);
    expect(load({ STREAMS_PER_ACCOUNT: '1', STREAMS_PER_ADDRESS: '500' }).streams).toEqual({ perAccount: 1, perAddress: 500 });
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['0', '-1', '1.5', 'many']) {
      expect(() => load({ STREAMS_PER_ACCOUNT: bad })).toThrow(`STREAMS_PER_ACCOUNT must be a whole number of at least 1, got "${bad}"`);
      expect(() => load({ STREAMS_PER_ADDRESS: bad })).toThrow(`STREAMS_PER_ADDRESS must be a whole number of at least 1, got "${bad}"`);
    }
  });
});

describe.each([
  ['FEDERATION_LOOKUP_TIMEOUT_MS', "how long a search waits on a handle's server", 'federationLookupTimeoutMs', FEDERATION_LOOKUP_TIMEOUT_MS],
  ['FEDERATION_FETCH_TIMEOUT_MS', 'how long one remote document may take, redirects included', 'federationFetchTimeoutMs', FEDERATION_FETCH_TIMEOUT_MS],
] as const)('%s, %s', (variable, _what, field, fallback) => {
  const load = (env: Record<string, string>) => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env });

  it('defaults to a few seconds and takes any whole number of milliseconds of at least 1', () => {
    expect(load({})[field]).toBe(fallback);
    expect(load({ [variable]: '250' })[field]).toBe(250);
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['0', '-1', '1.5', 'long']) {
      expect(() => load({ [variable]: bad })).toThrow(`${variable} must be a whole number of at least 1, got "${bad}"`);
    }
  });
});

describe('MEDIA_STORAGE and the S3_* settings, where media bytes live', () => {
  const load = (env: Record<string, string>) => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env });
  const s3 = { MEDIA_STORAGE: 's3', S3_BUCKET: 'kruh-media' };

  it('default to the local folder, and read a bucket with its settings', () => {
    expect(load({}).mediaStorage).toEqual({ kind: 'local' });
    expect(load(s3).mediaStorage).toEqual({
      kind: 's3', endpoint: undefined, bucket: 'kruh-media', region: 'us-east-1', credentials: undefined, forcePathStyle: false,
    });
    const garage = load({
      ...s3, S3_ENDPOINT: 'http://garage:3900', S3_REGION: 'garage', S3_ACCESS_KEY_ID: 'GK1', S3_SECRET_ACCESS_KEY: 'secret', S3_FORCE_PATH_STYLE: 'true',
    });
    expect(garage.mediaStorage).toEqual({
      kind: 's3', endpoint: 'http://garage:3900', bucket: 'kruh-media', region: 'garage',
      credentials: { accessKeyId: 'GK1', secretAccessKey: 'secret' }, forcePathStyle: true,
    });
  });

  it('refuses what cannot work, naming the variable', () => {
    expect(() => load({ MEDIA_STORAGE: 'ftp' })).toThrow('MEDIA_STORAGE must be local or s3, got "ftp"');
    expect(() => load({ MEDIA_STORAGE: 's3' })).toThrow('S3_BUCKET is required when MEDIA_STORAGE=s3');
    expect(() => load({ ...s3, S3_ENDPOINT: 'minio:9000' })).toThrow('S3_ENDPOINT must be an http:// or https:// URL');
    expect(() => load({ ...s3, S3_ACCESS_KEY_ID: 'only-one' })).toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    expect(() => load({ ...s3, S3_FORCE_PATH_STYLE: 'yes' })).toThrow('S3_FORCE_PATH_STYLE must be true or false, got "yes"');
  });
});

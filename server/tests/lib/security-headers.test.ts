import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../src/plugins/security';
import { useTestApp } from '../helpers/test-app';

// The headers as @fastify/helmet set them, copied byte for byte from its answers before the
// headers were worked out once at start: a page, an API call and the API docs (which swap in
// their own CSP), with and without a content host for media.
const csp = (media: string) =>
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
  `img-src 'self' data: blob: https://media.tenor.com https://*.googleusercontent.com${media};object-src 'none';` +
  "script-src 'self' https://accounts.google.com/gsi/client;script-src-attr 'none';" +
  "style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style;" +
  `connect-src 'self' https://accounts.google.com/gsi/${media};frame-src https://accounts.google.com/gsi/;worker-src 'self';manifest-src 'self'`;
const docsCsp =
  "default-src 'self'; base-uri 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'self';";
const rest: [string, string][] = [
  ['cross-origin-opener-policy', 'same-origin-allow-popups'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'no-referrer'],
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-download-options', 'noopen'],
  ['x-frame-options', 'SAMEORIGIN'],
  ['x-permitted-cross-domain-policies', 'none'],
  ['x-xss-protection', '0'],
];

const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Kruh</title>');
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

for (const [label, env, media] of [
  ['without a content host', {}, ''],
  ['with MEDIA_URL', { MEDIA_URL: 'https://cdn.example.test/m' }, ' https://cdn.example.test'],
] as const) {
  describe(`security headers ${label}`, () => {
    const t = useTestApp({ WEB_DIR: webDir, ...env });

    for (const [url, expectedCsp] of [
      ['/', csp(media)],
      ['/api/feed', csp(media)],
      ['/api/docs', docsCsp],
    ] as const) {
      it(`are the same as before, in the same order, on ${url}`, async () => {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        const first = Object.entries(res.headers).slice(0, rest.length + 1);
        expect(first).toEqual([['content-security-policy', expectedCsp], ...rest]);
        expect(res.headers['x-powered-by']).toBeUndefined();
      });
    }
  });
}

describe('securityHeaders', () => {
  it('works the headers out once, helmet removing X-Powered-By last', () => {
    const headers = securityHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ["'self'"] } } });
    expect(headers[0]).toEqual(['Content-Security-Policy', expect.stringContaining("default-src 'self'") as unknown]);
    expect(headers.at(-2)).toEqual(['X-Powered-By', null]);
    expect(headers.at(-1)).toEqual(['X-XSS-Protection', '0']);
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  describe('without a trusted proxy', () => {
    const t = useTestApp();

    it('are random UUIDs, told back in X-Request-Id, never the client\'s', async () => {
      const first = await t.app.inject({ method: 'GET', url: '/api/health' });
      const second = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'chosen-by-client' } });
      const firstId = String(first.headers['x-request-id']);
      const secondId = String(second.headers['x-request-id']);
      expect(firstId).toMatch(UUID);
      expect(secondId).toMatch(UUID);
      expect(secondId).not.toBe(firstId);
    });

    it('are on refusals too', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
      expect(res.statusCode).toBe(404);
      expect(String(res.headers['x-request-id'])).toMatch(UUID);
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
    const t = useTestApp({ TRUST_PROXY: 'true' });

    it('take the proxy\'s X-Request-Id, so its log lines and ours share one id', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'edge-7f3a:42' } });
      expect(res.headers['x-request-id']).toBe('edge-7f3a:42');
    });

    it('make their own when the header is empty, too long or not printable', async () => {
      for (const bad of ['', ' ', 'x'.repeat(129), 'tab\there', 'caf\u00e9', 'new\u007fline']) {
        const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
        expect(String(res.headers['x-request-id']), JSON.stringify(bad)).toMatch(UUID);
      }
      const longest = 'y'.repeat(128);
      const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': longest } });
      expect(res.headers['x-request-id']).toBe(longest);
    });
  });

  describe('behind proxies named by address', () => {
    const trusted = useTestApp({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
    const other = useTestApp({ TRUST_PROXY: '10.0.0.1' });

    it('take the header only from one of those addresses', async () => {
      // inject's connection comes from 127.0.0.1.
      const fromTrusted = await trusted.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-1' } });
      expect(fromTrusted.headers['x-request-id']).toBe('abc-1');
      const fromElsewhere = await other.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-1' } });
      expect(String(fromElsewhere.headers['x-request-id'])).toMatch(UUID);
    });
  });
});

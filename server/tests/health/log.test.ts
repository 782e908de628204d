import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { redactUrl, requestLogSerializer } from '../../src/lib/log';

describe('request log lines', () => {
  it('hide the values of credential query parameters and keep the rest', () => {
    expect(redactUrl('/api/notification/stream?token=eyJhbGciOi.abc.def')).toBe('/api/notification/stream?token=[redacted]');
    expect(redactUrl('/api/auth/verify?email=a%40b.test&token=secret123')).toBe('/api/auth/verify?email=a%40b.test&token=[redacted]');
    expect(redactUrl('/media/0123456789abcdef012345670.webp?exp=99&sig=abcd')).toBe('/media/0123456789abcdef012345670.webp?exp=99&sig=[redacted]');
    expect(redactUrl('/api/feed?page=2&sort=newest')).toBe('/api/feed?page=2&sort=newest');
  });

  it('the request serializer logs the redacted url', () => {
    const request = { method: 'GET', url: '/api/notification/stream?token=abc', host: 'kruh.test', ip: '10.0.0.1', socket: { remotePort: 4000 } };
    const line = requestLogSerializer(request as unknown as FastifyRequest);
    expect(line).toEqual({ method: 'GET', url: '/api/notification/stream?token=[redacted]', host: 'kruh.test', remoteAddress: '10.0.0.1', remotePort: 4000 });
    expect(JSON.stringify(line)).not.toContain('abc');
  });
});

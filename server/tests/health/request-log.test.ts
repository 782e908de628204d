import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

type Line = Record<string, unknown>;
const collect = (lines: Line[]) => ({ logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } });

describe('the request log', () => {
  const lines: Line[] = [];
  const t = useTestApp({ LOG_LEVEL: 'info' }, collect(lines));

  it('writes one line per request: method, route pattern, status, time and request id', async () => {
    const user = await createUser(t.app);
    lines.length = 0;
    const calls = [
      { url: '/api/health', route: '/api/health', status: 200 },
      { url: `/api/profile/user/${user.username}`, route: '/api/profile/user/:username', status: 200, headers: user.auth },
      { url: '/api/profile/user/nobodyhereatall', route: '/api/profile/user/:username', status: 404, headers: user.auth },
    ];
    for (const { url, route, status, headers } of calls) {
      const answer = await t.app.inject({ method: 'GET', url, ...(headers ? { headers } : {}) });
      expect(answer.statusCode).toBe(status);
      const own = lines.filter((line) => line.reqId === answer.headers['x-request-id']);
      expect(own, url).toHaveLength(1);
      expect(own[0]).toMatchObject({ level: 30, msg: 'request', method: 'GET', route, status, ip: '127.0.0.1' });
      expect(own[0]!.ms).toEqual(expect.any(Number));
    }
    // Every line of those requests was one of theirs: nothing logged twice, nothing without an id.
    expect(lines).toHaveLength(calls.length);
  });

  it('names a path no route takes by its address, credentials hidden', async () => {
    lines.length = 0;
    const answer = await t.app.inject({ method: 'GET', url: '/api/nowhere?token=secret123' });
    expect(answer.statusCode).toBe(404);
    expect(lines).toEqual([expect.objectContaining({ msg: 'request', url: '/api/nowhere?token=[redacted]', status: 404, reqId: answer.headers['x-request-id'] })]);
    expect(JSON.stringify(lines)).not.toContain('secret123');
  });
});

describe('the client address on request lines', () => {
  const direct: Line[] = [];
  const proxied: Line[] = [];
  const withoutProxy = useTestApp({ LOG_LEVEL: 'info' }, collect(direct));
  const behindProxy = useTestApp({ LOG_LEVEL: 'info', TRUST_PROXY: '10.0.0.1' }, collect(proxied));
  const request = { method: 'GET' as const, url: '/api/health', remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } };

  it("is the connection's address when no proxy is trusted, whatever the request says", async () => {
    const answer = await withoutProxy.app.inject(request);
    expect(direct.find((line) => line.reqId === answer.headers['x-request-id'])).toMatchObject({ msg: 'request', ip: '10.0.0.1' });
  });

  it('is the address the trusted proxy forwards', async () => {
    const answer = await behindProxy.app.inject(request);
    expect(proxied.find((line) => line.reqId === answer.headers['x-request-id'])).toMatchObject({ msg: 'request', ip: '203.0.113.7' });
  });
});

describe('a notification stream the client closes', () => {
  const lines: Line[] = [];
  const t = useTestApp({ LOG_LEVEL: 'info' }, collect(lines));

  it('is logged as any request is: route, status, time and address', async () => {
    const user = await createUser(t.app);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const requestId = await new Promise<string>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/api/notification/stream', headers: user.auth }, (res) => {
        res.once('data', () => {
          // The first count has come: the stream is open. The reader goes away.
          request.destroy();
          resolve(String(res.headers['x-request-id']));
        });
        res.on('error', () => {});
      });
      request.on('error', () => {});
      request.on('close', () => reject(new Error('the stream closed before it answered')));
    });
    await vi.waitFor(() => expect(lines.some((line) => line.reqId === requestId && line.msg === 'request')).toBe(true), { timeout: 10_000 });
    const own = lines.filter((line) => line.reqId === requestId && line.msg === 'request');
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ level: 30, method: 'GET', route: '/api/notification/stream', status: 200, ip: '127.0.0.1', closedBy: 'client' });
    expect(own[0]!.ms).toEqual(expect.any(Number));
  });
});

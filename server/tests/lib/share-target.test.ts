import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';

const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Kruh</title>');
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

/** A share another app posts, as the installed app's manifest asks for it. */
function shareBody(): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----kruh-share';
  const payload = Buffer.from(
    [
      `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nLook at the roses\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n`,
      `--${boundary}--\r\n`,
    ].join(''),
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('the share target without a service worker', () => {
  const t = useTestApp({ WEB_DIR: webDir });

  it('sends the browser to the composer instead of failing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/share', ...shareBody() });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/post');
  });

  it('does the same for a post of any other kind', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/share', payload: 'text=hello', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/post');
  });

  it('leaves the API to its own parsers', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: 'nonsense', headers: { 'content-type': 'text/plain' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json<{ message: string }>().message).toMatch(/^error\//);
  });
});

describe('a share over the body limit', () => {
  const t = useTestApp({ WEB_DIR: webDir });
  const limit = 64 * 1024;

  it('is refused with request_too_large when only a little over', async () => {
    const boundary = '----kruh-share';
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n`), Buffer.alloc(limit, 'a')]);
    const res = await t.app.inject({ method: 'POST', url: '/share', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'error/request_too_large' });
  });

  it('is answered from its declared length, before the body is sent', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const declared = 200 * 1024 * 1024;
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/share', headers: { 'content-type': 'application/octet-stream', 'content-length': declared } },
        (res) => {
          resolve(res.statusCode ?? 0);
          request.destroy();
        },
      );
      request.on('error', () => {});
      // Only the first chunk of the declared 200 MB is ever sent: an answer proves the server did not wait for the rest.
      request.write(Buffer.alloc(16 * 1024));
      setTimeout(() => {
        request.destroy();
        reject(new Error('no answer before the whole body was sent'));
      }, 5_000).unref();
    });
    expect(status).toBe(413);
  });
});

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
    expect(res.headers.location).toBe('/#/post');
  });

  it('does the same for a post of any other kind', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/share', payload: 'text=hello', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/#/post');
  });

  it('leaves the API to its own parsers', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: 'nonsense', headers: { 'content-type': 'text/plain' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json<{ message: string }>().message).toMatch(/^error\//);
  });
});

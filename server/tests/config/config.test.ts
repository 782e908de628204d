import { afterEach, describe, expect, it } from 'vitest';
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
    expect(res.json()).toEqual({ googleClientId: null, tenorEnabled: false });
  });

  it('answers the Google client id and that GIFs are on, never the Tenor key', async () => {
    t = await createTestApp({ GOOGLE_CLIENT_ID: 'client-123.apps.googleusercontent.com', TENOR_KEY: 'secret-key' });
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ googleClientId: 'client-123.apps.googleusercontent.com', tenorEnabled: true });
    expect(res.body).not.toContain('secret-key');
  });
});

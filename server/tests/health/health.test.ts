import { describe, expect, it } from 'vitest';
import { TEST_DB, useTestApp } from '../helpers/test-app';
import { expectError } from '../helpers/expect';

describe('health and error mapping', () => {
  const t = useTestApp();

  it('answers 200 with the database in use', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: TEST_DB });
  });

  it('answers an unknown API path with a catalogue key and 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/^error\//);
  });

  it('reads an empty JSON body as no body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/test', headers: { 'content-type': 'application/json' }, payload: '' });
    expectError(res, 401, 'no_token');
  });

  it('refuses malformed JSON with a catalogue key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^error\//);
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LocalMediaStorage } from '../../src/lib/storage';
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

describe('liveness and readiness', () => {
  const t = useTestApp();

  it('live answers 200 while the process runs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('ready answers 200 when the database and the media storage answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
  });

  it('ready answers 503 naming the storage when it does not answer, while live stays 200', async () => {
    const ready = vi.spyOn(t.app.storage, 'ready').mockRejectedValueOnce(new Error('bucket gone'));
    const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    ready.mockRestore();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', storage: 'unavailable' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });
});

describe('readiness without a database', () => {
  const t = useTestApp();

  it('ready answers 503 naming the database, live stays 200', async () => {
    await t.database.close();
    const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable', storage: 'ok' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });
});

describe('the local media folder', () => {
  it('is ready when it can be written, and not when its place is a file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kruh-ready-'));
    try {
      await expect(new LocalMediaStorage(join(root, 'media')).ready()).resolves.toBeUndefined();
      writeFileSync(join(root, 'blocked'), 'not a folder');
      await expect(new LocalMediaStorage(join(root, 'blocked')).ready()).rejects.toThrow();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

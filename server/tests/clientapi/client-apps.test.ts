import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import en from '../../../locales/en/error.json' with { type: 'json' };
import { secretHash } from '../../src/modules/clientapi/apps.service';
import { runAdminCommand } from '../../src/modules/reports/admin';
import { call, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/** The client API's instance and app registration, as apps call them (JSON or a form). */

const register = (payload: Record<string, unknown> | string, form = false) =>
  ({
    method: 'POST' as const,
    url: '/api/v1/apps',
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

describe('client API: instance and apps', () => {
  const t = useTestApp();
  const { mod } = useUsers(t, 'mod');

  it('lets apps in a browser on another origin call it, and read its paging links', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/timelines/home',
      headers: { origin: 'https://elk.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    expect(String(preflight.headers['access-control-allow-methods'])).toMatch(/POST/);
    const v2 = await t.app.inject({ method: 'OPTIONS', url: '/api/v2/instance', headers: { origin: 'https://elk.example' } });
    expect(v2.statusCode).toBe(204);
    const read = await t.app.inject({ method: 'GET', url: '/api/v1/timelines/public', headers: { origin: 'https://elk.example' } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    expect(read.headers['access-control-expose-headers']).toBe('Link');
    // Kruh's own API stays same-origin: only the client API answers other origins.
    const own = await t.app.inject({ method: 'GET', url: '/api/feed', headers: { origin: 'https://elk.example' } });
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('describes the instance in both versions, with the limits from core', async () => {
    const v1 = await t.app.inject({ method: 'GET', url: '/api/v1/instance' });
    expect(v1.statusCode).toBe(200);
    const one = v1.json();
    expect(one.uri).toBe('kruh.test');
    expect(one.version).toMatch(/^4\.3\.0 \(compatible; Kruh \d+\.\d+\.\d+\)$/);
    expect(one.configuration.statuses.max_characters).toBe(LIMITS.textMaxLength);
    // Asked with a trailing slash too, as a library does to learn the version.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/instance/' })).json()).toEqual(one);
    expect(one.configuration.statuses.max_media_attachments).toBe(LIMITS.imagesPerPost);
    expect(one.configuration.media_attachments.image_size_limit).toBe(LIMITS.imageMaxBytes);
    expect(one.configuration).not.toHaveProperty('polls');
    expect(one.registrations).toBe(true);

    const v2 = await t.app.inject({ method: 'GET', url: '/api/v2/instance' });
    expect(v2.statusCode).toBe(200);
    const two = v2.json();
    expect(two.domain).toBe('kruh.test');
    expect(two.version).toBe(one.version);
    expect(two.configuration.urls.streaming).toBe('ws://kruh.test');
    expect(two.configuration.media_attachments.supported_mime_types).toContain('image/jpeg');
    expect(two.configuration).not.toHaveProperty('polls');
    expect(two.registrations).toMatchObject({ enabled: true, approval_required: false });
  });

  it('names the instance, its rules and contact as its moderators set them', async () => {
    await runAdminCommand(t.app.db, { grant: mod.username });
    const settings = { name: 'Friends', description: 'A small place', about: 'Tea on Thursdays.', rules: ['Be kind.', 'No spam.'], contact: 'admin@kruh.test' };
    expect((await call(t.app, mod, { method: 'PUT', url: '/api/instance', payload: settings })).statusCode).toBe(200);
    const one = (await t.app.inject({ method: 'GET', url: '/api/v1/instance' })).json();
    expect(one).toMatchObject({ title: 'Friends', short_description: 'A small place', email: 'admin@kruh.test' });
    const two = (await t.app.inject({ method: 'GET', url: '/api/v2/instance' })).json();
    expect(two).toMatchObject({ title: 'Friends', description: 'A small place', contact: { email: 'admin@kruh.test', account: null } });
    expect(two.rules).toEqual([{ id: '1', text: 'Be kind.', hint: '' }, { id: '2', text: 'No spam.', hint: '' }]);
    const rules = await t.app.inject({ method: 'GET', url: '/api/v1/instance/rules' });
    expect({ status: rules.statusCode, body: rules.json() }).toEqual({ status: 200, body: two.rules });
  });

  it('registers an app and keeps only the hash of its secret', async () => {
    const res = await t.app.inject(register({ client_name: 'Phone', redirect_uris: 'urn:ietf:wg:oauth:2.0:oob', scopes: 'read write:statuses', website: 'https://app.example' }));
    expect(res.statusCode).toBe(200);
    const app = res.json();
    expect(app).toMatchObject({
      name: 'Phone',
      website: 'https://app.example',
      scopes: ['read', 'write:statuses'],
      redirect_uri: 'urn:ietf:wg:oauth:2.0:oob',
      redirect_uris: ['urn:ietf:wg:oauth:2.0:oob'],
      client_secret_expires_at: 0,
    });
    expect(app.client_id).toMatch(/^[\w-]{40,}$/);
    expect(app.client_secret).toMatch(/^[\w-]{40,}$/);
    const row = await t.app.db.selectFrom('client_apps').selectAll().where('client_id', '=', app.client_id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(secretHash(app.client_secret));
    expect(JSON.stringify(row)).not.toContain(app.client_secret);
  });

  it('takes a form, with several redirect addresses, and grants read when no scope is named', async () => {
    const form = new URLSearchParams([['client_name', 'Form app'], ['redirect_uris[]', 'myapp://back'], ['redirect_uris[]', 'https://app.example/cb']]);
    const res = await t.app.inject(register(form.toString(), true));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scopes: ['read'], redirect_uris: ['myapp://back', 'https://app.example/cb'], redirect_uri: 'myapp://back\nhttps://app.example/cb' });
  });

  const refusals: [string, Record<string, unknown>, keyof typeof en][] = [
    ['a relative redirect address', { client_name: 'A', redirect_uris: '/back' }, 'invalid_redirect_uri'],
    ['a javascript: redirect address', { client_name: 'A', redirect_uris: 'javascript:alert(1)' }, 'invalid_redirect_uri'],
    ['no redirect address', { client_name: 'A' }, 'invalid_redirect_uri'],
    ['an unknown scope', { client_name: 'A', redirect_uris: 'urn:ietf:wg:oauth:2.0:oob', scopes: 'read admin:write' }, 'invalid_scope'],
    ['no name', { redirect_uris: 'urn:ietf:wg:oauth:2.0:oob' }, 'invalid_app_name'],
    ['a website that is no web address', { client_name: 'A', redirect_uris: 'urn:ietf:wg:oauth:2.0:oob', website: 'ftp://x' }, 'invalid_app_website'],
  ];

  it.each(refusals)('refuses %s with 422 and {error, message}', async (_name, body, key) => {
    const res = await t.app.inject(register(body));
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 422, body: { error: en[key], message: `error/${key}` } });
  });

  it('answers a malformed body in the same shape', async () => {
    const res = await t.app.inject(register({ client_name: 'A', redirect_uris: { a: 1 } }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), message: expect.stringMatching(/^error\//) });
  });

  it('leaves the rest of the API its own shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/test' });
    expect(res.json()).toEqual({ message: 'error/no_token' });
  });
});

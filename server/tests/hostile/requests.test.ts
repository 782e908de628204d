import { beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, type TestUser } from '../helpers/fixtures';
import { expectError } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';
import { MAX_URL_LENGTH } from '../../src/plugins/security';

/** Requests no client of ours sends: each answers a 4xx with a catalogue key, and nothing is stored. */
describe('hostile requests', () => {
  const t = useTestApp();
  let user: TestUser;

  beforeAll(async () => {
    user = await createUser(t.app);
  });

  const postCount = async () =>
    Number((await t.app.db.selectFrom('posts').select((eb) => eb.fn.countAll().as('n')).where('author_id', '=', user.id).executeTakeFirstOrThrow()).n);

  describe('a NUL character', () => {
    it('in a JSON body string is refused and nothing is stored', async () => {
      const res = await call(t.app, user, { method: 'POST', url: '/api/post', payload: { text: 'before\u0000after' } });
      expectError(res, 400, 'invalid_characters');
      expect(await postCount()).toBe(0);
    });

    it('deep in a JSON body or in a key is refused', async () => {
      expectError(await call(t.app, user, { method: 'POST', url: '/api/post', payload: { text: 'hi', mentions: [{ username: 'a\u0000' }] } }), 400, 'invalid_characters');
      expectError(await call(t.app, user, { method: 'POST', url: '/api/post', payload: { text: 'hi', 'te\u0000xt': 1 } }), 400, 'invalid_characters');
      expect(await postCount()).toBe(0);
    });

    it('in a sign-up username or a comment is refused', async () => {
      const signup = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { username: 'nul\u0000name', email: 'nul@example.test', password: 'secret12' } });
      expectError(signup, 400, 'invalid_characters');
      expectError(await call(t.app, user, { method: 'POST', url: '/api/comment/', payload: { text: '\u0000', parent: '0'.repeat(24) } }), 400, 'invalid_characters');
    });

    it('in the query or the path is refused', async () => {
      expectError(await call(t.app, user, { method: 'GET', url: '/api/search/for/users?query=a%00b' }), 400, 'invalid_characters');
      expectError(await call(t.app, user, { method: 'GET', url: '/api/profile/user/a%00b' }), 400, 'invalid_characters');
      expectError(await call(t.app, user, { method: 'GET', url: '/api/feed/hash/%00' }), 400, 'invalid_characters');
    });

    it('in a header the server reads (Idempotency-Key) is refused', async () => {
      const res = await call(t.app, user, { method: 'POST', url: '/api/post', payload: { text: 'keyed' }, headers: { 'idempotency-key': 'key\u0000one' } });
      expectError(res, 400, 'invalid_characters');
      expect(await postCount()).toBe(0);
    });

    it('leaves ordinary text alone', async () => {
      const res = await call(t.app, user, { method: 'POST', url: '/api/post', payload: { text: 'plain text' } });
      expect(res.statusCode).toBe(201);
      expect(await postCount()).toBe(1);
    });
  });

  describe('sizes and unknown paths', () => {
    it('answers 414 uri_too_long for a path segment over the router limit', async () => {
      expectError(await t.app.inject({ method: 'GET', url: `/api/profile/user/${'x'.repeat(500)}` }), 414, 'uri_too_long');
    });

    it('answers 414 uri_too_long for a URL over the length limit', async () => {
      expectError(await t.app.inject({ method: 'GET', url: `/api/search/for/users?query=${'x'.repeat(MAX_URL_LENGTH)}` }), 414, 'uri_too_long');
    });

    it('answers 400 invalid_characters for a path that does not decode', async () => {
      expectError(await t.app.inject({ method: 'GET', url: '/api/profile/user/%E0%A4%A' }), 400, 'invalid_characters');
    });

    it('answers 413 request_too_large for a body over the limit', async () => {
      const res = await call(t.app, user, { method: 'POST', url: '/api/post', payload: { text: 'x'.repeat(100 * 1024) } });
      expectError(res, 413, 'request_too_large');
    });

    it('answers 404 not_found for an unknown API path, whatever the method', async () => {
      expectError(await t.app.inject({ method: 'GET', url: '/api/no/such/thing' }), 404, 'not_found');
      expectError(await t.app.inject({ method: 'POST', url: '/api/no-such-thing', payload: {} }), 404, 'not_found');
      expectError(await t.app.inject({ method: 'DELETE', url: '/api/feed' }), 404, 'not_found');
    });

    it('still answers 404 for an unknown path outside the API', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/no/such/page' })).statusCode).toBe(404);
    });
  });

  describe('Cache-Control', () => {
    const cases: [string, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>][] = [
      ['a success', () => t.app.inject({ method: 'GET', url: '/api/health' })],
      ['a signed-in read', () => call(t.app, user, { method: 'GET', url: '/api/notification/unread' })],
      ['a validation error', () => call(t.app, user, { method: 'GET', url: '/api/feed?page=abc' })],
      ['a service error', () => t.app.inject({ method: 'GET', url: '/api/notification/unread' })],
      ['an unknown API path', () => t.app.inject({ method: 'GET', url: '/api/no/such/thing' })],
      ['a path segment too long', () => t.app.inject({ method: 'GET', url: `/api/profile/user/${'x'.repeat(500)}` })],
      ['a URL too long', () => t.app.inject({ method: 'GET', url: `/api/feed?x=${'x'.repeat(MAX_URL_LENGTH)}` })],
      ['a body too large', () => call(t.app, user, { method: 'POST', url: '/api/post', payload: { text: 'x'.repeat(100 * 1024) } })],
      ['a NUL refusal', () => call(t.app, user, { method: 'GET', url: '/api/search/for/users?query=%00' })],
    ];
    it.each(cases)('is no-store on %s', async (_name, send) => {
      const res = await send();
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });
});

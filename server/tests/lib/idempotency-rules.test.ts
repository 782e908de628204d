import type { FastifyRequest } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/app-error';
import {
  canonicalJson,
  IDEMPOTENCY_TTL_MS,
  idempotencyKey,
  idempotentRequest,
  purgeIdempotencyKeys,
  runOnce,
} from '../../src/lib/idempotency';
import { createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/** The idempotency rules one function at a time (idempotency.test.ts shows them through the API). */
describe('idempotency rules', () => {
  describe('idempotencyKey: which header values are keys', () => {
    it('accepts 8 to 128 letters, digits, dashes and underscores', () => {
      expect(idempotencyKey({ 'idempotency-key': 'abcd_12-' })).toBe('abcd_12-');
      expect(idempotencyKey({ 'idempotency-key': 'K'.repeat(128) })).toBe('K'.repeat(128));
    });

    it('ignores a missing, empty, short, long or oddly spelled key', () => {
      expect(idempotencyKey({})).toBeUndefined();
      expect(idempotencyKey({ 'idempotency-key': '' })).toBeUndefined();
      expect(idempotencyKey({ 'idempotency-key': 'abcdefg' })).toBeUndefined();
      expect(idempotencyKey({ 'idempotency-key': 'K'.repeat(129) })).toBeUndefined();
      expect(idempotencyKey({ 'idempotency-key': 'abcd efgh' })).toBeUndefined();
      expect(idempotencyKey({ 'idempotency-key': 'abcdefgh\n' })).toBeUndefined();
    });

    it('takes the first of a repeated header', () => {
      expect(idempotencyKey({ 'idempotency-key': ['first-key', 'second-key'] })).toBe('first-key');
      expect(idempotencyKey({ 'idempotency-key': ['bad', 'second-key'] })).toBeUndefined();
    });
  });

  describe('canonicalJson: one fingerprint per meaning', () => {
    it('writes null for a missing value and JSON for scalars', () => {
      expect(canonicalJson(undefined)).toBe('null');
      expect(canonicalJson(null)).toBe('null');
      expect(canonicalJson('text')).toBe('"text"');
      expect(canonicalJson(12)).toBe('12');
      expect(canonicalJson(false)).toBe('false');
    });

    it('sorts object keys whatever order they came in, and keeps array order', () => {
      const sorted = '{"a":1,"b":2,"c":3}';
      expect(canonicalJson({ a: 1, b: 2, c: 3 })).toBe(sorted);
      expect(canonicalJson({ c: 3, b: 2, a: 1 })).toBe(sorted);
      expect(canonicalJson({ b: 2, c: 3, a: 1 })).toBe(sorted);
      expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
      expect(canonicalJson({})).toBe('{}');
      expect(canonicalJson([])).toBe('[]');
    });

    it('drops undefined fields but keeps null ones', () => {
      expect(canonicalJson({ gone: undefined, kept: null })).toBe('{"kept":null}');
    });

    it('stands a file in by the hash of its bytes', () => {
      expect(canonicalJson(Buffer.from('one'))).toMatch(/^"sha256:[0-9a-f]{64}"$/);
    });
  });

  describe('idempotentRequest: the key, endpoint and fingerprint of a request', () => {
    const request = (overrides: Partial<{ key: string; method: string; url: string; params: unknown; body: unknown }> = {}) =>
      ({
        headers: overrides.key === undefined ? { 'idempotency-key': 'request-key' } : { 'idempotency-key': overrides.key },
        method: overrides.method ?? 'POST',
        url: '/api/post/123/like?x=1',
        routeOptions: { url: overrides.url ?? '/api/post/:postId/like' },
        params: overrides.params ?? { postId: '123' },
        body: overrides.body ?? { liked: true },
      }) as unknown as FastifyRequest;

    it('is undefined without a usable key', () => {
      expect(idempotentRequest(request({ key: 'short' }))).toBeUndefined();
    });

    it('names the endpoint by method and route pattern', () => {
      expect(idempotentRequest(request())).toMatchObject({ key: 'request-key', route: 'POST /api/post/:postId/like' });
    });

    it('fingerprints method, route, params and body, and nothing else', () => {
      const hash = idempotentRequest(request())!.hash;
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(idempotentRequest(request({ key: 'another-key' }))!.hash).toBe(hash);
      expect(idempotentRequest(request({ method: 'PATCH' }))!.hash).not.toBe(hash);
      expect(idempotentRequest(request({ url: '/api/comment/:postId/like' }))!.hash).not.toBe(hash);
      expect(idempotentRequest(request({ params: { postId: '124' } }))!.hash).not.toBe(hash);
      expect(idempotentRequest(request({ body: { liked: false } }))!.hash).not.toBe(hash);
    });

    it('fingerprints the body it is given instead of the parsed one (multipart)', () => {
      const parsed = idempotentRequest(request())!.hash;
      expect(idempotentRequest(request(), { liked: true })!.hash).toBe(parsed);
      expect(idempotentRequest(request(), { file: Buffer.from('bytes') })!.hash).not.toBe(parsed);
    });
  });

  describe('runOnce and the purge, against the database', () => {
    const t = useTestApp();
    let user: TestUser;
    let n = 0;
    beforeAll(async () => {
      user = await createUser(t.app);
    });

    const keyed = (hash = 'hash-1') => ({ key: `rules-key-${n++}`, route: 'POST /api/test', hash });
    /** A change that counts its runs, answering with the run number. */
    const counter = () => {
      const runs = { count: 0 };
      const create = async () => ({ status: 201, body: { run: ++runs.count } });
      return { runs, create };
    };
    const stored = (key: string) =>
      t.app.db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', user.id).where('key', '=', key).executeTakeFirst();

    it('runs every call without a key', async () => {
      const { runs, create } = counter();
      expect(await runOnce(t.app.db, user.id, undefined, create)).toEqual({ status: 201, body: { run: 1 }, replayed: false });
      expect(await runOnce(t.app.db, user.id, undefined, create)).toEqual({ status: 201, body: { run: 2 }, replayed: false });
      expect(runs.count).toBe(2);
    });

    it('runs a keyed call once, storing its answer, and replays it after', async () => {
      const { runs, create } = counter();
      const request = keyed();
      expect(await runOnce(t.app.db, user.id, request, create)).toEqual({ status: 201, body: { run: 1 }, replayed: false });
      expect(await stored(request.key)).toMatchObject({ route: request.route, request_hash: request.hash, status: 201, body: '{"run":1}' });
      expect(await runOnce(t.app.db, user.id, request, create)).toEqual({ status: 201, body: { run: 1 }, replayed: true });
      expect(runs.count).toBe(1);
    });

    it('refuses the key for another endpoint or another fingerprint, running nothing', async () => {
      const { runs, create } = counter();
      const request = keyed();
      await runOnce(t.app.db, user.id, request, create);
      const mismatch = (other: typeof request) => runOnce(t.app.db, user.id, other, create).catch((error: unknown) => error);
      for (const other of [{ ...request, route: 'POST /api/other' }, { ...request, hash: 'hash-2' }]) {
        const error = await mismatch(other);
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ statusCode: 422, key: 'idempotency_mismatch' });
      }
      expect(runs.count).toBe(1);
    });

    it('judges a key stored without a fingerprint by its endpoint alone, and fingerprints it on completion', async () => {
      const request = keyed();
      const now = Date.now();
      // A key whose change never completed (no answer stored), from before fingerprints were kept.
      await t.app.db
        .insertInto('idempotency_keys')
        .values({ user_id: user.id, key: request.key, route: request.route, request_hash: null, status: null, body: null, created_at: now })
        .execute();
      const { runs, create } = counter();
      expect(await runOnce(t.app.db, user.id, request, create)).toEqual({ status: 201, body: { run: 1 }, replayed: false });
      expect(runs.count).toBe(1);
      expect(await stored(request.key)).toMatchObject({ request_hash: request.hash, status: 201, body: '{"run":1}' });
      expect(await runOnce(t.app.db, user.id, request, create)).toMatchObject({ body: { run: 1 }, replayed: true });
    });

    it('rolls a refused call back with its key, so the retry is judged again', async () => {
      const request = keyed();
      const refused = runOnce(t.app.db, user.id, request, async () => {
        throw new AppError(429, 'post_limit');
      });
      await expect(refused).rejects.toBeInstanceOf(AppError);
      expect(await stored(request.key)).toBeUndefined();
      const { create } = counter();
      expect(await runOnce(t.app.db, user.id, request, create)).toMatchObject({ replayed: false });
    });

    it('forgets keys older than the time to live, keeping younger ones', async () => {
      const now = 10 * IDEMPOTENCY_TTL_MS;
      const [old, edge] = [keyed(), keyed()];
      await t.app.db
        .insertInto('idempotency_keys')
        .values([
          { user_id: user.id, key: old.key, route: old.route, request_hash: old.hash, status: 201, body: '{}', created_at: now - IDEMPOTENCY_TTL_MS - 1 },
          { user_id: user.id, key: edge.key, route: edge.route, request_hash: edge.hash, status: 201, body: '{}', created_at: now - IDEMPOTENCY_TTL_MS },
        ])
        .execute();
      await purgeIdempotencyKeys(t.app.db, now);
      expect(await stored(old.key)).toBeUndefined();
      expect(await stored(edge.key)).toBeDefined();
      expect(IDEMPOTENCY_TTL_MS).toBe(7 * 24 * 60 * 60 * 1000);
    });
  });
});

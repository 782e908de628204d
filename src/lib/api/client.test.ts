import '../../test/setup';
import { describe, expect, it } from 'vitest';
import { authApi } from '#core/api/auth';
import { feedsApi } from '#core/api/feeds';
import { postsApi } from '#core/api/posts';
import { mockFetch } from '../../test/local-first';
import { storeSession } from '../session';
import { ApiError, NetworkError, callApi, errorKeyOf, isRetryable } from './client';

describe('callApi', () => {
  it('sends JSON with the bearer token, the query and the method of the contract entry', async () => {
    storeSession('tok', 'alice', 'u1');
    const { calls } = mockFetch(() => ({ body: { ok: true } }));
    expect(await callApi(feedsApi.explore, { query: { page: 2, sort: undefined } })).toEqual({ ok: true });
    expect(calls[0]).toMatchObject({ url: '/api/feed?page=2', method: 'GET' });
    expect(calls[0]!.headers).toMatchObject({ Authorization: 'Bearer tok' });

    await callApi(postsApi.create, { body: { text: 'hi' } }, { headers: { 'Idempotency-Key': 'k1' } });
    expect(calls[1]).toMatchObject({ url: '/api/post', method: 'POST', body: { text: 'hi' } });
    expect(calls[1]!.headers).toMatchObject({ 'Content-Type': 'application/json', 'Idempotency-Key': 'k1' });
  });

  it('fills the path parameters, each encoded as one segment', async () => {
    const { calls } = mockFetch(() => ({ body: {} }));
    await callApi(feedsApi.hashtag, { params: { hashtag: 'a/b c' } });
    await callApi(postsApi.like, { params: { postId: 'p1' }, body: { liked: true } });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/feed/hash/a%2Fb%20c', 'PATCH /api/post/p1/like']);
  });

  it('turns an error answer into ApiError with its catalogue key', async () => {
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    const err = await callApi(authApi.test).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, key: 'invalid_token', message: 'error/invalid_token' });
    expect(isRetryable(err)).toBe(false);

    mockFetch(() => ({ status: 500, body: { message: 'not a key' } }));
    const server = await callApi(feedsApi.explore).catch((e: unknown) => e);
    expect(server).toMatchObject({ status: 500, key: undefined });
    expect(isRetryable(server)).toBe(true);
    expect(errorKeyOf(server, 'posting_failed')).toBe('posting_failed');
  });

  it('reports a failed fetch as NetworkError', async () => {
    mockFetch(() => new TypeError('Failed to fetch'));
    const err = await callApi(feedsApi.explore).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(isRetryable(err)).toBe(true);
  });
});

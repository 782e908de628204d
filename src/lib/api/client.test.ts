import '../../test/setup';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/local-first';
import { storeSession } from '../session';
import { ApiError, NetworkError, apiFetch, errorKeyOf, isRetryable } from './client';

describe('apiFetch', () => {
  it('sends JSON with the bearer token and the query', async () => {
    storeSession('tok', 'alice', 'u1');
    const { calls } = mockFetch(() => ({ body: { ok: true } }));
    expect(await apiFetch('/post', { method: 'POST', body: { text: 'hi' }, query: { page: 2, skip: undefined } })).toEqual({ ok: true });
    expect(calls[0]).toMatchObject({ url: '/api/post?page=2', method: 'POST', body: { text: 'hi' } });
    expect(calls[0]!.headers).toMatchObject({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
  });

  it('turns an error answer into ApiError with its catalogue key', async () => {
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    const err = await apiFetch('/auth/test').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, key: 'invalid_token', message: 'error/invalid_token' });
    expect(isRetryable(err)).toBe(false);

    mockFetch(() => ({ status: 500, body: { message: 'not a key' } }));
    const server = await apiFetch('/feed').catch((e: unknown) => e);
    expect(server).toMatchObject({ status: 500, key: undefined });
    expect(isRetryable(server)).toBe(true);
    expect(errorKeyOf(server, 'posting_failed')).toBe('posting_failed');
  });

  it('reports a failed fetch as NetworkError', async () => {
    mockFetch(() => new TypeError('Failed to fetch'));
    const err = await apiFetch('/feed').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(isRetryable(err)).toBe(true);
  });
});

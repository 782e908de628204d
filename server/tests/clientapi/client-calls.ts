import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';

/** Calling the client API as apps do in the tests, and reading what it answers. */

/** A call with an app's access token, or as a visitor without one. */
export function asApp(app: FastifyInstance, token: string | null | undefined, options: InjectOptions) {
  return app.inject({ ...options, headers: { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
}

/** A GET as an app makes it: its status, its JSON and its Link header. */
export async function appGet(app: FastifyInstance, url: string, token?: string | null) {
  const res = await asApp(app, token, { method: 'GET', url });
  return { status: res.statusCode, body: res.json(), link: res.headers.link as string | undefined };
}

/** The value matches the schema, or the test names the first fields that do not. */
export function expectShape(schema: TSchema, value: unknown) {
  const errors = [...Value.Errors(schema, value)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
  expect(errors).toEqual([]);
}

/** The address a Link header names for `rel`, as a path with its query. */
export function linkOf(header: string | undefined, rel: 'next' | 'prev'): string | undefined {
  const match = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(header ?? '');
  if (!match) return undefined;
  const url = new URL(match[1]!);
  return url.pathname + url.search;
}

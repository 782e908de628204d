import type { Static, TSchema } from '@sinclair/typebox';
import type { ServerErrorKey } from '../errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The success answers a call may give, by status. */
export type SuccessReplies = Partial<Record<200 | 201 | 202 | 204, TSchema>>;

/**
 * One call of the API, described once for the server (which validates and serialises by it),
 * the web app (which calls through it) and the OpenAPI document (which is generated from it).
 * `path` is relative to `/api` and names its parameters Fastify's way (`/post/:postId`).
 * `errors` lists the catalogue keys the call itself may answer besides the ones every call can
 * (a malformed request, an expired session, a rate limit).
 */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  /** What the summary cannot say in a line (how a parameter is read); the OpenAPI description opens with it. */
  readonly description?: string;
  readonly params?: TSchema;
  readonly query?: TSchema;
  readonly body?: TSchema;
  readonly replies: SuccessReplies;
  readonly errors: readonly ServerErrorKey[];
  /** The key a request refused by the schema answers when its failing field has none of its own. */
  readonly invalidKey?: ServerErrorKey;
}

/** Declares an endpoint, keeping its literal types for the server's and the client's inference. */
export const endpoint = <const E extends Endpoint>(definition: E): E => definition;

/**
 * A call that takes no parameters, query or body and refuses nothing of its own (reading the
 * caller's or the instance's state, or a change that needs no input): beside its method, path and
 * summary, all it declares is its one success answer.
 */
export const plainEntry = <const M extends HttpMethod, const P extends string, R extends TSchema>(method: M, path: P, summary: string, reply: R) =>
  endpoint({ method, path, summary, replies: { 200: reply }, errors: [] });

/**
 * A read of what the path names (a post, a notification, a group): beside its path and summary, its
 * path parameters, its one success answer and the refusals of its own.
 */
export const readEntry = <const P extends string, S extends TSchema, R extends TSchema, const E extends readonly ServerErrorKey[]>(
  path: P,
  summary: string,
  params: S,
  reply: R,
  errors: E,
) => endpoint({ method: 'GET', path, summary, params, replies: { 200: reply }, errors });

type StaticOr<S, Fallback> = S extends TSchema ? Static<S> : Fallback;

export type ParamsOf<E extends Endpoint> = StaticOr<E['params'], undefined>;
export type QueryOf<E extends Endpoint> = StaticOr<E['query'], undefined>;
export type BodyOf<E extends Endpoint> = StaticOr<E['body'], undefined>;

/** The answer of a successful call (its 200, else its 201, else nothing). */
export type ReplyOf<E extends Endpoint> = E['replies'] extends { 200: infer S extends TSchema }
  ? Static<S>
  : E['replies'] extends { 201: infer S extends TSchema }
    ? Static<S>
    : E['replies'] extends { 202: infer S extends TSchema }
      ? Static<S>
      : undefined;

/**
 * The endpoint's path with its parameters filled in (each encoded as one path segment).
 * A parameter missing from `params` is an error in the caller, so it throws.
 */
export function pathOf(e: Pick<Endpoint, 'path'>, params?: Readonly<Record<string, string | number>>): string {
  return e.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${e.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

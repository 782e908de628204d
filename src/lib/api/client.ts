import type { Static, TSchema } from '@sinclair/typebox';
import { type Endpoint, type ReplyOf, pathOf } from '#core/api/endpoint';
import { type ErrorKey, parseErrorMessage } from '#core/errors';
import { getSession, markSessionExpired } from '../session-store';

/** The server answered with an HTTP error; `key` is its catalogue key when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly key: ErrorKey | undefined;

  constructor(status: number, key: ErrorKey | undefined, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.key = key;
  }
}

/** The request never got an answer (offline, DNS, connection reset). */
export class NetworkError extends Error {
  constructor(message = 'network') {
    super(message);
    this.name = 'NetworkError';
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  formData?: FormData;
}

export const API_BASE = '/api';

function buildUrl(path: string, query: ApiOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
}

/** The session's bearer token for a call's headers, when there is a session. */
function authorize(headers: Record<string, string>): string | null {
  const { token } = getSession();
  if (token) headers.Authorization = `Bearer ${token}`;
  return token;
}

/** A 401 to a call that carried the session's token: the server no longer takes that session. */
function noteRefusal(response: Response, token: string | null): void {
  if (response.status === 401 && token) markSessionExpired(token);
}

/** Whether a call failed because the server refused the session (the shell then says so). */
export const isSessionRefused = (err: unknown): boolean => err instanceof ApiError && err.status === 401;

/** A call to the REST API with the session's bearer token; JSON in, JSON out. */
async function apiFetch<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = authorize(headers);
  let body: BodyInit | undefined;
  if (options.formData) body = options.formData;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new NetworkError((err as Error)?.message);
  }
  noteRefusal(response, token);

  const text = await response.text().catch(() => '');
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const message = (data as { message?: unknown } | undefined)?.message;
    const key = parseErrorMessage(message);
    throw new ApiError(response.status, key, typeof message === 'string' ? message : `HTTP ${response.status}`);
  }
  return data as T;
}

/** A part of a call's input; optional when every field in it is (a listing's query, say). */
type Part<S, Name extends string> = S extends TSchema
  ? object extends Static<S>
    ? { [K in Name]?: Static<S> }
    : { [K in Name]: Static<S> }
  : { [K in Name]?: undefined };

/** What a call takes: its path parameters, query and body, each typed by the contract. */
export type CallInput<E extends Endpoint> = Part<E['params'], 'params'> & Part<E['query'], 'query'> & Part<E['body'], 'body'>;

export type CallOptions = Pick<ApiOptions, 'headers' | 'signal' | 'formData'>;

/** A call's input and options, the input optional when nothing in it is required. */
type CallArgs<E extends Endpoint, O> = object extends CallInput<E> ? [input?: CallInput<E>, options?: O] : [input: CallInput<E>, options?: O];

type LooseInput = { params?: Record<string, string>; query?: ApiOptions['query']; body?: unknown };

/**
 * A call of the API as the contract describes it: the path is built from the endpoint and its
 * parameters, and the answer is typed by the endpoint's reply, so a field renamed in the
 * contract breaks the build here as it does on the server.
 */
export function callApi<const E extends Endpoint>(e: E, ...[input, options]: CallArgs<E, CallOptions>): Promise<ReplyOf<E>> {
  const { params, query, body } = (input ?? {}) as LooseInput;
  return apiFetch<ReplyOf<E>>(pathOf(e, params), { ...options, method: e.method, query, body });
}

/** Worth trying again later: no answer at all, or a server-side failure. */
export const isRetryable = (err: unknown): boolean =>
  err instanceof NetworkError || (err instanceof ApiError && err.status >= 500);

/** The catalogue key to show for a failed call, with a fallback. */
export function errorKeyOf(err: unknown, fallback: ErrorKey = 'server_error'): ErrorKey {
  return err instanceof ApiError && err.key ? err.key : fallback;
}

/** The server's refusal as a message key (`error/<key>`), or `fallback` (a message key) when it named none. */
export function errorMessageOf(err: unknown, fallback = 'error/server_error'): string {
  return err instanceof ApiError && err.key ? `error/${err.key}` : fallback;
}

/**
 * Why an image upload (a post's, a comment's, an avatar, a group picture) failed: the server's
 * reason when it gave one; otherwise nothing is known about the image, so only that it failed.
 */
export const uploadErrorOf = (err: unknown): string => errorMessageOf(err, 'common:upload_failed');

/** A file the API answered: its bytes, and the name the server gave it (Content-Disposition). */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Told of each piece as it arrives: the bytes so far, and the whole size when the server said it. */
  onProgress?: (received: number, total: number | null) => void;
}

/** The file name of a Content-Disposition header: `filename*` (UTF-8) when given, else `filename`. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed encoding: the plain name below is as good.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(disposition)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(disposition)?.[1] ?? null;
}

/**
 * A call whose answer is a file (a zip, a GIF), with the session's bearer token: read piece by piece
 * as it streams in, so the caller can show the progress. Refusals are ApiErrors as for callApi;
 * no answer, or an answer broken off midway, is a NetworkError.
 */
export async function downloadApi<const E extends Endpoint>(e: E, ...[input, options = {}]: CallArgs<E, DownloadOptions>): Promise<DownloadedFile> {
  const { params, query } = (input ?? {}) as LooseInput;
  const headers: Record<string, string> = {};
  const token = authorize(headers);
  let response: Response;
  try {
    response = await fetch(buildUrl(pathOf(e, params), query), { method: e.method, headers, signal: options.signal });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new NetworkError((err as Error)?.message);
  }
  noteRefusal(response, token);
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let message: unknown;
    try {
      message = (JSON.parse(text) as { message?: unknown } | null)?.message;
    } catch {
      message = undefined;
    }
    throw new ApiError(response.status, parseErrorMessage(message), typeof message === 'string' ? message : `HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  const fileName = fileNameOf(response.headers.get('Content-Disposition'));
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  options.onProgress?.(0, total);
  try {
    if (!response.body) {
      const whole = new Uint8Array(await response.arrayBuffer());
      chunks.push(whole);
      received = whole.length;
    } else {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        received += value.length;
        options.onProgress?.(received, total);
      }
    }
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new NetworkError((err as Error)?.message);
  }
  return { blob: new Blob(chunks, { type }), fileName };
}

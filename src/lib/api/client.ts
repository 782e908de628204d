import { type ErrorKey, parseErrorMessage } from '#core/errors';
import { getSession } from '../session';

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

/** A call to the REST API with the session's bearer token; JSON in, JSON out. */
export async function apiFetch<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const { token } = getSession();
  if (token) headers.Authorization = `Bearer ${token}`;
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

/** Worth trying again later: no answer at all, or a server-side failure. */
export const isRetryable = (err: unknown): boolean =>
  err instanceof NetworkError || (err instanceof ApiError && err.status >= 500);

/** The catalogue key to show for a failed call, with a fallback. */
export function errorKeyOf(err: unknown, fallback: ErrorKey = 'server_error'): ErrorKey {
  return err instanceof ApiError && err.key ? err.key : fallback;
}

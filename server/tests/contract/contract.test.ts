import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { allEndpoints } from '#core/api/index';
import type { Endpoint } from '#core/api/endpoint';
import { OPENAPI_DOCS_PREFIX, OPENAPI_DOCUMENT_URL } from '../../src/plugins/openapi';
import { useTestApp } from '../helpers/test-app';

/**
 * The contract in core/api against the app's route table: every route under /api serves exactly
 * one contract entry, at the entry's method and path, and every entry is served. So a call the
 * web app makes through the contract always exists on the server, and no route answers outside it.
 */

interface Registered {
  method: string;
  url: string;
  endpoint: Endpoint | undefined;
}

const isDocumentation = (url: string) =>
  url === `/api${OPENAPI_DOCUMENT_URL}` || url === `/api${OPENAPI_DOCS_PREFIX}` || url.startsWith(`/api${OPENAPI_DOCS_PREFIX}/`);

const keyOf = (method: string, path: string) => `${method} ${path}`;

describe('the API contract', () => {
  const routes: Registered[] = [];
  useTestApp({}, {
    onRoute(route: RouteOptions) {
      if (!route.url.startsWith('/api/') || isDocumentation(route.url)) return;
      for (const method of ([] as string[]).concat(route.method)) {
        // Fastify adds a HEAD beside each GET; the GET is the call. An OPTIONS route answers a
        // browser's preflight before a cross-origin call, which is no call of its own.
        if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url, endpoint: route.config?.endpoint });
      }
    },
  });

  it('has a contract entry behind every route, at that entry\'s method and path', () => {
    expect(routes.length).toBeGreaterThan(0);
    const outside = routes.filter((r) => !r.endpoint).map((r) => keyOf(r.method, r.url));
    expect(outside).toEqual([]);
    const moved = routes
      .filter((r) => r.endpoint && (r.endpoint.method !== r.method || `/api${r.endpoint.path}` !== r.url))
      .map((r) => `${keyOf(r.method, r.url)} serves ${keyOf(r.endpoint!.method, r.endpoint!.path)}`);
    expect(moved).toEqual([]);
  });

  it('serves every contract entry exactly once', () => {
    const served = routes.map((r) => keyOf(r.method, r.url));
    const entries = allEndpoints().map((e) => keyOf(e.method, `/api${e.path}`));
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries.filter((entry) => !served.includes(entry))).toEqual([]);
    expect(served.filter((route, i) => served.indexOf(route) !== i)).toEqual([]);
  });

  it('names each entry\'s refusals without repeating one', () => {
    for (const e of allEndpoints()) {
      expect(new Set(e.errors).size, keyOf(e.method, e.path)).toBe(e.errors.length);
      expect(e.summary.trim(), keyOf(e.method, e.path)).not.toBe('');
    }
  });
});

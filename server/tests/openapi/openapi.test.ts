import { Validator } from '@seriousme/openapi-schema-validator';
import type { RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../../package.json' with { type: 'json' };
import { OPENAPI_DOCS_PREFIX, OPENAPI_DOCUMENT_URL } from '../../src/plugins/openapi';
import { useTestApp } from '../helpers/test-app';

/**
 * The OpenAPI document against the app's own route table: every route registered under /api
 * (collected as it is added, so a route added later is checked without touching this file) must
 * appear with its method and the reply schema of its success status.
 */

interface Operation {
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

interface ApiRoute {
  method: string;
  url: string;
  successStatuses: string[];
}

const DOCUMENT_URL = `/api${OPENAPI_DOCUMENT_URL}`;
const DOCS_URL = `/api${OPENAPI_DOCS_PREFIX}`;

/** The document and the reference page describe the API; they are not part of it. */
const isDocumentation = (url: string) => url === DOCUMENT_URL || url === DOCS_URL || url.startsWith(`${DOCS_URL}/`);

/** `/group/:name/ban/:pfp` as OpenAPI writes it: `/group/{name}/ban/{pfp}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** Every `$ref` anywhere in a value. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.push(child);
      else refsIn(child, found);
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  const routes: ApiRoute[] = [];
  const t = useTestApp({}, {
    onRoute(route: RouteOptions) {
      if (!route.url.startsWith('/api/') || isDocumentation(route.url)) return;
      const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
      const successStatuses = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
      // HEAD routes are the ones Fastify adds beside each GET; the document lists the GET. OPTIONS
      // routes answer browsers' preflights, no call of the API, and the document leaves them out.
      for (const method of ([] as string[]).concat(route.method)) {
        if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url, successStatuses });
      }
    },
  });
  let doc: OpenApiDocument;

  beforeAll(async () => {
    const res = await t.app.inject({ method: 'GET', url: DOCUMENT_URL });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
  });

  it('is OpenAPI 3.1 with the app name, its version and a bearer scheme', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: 'Kruh', version: packageJson.version });
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\/api\//);
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\/[^/]+$/);
      expect(doc.components.schemas?.[ref.split('/').pop() ?? '']).toBeDefined();
    }
  });

  it('uses JSON Schema as 3.1 does: null is a type, never the older nullable flag', () => {
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
  });

  it('sees the routes of every feature', () => {
    // A guard on the collection itself: an empty route list would pass the checks below.
    expect(routes.length).toBeGreaterThan(80);
    expect(routes).toContainEqual(expect.objectContaining({ method: 'PUT', url: '/api/group/:name/ban/:pfp' }));
  });

  it('lists every /api route with its method and the reply schema of its success status', () => {
    const problems: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const operation = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!operation) {
        problems.push(`${name} is missing`);
        continue;
      }
      if (route.successStatuses.length === 0) problems.push(`${name} declares no success reply`);
      for (const status of route.successStatuses) {
        const response = operation.responses?.[status];
        if (!response) problems.push(`${name} has no ${status} reply`);
        // 204 carries no body, so it has nothing to describe.
        else if (status !== '204' && !Object.values(response.content ?? {}).some((media) => media.schema !== undefined)) {
          problems.push(`${name} has no schema for its ${status} reply`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists nothing the app does not serve', () => {
    const served = new Set(routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`));
    const listed = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(listed.filter((operation) => !served.has(operation))).toEqual([]);
  });
});

describe('the browsable reference', () => {
  const t = useTestApp();

  it('serves its page under a policy of its own, leaving the app its stricter one', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${DOCS_URL}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger-ui-bundle.js');
    const docsPolicy = String(page.headers['content-security-policy']);
    expect(docsPolicy).toContain("script-src 'self';");
    expect(docsPolicy).not.toContain('accounts.google.com');

    const api = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(api.headers['content-security-policy']).toContain('https://accounts.google.com/gsi/client');
  });

  it('serves its files and the document without letting anything keep them', async () => {
    for (const url of [DOCS_URL, `${DOCS_URL}/static/swagger-ui-bundle.js`, `${DOCS_URL}/static/swagger-ui.css`, DOCUMENT_URL]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });
});

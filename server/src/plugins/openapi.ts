import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { noStoreOnApi } from './security.js';
import packageJson from '../../../package.json' with { type: 'json' };

/** Where the document and its browsable reference are served, inside the /api prefix. */
export const OPENAPI_DOCUMENT_URL = '/openapi.json';
export const OPENAPI_DOCS_PREFIX = '/docs';

/**
 * The reference page loads only its own bundled script, styles and images (some as data: URLs),
 * and calls the API on this origin. Its policy is set on its own routes alone, so the web app
 * keeps the tighter one from the security plugin; Google sign-in and Tenor have no place here.
 */
const DOCS_CSP = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  // Swagger UI sets style attributes on the elements it draws.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'self'"],
};

/**
 * The OpenAPI 3.1 document, built by @fastify/swagger from the TypeBox schemas every route already
 * declares, so it cannot drift from what the routes validate and send. Registered in the /api
 * scope before the feature routes, so it sees each of them as it is added.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'Kruh', description: packageJson.description, version: packageJson.version },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
        // Most calls read the optional session and answer more to a signed-in caller.
        security: [{ bearerAuth: [] }, {}],
      },
      // A schema with its own $id (the recursive comment node) keeps that name in components.
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    });

    app.get(OPENAPI_DOCUMENT_URL, { schema: { hide: true } }, async () => app.swagger());

    await app.register(async (docs) => {
      // The reference's bundled files come with their own caching header; like every /api answer
      // they are not kept, so a deploy never leaves an old page beside a new document.
      docs.addHook('onSend', async (request, reply) => noStoreOnApi(request, reply));
      await docs.register(swaggerUi, {
        routePrefix: OPENAPI_DOCS_PREFIX,
        staticCSP: DOCS_CSP,
        // The validator badge would send the whole document to a third party.
        uiConfig: { validatorUrl: null },
      });
    });
  },
  { name: 'openapi' },
);

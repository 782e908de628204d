import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ClientError, type NewClientApp, clientApi } from '#core/api/client';
import type { Endpoint } from '#core/api/endpoint';
import { contextOf } from '../../lib/service-context.js';
import { registerApp } from './apps.service.js';
import { acceptForms, answerClientErrors, untypedRoute } from './client-errors.js';
import { instanceFacts } from './instance-facts.js';
import { instanceV1, instanceV2, rulesOf } from './instance.mapper.js';
import { verifyCredentialsRoutes } from './verify-credentials.routes.js';

/** Every refusal of the adapter in its own shape. */
const CLIENT_ERRORS = { 400: ClientError, 401: ClientError, 403: ClientError, 404: ClientError, 409: ClientError, 422: ClientError, 429: ClientError } as const;

/** The route of an entry with the adapter's refusals. */
const entityRoute = (e: Endpoint) => untypedRoute(e, CLIENT_ERRORS);

/**
 * The client API fediverse apps speak (under /api/v1 and /api/v2), a third adapter over the same
 * services as the REST API and the ActivityPub inbox. Its own scope holds its error shape and forms.
 */
export const clientApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  answerClientErrors(app);
  acceptForms(app);

  app.route({ ...entityRoute(clientApi.instanceV1), handler: async () => instanceV1(await instanceFacts(contextOf(app))) });
  app.route({ ...entityRoute(clientApi.instanceV2), handler: async () => instanceV2(await instanceFacts(contextOf(app))) });
  app.route({ ...entityRoute(clientApi.rules), handler: async () => rulesOf(await instanceFacts(contextOf(app))) });
  app.route({ ...entityRoute(clientApi.registerApp), handler: async (request) => registerApp(contextOf(app), request.body as NewClientApp) });
  await app.register(verifyCredentialsRoutes);
};

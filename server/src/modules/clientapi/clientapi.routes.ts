import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type NewClientApp, clientApi } from '#core/api/client';
import { contextOf } from '../../lib/service-context.js';
import { registerApp, verifiedApp } from './apps.service.js';
import { callingAppId } from './client-caller.js';
import { acceptForms, answerClientErrors } from './client-errors.js';
import { acceptNumericFlags } from './client-flags.js';
import { allowCrossOrigin } from './cross-origin.js';
import { entityRoute } from './client-route.js';
import { accountRoutes } from './accounts.routes.js';
import { statusRoutes } from './statuses.routes.js';
import { timelineRoutes } from './timelines.routes.js';
import { startupRoutes } from './startup.routes.js';
import { statusWriteRoutes } from './statuses-write.routes.js';
import { accountActionRoutes } from './account-actions.routes.js';
import { searchRoutes } from './search.routes.js';
import { instanceFacts } from './instance-facts.js';
import { instanceV1, instanceV2, rulesOf } from './instance.mapper.js';
import { credentialsRoutes } from './credentials.routes.js';
import { clientMediaRoutes } from './media.routes.js';

/** An area of the client API a module that reacts to the others holds (notifications), added by the root. */
export type ClientArea = (app: FastifyInstance) => void;

/**
 * The client API fediverse apps speak (under /api/v1 and /api/v2), a third adapter over the same
 * services as the REST API and the ActivityPub inbox. Its own scope holds its error shape, its forms
 * and the cross-origin answers browser apps need; `areas` are added in it too.
 */
export const clientApiWith = (...areas: ClientArea[]): FastifyPluginAsyncTypebox => async (app) => {
  answerClientErrors(app);
  acceptForms(app);
  acceptNumericFlags(app);
  // Web clients page with the Link header, so they must be let read it.
  allowCrossOrigin(app, ['/v1/*', '/v2/*'], { methods: 'GET, POST, PUT, PATCH, DELETE, OPTIONS', expose: 'Link' });

  const firstInstance = async () => instanceV1(await instanceFacts(contextOf(app)));
  app.route({ ...entityRoute(clientApi.instanceV1), handler: firstInstance });
  app.route({ ...entityRoute(clientApi.instanceV1Slashed), handler: firstInstance });
  app.route({ ...entityRoute(clientApi.instanceV2), handler: async () => instanceV2(await instanceFacts(contextOf(app))) });
  app.route({ ...entityRoute(clientApi.rules), handler: async () => rulesOf(await instanceFacts(contextOf(app))) });
  app.route({ ...entityRoute(clientApi.registerApp), handler: async (request) => registerApp(contextOf(app), request.body as NewClientApp) });
  app.route({ ...entityRoute(clientApi.verifyApp), handler: async (request) => verifiedApp(contextOf(app), await callingAppId(request)) });
  await app.register(credentialsRoutes);
  await app.register(clientMediaRoutes);
  // The reads, each area in a file of its own, in this scope so they share its refusals and forms.
  accountRoutes(app);
  statusRoutes(app);
  timelineRoutes(app);
  startupRoutes(app);
  statusWriteRoutes(app);
  accountActionRoutes(app);
  searchRoutes(app);
  for (const area of areas) area(app);
};

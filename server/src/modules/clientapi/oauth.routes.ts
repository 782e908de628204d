import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { oauthApi } from '#core/api/oauth';
import { actionRoute, viewerRoute } from '../../lib/handlers.js';
import { contextOf } from '../../lib/service-context.js';
import { authorizations, decide, prompt, revokeAuthorization } from './oauth.service.js';

/**
 * Kruh's own calls behind signing apps in: the consent screen's (what the app asks; the person's
 * answer) and the account's list of apps let in. Signed-in calls of the web app, in Kruh's shapes;
 * the endpoints the apps call themselves are in oauth-endpoints.routes.ts.
 */
export const oauthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route(viewerRoute(oauthApi.prompt, (request, viewer) => prompt(contextOf(app), viewer, request.query)));
  app.route(viewerRoute(oauthApi.decide, (request, viewer) => decide(contextOf(app), viewer, request.body)));
  app.route(viewerRoute(oauthApi.authorizations, (_request, viewer) => authorizations(contextOf(app), viewer)));
  app.route(actionRoute(oauthApi.revokeAuthorization, 'app_revoked', (request, viewer) => revokeAuthorization(contextOf(app), viewer, request.params.id)));
};

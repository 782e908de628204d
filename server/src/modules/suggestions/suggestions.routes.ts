import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { suggestionsApi } from '#core/api/suggestions';
import { viewerRoute } from '../../lib/handlers.js';
import { contextOf } from '../../lib/service-context.js';
import * as service from './suggestions.service.js';

/** Accounts to follow and groups to join, for a signed-in caller. */
export const suggestionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route(viewerRoute(suggestionsApi.users, (_request, viewer) => service.suggestUsers(ctx, viewer)));
  app.route(viewerRoute(suggestionsApi.groups, (_request, viewer) => service.suggestGroups(ctx, viewer)));
};

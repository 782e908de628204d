import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { peopleApi } from '#core/api/people';
import { actionRoute, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import * as service from './people.service.js';

/** /people: the instance's accounts for its moderators, and the moderator role. */
export const peopleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route(viewerRoute(peopleApi.list, (request, viewer) => service.listPeople(contextOf(app), viewer, request.query)));
  const roleRoute = (e: typeof peopleApi.grantModerator | typeof peopleApi.revokeModerator, moderator: boolean) =>
    actionRoute(e, moderator ? 'moderator_granted' : 'moderator_revoked', (request, viewer) =>
      inNewTransaction(app, (ctx) => service.setModerator(ctx, viewer, { userId: request.params.userId, moderator })),
    );
  app.route(roleRoute(peopleApi.grantModerator, true));
  app.route(roleRoute(peopleApi.revokeModerator, false));
};

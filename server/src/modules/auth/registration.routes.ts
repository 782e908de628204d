import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registrationApi } from '#core/api/registration';
import { routeOf } from '../../lib/contract.js';
import { actionRoute, message, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import * as service from './registration.service.js';

/**
 * GET and PUT /registration: how new accounts come in; the applications waiting for approval and
 * their decisions; invite links, listed, made and revoked by their makers.
 */
export const registrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...routeOf(registrationApi.settings), handler: async () => service.registrationSettings(app.db, app.config) });
  app.route(actionRoute(registrationApi.update, 'registration_updated', (request, viewer) => service.updateRegistration(contextOf(app), viewer, request.body)));

  app.route(viewerRoute(registrationApi.applications, (request, viewer) => service.applications(contextOf(app), viewer, request.query)));
  app.route(
    viewerRoute(registrationApi.decide, async (request, viewer) => {
      const input = { userId: request.params.userId, decision: request.body.decision };
      return message(await inNewTransaction(app, (ctx) => service.decide(ctx, viewer, input)));
    }),
  );

  app.route(viewerRoute(registrationApi.invites, (request, viewer) => service.invites(contextOf(app), viewer, request.query)));
  app.route({
    ...routeOf(registrationApi.createInvite),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      const invite = await inNewTransaction(app, (ctx) => service.createInvite(ctx, viewer, request.body));
      return reply.status(201).send(invite);
    },
  });
  app.route(actionRoute(registrationApi.revokeInvite, 'invite_revoked', (request, viewer) => service.revokeInvite(contextOf(app), viewer, request.params.inviteId)));

  app.addHook('onReady', async () => {
    const { mode } = await service.registrationSettings(app.db, app.config);
    const from = (await service.registrationSettingsStored(app.db)) ? 'set by the moderators' : 'REGISTRATION_MODE';
    app.log.info({ registrationMode: mode }, `registration ${mode} (${from})`);
  });
};

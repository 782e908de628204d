import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authApi } from '#core/api/auth';
import { passkeysApi } from '#core/api/passkeys';
import { routeOf } from '../../lib/contract.js';
import { actionRoute, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import * as service from './passkeys.service.js';

/** Adding, listing and removing the caller's passkeys, and signing in with one. */
export const passkeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route(
    viewerRoute(passkeysApi.registrationOptions, (request, viewer) =>
      inNewTransaction(app, (ctx) => service.registrationOptions(ctx, viewer, service.relyingPartyOf(app, request))),
    ),
  );

  app.route({
    ...routeOf(passkeysApi.register),
    handler: async (request, reply) => {
      const viewer = await request.requireViewer();
      return reply.status(201).send(await service.register(ctx, viewer, request.body));
    },
  });

  app.route(viewerRoute(passkeysApi.list, async (_request, viewer) => ({ passkeys: await service.list(ctx, viewer) })));

  app.route(actionRoute(passkeysApi.remove, 'passkey_removed', (request, viewer) => service.remove(ctx, viewer, request.params.id)));

  // Signing in with a passkey: the passkeys service checks the browser's answer, then admits the
  // account as the password login does.
  app.route({
    ...routeOf(authApi.passkeyOptions),
    handler: async (request) => inNewTransaction(app, (ctx) => service.loginOptions(ctx, { rp: service.relyingPartyOf(app, request), ip: request.ip })),
  });

  app.route({
    ...routeOf(authApi.passkeyLogin),
    handler: async (request) => service.login(ctx, request.body),
  });
};

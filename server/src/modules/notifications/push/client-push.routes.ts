import type { FastifyInstance } from 'fastify';
import { type ClientPushBody, clientPushApi } from '#core/api/client-push';
import { contextOf, inNewTransaction } from '../../../lib/service-context.js';
import { requireCaller } from '../../clientapi/client-caller.js';
import { entityRoute } from '../../clientapi/client-route.js';
import { checkClientDevice, clientSubscription, subscribeClient, unsubscribeClient, updateClientSubscription } from './client-push.service.js';

/**
 * Web Push for fediverse apps: the access token's subscription made, read, changed and removed,
 * each with the `push` scope. Added to the client API's scope by the composition root, since no
 * module imports notifications.
 */
export function clientPushRoutes(app: FastifyInstance): void {
  const ctx = contextOf(app);
  app.route({
    ...entityRoute(clientPushApi.create),
    handler: async (request) => {
      const caller = await requireCaller(request, 'push');
      const body = request.body as ClientPushBody;
      // The endpoint's name is resolved before the transaction, so no lock waits on DNS.
      const device = await checkClientDevice(app, body);
      return inNewTransaction(app, (trx) => subscribeClient(trx, caller, device, body));
    },
  });
  app.route({
    ...entityRoute(clientPushApi.fetch),
    handler: async (request) => clientSubscription(ctx, await requireCaller(request, 'push')),
  });
  app.route({
    ...entityRoute(clientPushApi.update),
    handler: async (request) => updateClientSubscription(ctx, await requireCaller(request, 'push'), request.body as ClientPushBody),
  });
  app.route({
    ...entityRoute(clientPushApi.remove),
    handler: async (request) => unsubscribeClient(ctx, await requireCaller(request, 'push')),
  });
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pushApi } from '#core/api/push';
import { routeOf } from '../../../lib/contract.js';
import { actionRoute } from '../../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../../lib/service-context.js';
import * as service from './push.service.js';

/** Web Push: the instance's public key, and a device's subscription added or removed. */
export const pushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...routeOf(pushApi.key), handler: async () => ({ key: app.vapidKeys.publicKey }) });
  app.route(
    actionRoute(pushApi.subscribe, 'push_subscribed', async (request, viewer) => {
      const subscription = await service.checkSubscription(app, request.body);
      await inNewTransaction(app, (ctx) => service.subscribe(ctx, viewer, subscription));
    }),
  );
  app.route(actionRoute(pushApi.unsubscribe, 'push_unsubscribed', (request, viewer) => service.unsubscribe(contextOf(app), viewer, request.body.endpoint)));
};

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { VapidKeys } from '../../../lib/vapid-keys.js';
import { loadVapidKeys } from './vapid.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The VAPID pair this instance signs its pushes with (see vapid.ts). */
    vapidKeys: VapidKeys;
  }
}

/**
 * Web Push's keys, read (and the first time generated) at start, so the key the browsers are
 * given never changes while the app runs and every process on the database gives the same one.
 */
export const pushPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('vapidKeys', await loadVapidKeys(app.db, app.config.vapid));
  },
  { name: 'push', dependencies: ['database'] },
);

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Egress, type Resolver } from '../lib/egress/egress.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The guard every request to a URL from outside goes through (lib/egress). */
    egress: Egress;
  }
}

export const egressPlugin = fp(
  async (app: FastifyInstance, opts: { resolve?: Resolver }) => {
    const egress = new Egress(opts.resolve);
    app.decorate('egress', egress);
    app.addHook('onClose', async () => egress.close());
  },
  { name: 'egress' },
);

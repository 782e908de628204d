import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LocalMediaStorage, type MediaStorage } from '../lib/storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    storage: MediaStorage;
  }
}

export const storagePlugin = fp(
  async (app: FastifyInstance, opts: { storage?: MediaStorage }) => {
    app.decorate('storage', opts.storage ?? new LocalMediaStorage(join(app.config.dataDir, 'media')));
  },
  { name: 'storage', dependencies: ['database'] },
);

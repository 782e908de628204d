import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/database.js';
import type { Db } from '../db/schema.js';
import type { Config } from '../config.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
  }
}

/** Exposes the config and an already-migrated database; the app owns closing it. */
export const databasePlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; database: DatabaseHandle; closeDatabase: boolean }) => {
    app.decorate('config', opts.config);
    app.decorate('db', opts.database.db);
    if (opts.closeDatabase) app.addHook('onClose', async () => opts.database.close());
  },
  { name: 'database' },
);

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle, Dialect } from '../db/database.js';
import type { Db } from '../db/schema.js';
import type { Config } from '../config.js';
import { useSearchDialect } from '../lib/search.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: Dialect;
  }
}

/** Exposes the config and an already-migrated database; the app owns closing it. */
export const databasePlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; database: DatabaseHandle; closeDatabase: boolean }) => {
    app.decorate('config', opts.config);
    app.decorate('db', opts.database.db);
    app.decorate('dialect', opts.database.dialect);
    useSearchDialect(opts.database.dialect);
    if (opts.closeDatabase) app.addHook('onClose', async () => opts.database.close());
  },
  { name: 'database' },
);

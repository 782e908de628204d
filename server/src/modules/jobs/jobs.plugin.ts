import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PgListener } from './pg-listener';
import { JobWorker } from './worker';

/**
 * Starts the job worker once the app is ready when config.runWorker is set, and stops it on
 * close: a stop mid-job hands the job back, so another process resumes it at once.
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance) => {
    if (!app.config.runWorker) return;
    const listener = app.dialect === 'postgres' && app.config.databaseUrl ? new PgListener(app.config.databaseUrl, app.log) : null;
    const worker = new JobWorker(app, listener);
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => {
      await worker.stop();
      await listener?.close();
    });
  },
  { name: 'jobs', dependencies: ['database'] },
);

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JOB_HANDLERS, jobConcurrency } from './handlers.js';
import { pgListenerFor } from './pg-listener.js';
import { JobWorker } from './worker.js';

/**
 * Registers what runs each kind of job as `app.jobHandlers`, and how many of a kind run at once as
 * `app.jobConcurrency`, always, since tests and the bench run due jobs themselves. With config.runWorker it also starts the job worker once the app is ready,
 * and stops it on close: a stop mid-job hands the job back, so another process resumes it at once.
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('jobHandlers', JOB_HANDLERS);
    app.decorate('jobConcurrency', jobConcurrency(app.config));
    if (!app.config.runWorker) return;
    const listener = pgListenerFor(app);
    const worker = new JobWorker(app, listener);
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => {
      await worker.stop();
      await listener?.close();
    });
  },
  { name: 'jobs', dependencies: ['database'] },
);

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JobConcurrency, JobHandlers, RecurringJob } from './job-handler.js';
import { pgListenerFor } from './pg-listener.js';
import { JobWorker } from './worker.js';

/** The job kinds the app runs, handed in by the composition root (server/src/jobs.ts). */
export interface JobsOptions {
  handlers: JobHandlers;
  concurrency: JobConcurrency;
  recurring: readonly RecurringJob[];
}

/**
 * Registers what runs each kind of job as `app.jobHandlers`, how many of a kind run at once as
 * `app.jobConcurrency` and the recurring jobs a worker seeds as `app.recurringJobs`, always, since
 * tests and the bench run due jobs themselves. With config.runWorker it also starts the job worker
 * once the app is ready, and stops it on close: a stop mid-job hands the job back, so another process
 * resumes it at once.
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance, options: JobsOptions) => {
    app.decorate('jobHandlers', options.handlers);
    app.decorate('jobConcurrency', options.concurrency);
    app.decorate('recurringJobs', options.recurring);
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

import type { FastifyInstance } from 'fastify';
import { newTransaction } from '../db/helpers.js';
import type { Executor } from '../db/schema.js';

/**
 * What every service a route calls receives first. `db` is the executor the work runs on: the
 * pool for a read, or the transaction the route opened (with `runOnce` or `inNewTransaction`) for a
 * write, so the route, not the service, decides where a transaction begins and ends. `app` gives
 * the settings, the media store, the job queue and the rest of the app's parts.
 *
 * The convention for a route-facing service is `(ctx, viewer, input)`: the context, the caller
 * (`Viewer`, or `Viewer | null` where a visitor may call), and one input value (an id, or an object
 * for several fields), with the access check first.
 */
export interface ServiceContext {
  readonly app: FastifyInstance;
  readonly db: Executor;
}

/** The context of a request's work: on the pool, or on a transaction the route opened. */
export function contextOf(app: FastifyInstance, db: Executor = app.db): ServiceContext {
  return { app, db };
}

/** Runs a route's change on a new transaction, handing the service that transaction's context. */
export function inNewTransaction<T>(app: FastifyInstance, change: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  return newTransaction(app.db, (trx) => change(contextOf(app, trx)));
}

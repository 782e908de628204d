import { EventEmitter } from 'node:events';

/**
 * In-process "a job was enqueued" signal: the worker of this process wakes at once instead of on
 * its next poll. Other processes learn of new jobs through PostgreSQL NOTIFY (see worker.ts).
 */
const emitter = new EventEmitter();
emitter.setMaxListeners(0);

export const JOBS_CHANNEL = 'kruh_jobs';

export function signalJobEnqueued(): void {
  emitter.emit('enqueued');
}

export function onJobEnqueued(listener: () => void): () => void {
  emitter.on('enqueued', listener);
  return () => emitter.off('enqueued', listener);
}

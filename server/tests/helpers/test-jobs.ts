import type { Executor } from '../../src/db/schema';
import { type JobAddress, enqueueJob } from '../../src/lib/jobs/queue';

/**
 * enqueueJob for the kinds a test makes up, and for a kind nothing handles: the app's kinds are
 * typed by their payload (JobPayloads), these have none.
 */
export const enqueueTestJob: (db: Executor, kind: string, payload: unknown, now?: number, address?: JobAddress | null) => Promise<void> = enqueueJob as never;

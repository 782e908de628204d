import { getDb } from '../src/lib/db/db';
import { mirroredSession } from '../src/lib/outbox/background-sync';
import { drainOutbox, makeFailedDue } from '../src/lib/outbox/outbox';
import { adoptWorkerSession } from '../src/lib/session-store';

/**
 * The service worker's side of Background Sync: send the logged-in account's outbox as the page
 * would. The sync event is the browser saying the network is back, so items waiting out a backoff
 * are due now. A refused item is left for the page to give back with its error. When items still
 * wait for the network, the returned promise rejects, and the browser fires the event again later.
 */
export async function syncOutbox(): Promise<void> {
  const session = await mirroredSession();
  if (!session?.token) return;
  adoptWorkerSession(session);
  const db = getDb();
  await makeFailedDue(db);
  await drainOutbox(db, { inWorker: true });
  const first = await db.outbox.orderBy('seq').first();
  if (first && first.status !== 'refused') throw new Error('outbox: items still wait for the network');
}

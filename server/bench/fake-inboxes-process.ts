/**
 * The fake remote servers of `npm run bench:federation` in a process of their own, so checking
 * signatures takes nothing from the load generator's timing. Driven over IPC: `start` (the plans)
 * answers the servers, `trust` names the origin whose keys are believed (the instance, started
 * once the servers have their ports), `report` answers the counts, `close` ends it.
 */
import { type FakeInboxes, type ServerPlan, startFakeInboxes } from './fake-inboxes';

export type Command = { type: 'start'; plans: ServerPlan[] } | { type: 'trust'; origin: string } | { type: 'report' } | { type: 'close' };

let inboxes: FakeInboxes | undefined;
let trustedOrigin: string | null = null;

process.on('message', (command: Command) => {
  void (async () => {
    switch (command.type) {
      case 'start':
        inboxes = await startFakeInboxes({ plans: command.plans, trusted: (url) => url.origin === trustedOrigin });
        process.send!({ type: 'started', servers: inboxes.servers });
        return;
      case 'trust':
        trustedOrigin = command.origin;
        process.send!({ type: 'trusted' });
        return;
      case 'report':
        process.send!({ type: 'report', report: inboxes?.report() });
        return;
      case 'close':
        await inboxes?.close();
        process.disconnect();
        return;
    }
  })().catch((err: unknown) => {
    process.send!({ type: 'error', message: (err as Error).stack ?? String(err) });
  });
});

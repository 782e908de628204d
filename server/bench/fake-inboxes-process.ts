/**
 * The fake remote servers of `npm run bench:federation` in a process of their own, so checking
 * signatures takes nothing from the load generator's timing. Driven over IPC: `start` (the plans and
 * the origin whose keys are trusted) answers the servers, `report` the counts, `close` ends it.
 */
import { type FakeInboxes, type ServerPlan, startFakeInboxes } from './fake-inboxes';

export type Command = { type: 'start'; plans: ServerPlan[]; trustedOrigin: string } | { type: 'report' } | { type: 'close' };

let inboxes: FakeInboxes | undefined;

process.on('message', (command: Command) => {
  void (async () => {
    switch (command.type) {
      case 'start':
        inboxes = await startFakeInboxes({ plans: command.plans, trusted: (url) => url.origin === command.trustedOrigin });
        process.send!({ type: 'started', servers: inboxes.servers });
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

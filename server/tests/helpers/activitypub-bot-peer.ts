import { fileURLToPath } from 'node:url';
import type { PeerCommand, PeerReply } from './activitypub-bot/protocol';
import type { KruhInstance } from './kruh-instance';
import { type ServerProcess, startServerProcess, typeScriptServerArgs } from './server-process';

/**
 * @evanp/activitypub-bot, an ActivityPub server no one here wrote, run as a process of its own with
 * one bot, `peer` (activitypub-bot/peer-process.ts). Its address is `http://localhost:<port>`: plain
 * http to this machine is what the instance may reach in tests. It reaches the instance over https,
 * trusting the test's certificate authority, at the ports `routes` names for `host:443`.
 */
export interface BotPeer {
  origin: string;
  /** `localhost:<port>`, the host of its handles. */
  host: string;
  /** The bot's actor IRI. */
  actorId: string;
  /** `@peer@localhost:<port>`, as a user of the instance types it. */
  handle: string;
  /** Runs one of the bot's commands in its process and answers what it returned. */
  call<C extends PeerCommand['command']>(command: C, ...args: Extract<PeerCommand, { command: C }>['args']): Promise<unknown>;
  /** Everything the process wrote, to show when a step fails. */
  output(): string;
  stop(): Promise<void>;
}

export interface BotPeerOptions {
  /** `host:443` → the port on 127.0.0.1 its https requests to that host go to. */
  routes: Record<string, number>;
  /** The certificate authority it trusts besides the system's (NODE_EXTRA_CA_CERTS). */
  caFile: string;
  cwd: string;
}

export async function startBotPeer(options: BotPeerOptions): Promise<BotPeer> {
  const entry = fileURLToPath(new URL('./activitypub-bot/peer-process.ts', import.meta.url));
  // Node with tsx, as the server's own process is started, on the bot's entry instead of the server's.
  const [importFlag, tsx] = typeScriptServerArgs();
  const server: ServerProcess = await startServerProcess([importFlag!, tsx!, entry], {
    cwd: options.cwd,
    env: {
      NODE_EXTRA_CA_CERTS: options.caFile,
      BOT_ROUTES: JSON.stringify(options.routes),
      BOT_HOSTNAME: 'localhost',
      BOT_LOG_LEVEL: process.env.BOT_LOG_LEVEL ?? 'error',
    },
    readyPath: '/livez',
    ipc: true,
  });
  const { port } = new URL(server.url);
  const origin = `http://localhost:${port}`;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  server.child.on('message', (reply: PeerReply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if ('error' in reply) waiting?.reject(new Error(`the bot failed: ${reply.error}`));
    else waiting?.resolve(reply.result);
  });
  server.child.on('exit', () => {
    for (const waiting of pending.values()) waiting.reject(new Error(`the bot's process ended:\n${server.output()}`));
    pending.clear();
  });
  return {
    origin,
    host: `localhost:${port}`,
    actorId: `${origin}/user/peer`,
    handle: `@peer@localhost:${port}`,
    call: (command, ...args) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        server.child.send({ id, command, args });
      }),
    output: server.output,
    stop: server.stop,
  };
}

/**
 * Lets both sides finish what they started: the instance runs its due jobs (deliveries among them)
 * and the bot empties its queues, until a round in which the instance had nothing left to do.
 */
export async function settleWithPeer(kruh: KruhInstance, peer: BotPeer): Promise<void> {
  for (let round = 0; round < 10; round++) {
    await peer.call('idle');
    if ((await kruh.runJobs()) === 0) return;
  }
  throw new Error('the instance and the bot are still sending each other activities after 10 rounds');
}

import { createServer } from 'node:http';
import https from 'node:https';
import { registerHooks } from 'node:module';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AsObject, BotContext } from '@evanp/activitypub-bot';
import { backportActivityStreams } from './activitystreams-backport';
import type { Json, PeerCommand, PeerReply, PeerRequest } from './protocol';

/**
 * The process the federation suite runs @evanp/activitypub-bot in (activitypub-bot-peer.ts starts
 * it): one bot, `peer`, on an in-memory SQLite database, listening on HOST:PORT, its public address
 * `http://BOT_HOSTNAME:PORT`. The test tells it what to do over the process's IPC channel
 * (protocol.ts), each command a call of the bot's own in-process API, as a bot's code would make it.
 *
 * Its https requests go where BOT_ROUTES says (`host:port` → a port on 127.0.0.1): the test's names
 * stand for servers on this machine, as DNS would point them; a host it does not name is refused.
 * It trusts the test's certificate authority through NODE_EXTRA_CA_CERTS, read at start.
 */

// The bot's database layer loads the `sqlite3` package, whose native part is not built.
const shim = new URL('./sqlite3-shim.ts', import.meta.url).href;
registerHooks({
  resolve: (specifier, context, next) => (specifier === 'sqlite3' ? { url: shim, shortCircuit: true } : next(specifier, context)),
});
backportActivityStreams();

const routes = new Map(Object.entries(JSON.parse(process.env.BOT_ROUTES ?? '{}') as Record<string, number>));

class RoutedAgent extends https.Agent {
  override createConnection(options: https.RequestOptions & { servername?: string }, callback?: (error: Error | null, socket: Duplex) => void) {
    const port = routes.get(`${options.host}:${options.port}`);
    if (port === undefined) throw new Error(`the test's bot does not reach ${options.host}:${options.port}`);
    return super.createConnection({ ...options, host: '127.0.0.1', port, servername: options.servername ?? options.host ?? undefined }, callback);
  }
}
// The bot sends through the global agent when it may reach private addresses (as here).
https.globalAgent = new RoutedAgent({ keepAlive: true });

const { makeApp, DoNothingBot } = await import('@evanp/activitypub-bot');

/** Every activity handed to the bot, as the bot read it (compacted JSON-LD), in order. */
const received: Json[] = [];
/** Every request the bot answered, with whose signature of it the bot verified. */
const requests: PeerRequest[] = [];

class PeerBot extends DoNothingBot {
  get context(): BotContext {
    return this._context;
  }

  /** Called with each activity before the bot's own handling, which it leaves to run. */
  override async handleActivity(activity: AsObject): Promise<boolean> {
    received.push(await activity.export());
    return false;
  }
}

const bot = new PeerBot('peer', { fullname: 'Peer', description: 'The independent ActivityPub server of the federation tests.' });
const app = await makeApp({
  databaseUrl: 'sqlite::memory:',
  origin: `http://${process.env.BOT_HOSTNAME ?? 'localhost'}:${process.env.PORT}`,
  bots: { peer: bot },
  logLevel: process.env.BOT_LOG_LEVEL ?? 'warn',
  // One of each is plenty for one bot, and keeps its polling light on a shared machine.
  deliveryWorkerCount: 1,
  distributionWorkerCount: 1,
  fanoutWorkerCount: 1,
  intakeWorkerCount: 1,
  allowPrivateNetworkRequests: true,
});

const context = () => bot.context;

/**
 * Nothing to take in or send out now: no job waiting or running. Those set aside for a retry later
 * do not count (a refused delivery waits seconds for its next try); `troubles` lists them.
 */
async function idle(): Promise<void> {
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    const [due] = await app.locals.connection.query<{ n: number }>('SELECT COUNT(*) AS n FROM job WHERE retry_after IS NULL OR retry_after <= ?', {
      replacements: [new Date()],
      type: 'SELECT',
    });
    if (Number(due?.n) === 0) return;
    await sleep(delay);
  }
}

/** The jobs that failed: set aside for a retry, or given up. Deliveries among them name their inbox. */
const troubles = () =>
  app.locals.connection.query<{ queue_id: string; payload: string; last_error: string | null }>(
    `SELECT queue_id, payload, last_error FROM job WHERE retry_after > ?
     UNION ALL SELECT queue_id, payload, last_error FROM failed_job`,
    { replacements: [new Date()], type: 'SELECT' },
  );

async function object(id: string) {
  const found = await context().getObject(id);
  if (!found) throw new Error(`the bot found nothing at ${id}`);
  return found;
}

const commands: { [C in PeerCommand['command']]: (...args: Extract<PeerCommand, { command: C }>['args']) => Promise<unknown> } = {
  idle,
  troubles,
  actorIdOf: (handle) => context().toActorId(handle),
  // Written with the context it was read with: a key's properties are in the security vocabulary.
  fetch: async (id) => (await object(id)).export({ useOriginalContext: true }),
  follow: async (actorId) => (await context().followActor(await object(actorId))).export(),
  unfollow: async (actorId) => (await context().unfollowActor(await object(actorId))).export(),
  isFollowing: async (actorId) => context().isFollowing(await object(actorId)),
  isFollower: async (actorId) => context().isFollower(await object(actorId)),
  note: async (content, addressing) => (await context().sendNote(content, addressing)).export(),
  reply: async (content, inReplyTo) => (await context().sendReply(content, await object(inReplyTo))).export(),
  like: async (id) => (await context().likeObject(await object(id))).export(),
  received: async () => received,
  requests: async () => requests,
};

process.on('message', (message: { id: number } & PeerCommand) => {
  const run = commands[message.command] as (...args: unknown[]) => Promise<unknown>;
  run(...message.args).then(
    (result) => process.send!({ id: message.id, result: result ?? null } satisfies PeerReply),
    (error: Error) => process.send!({ id: message.id, error: error.stack ?? String(error) } satisfies PeerReply),
  );
});

const server = createServer((request, response) => {
  response.on('finish', () => {
    const signer = (request as { auth?: { subject?: string } }).auth?.subject ?? null;
    const signed = Boolean(request.headers.signature || request.headers['signature-input']);
    const body = (request as { rawBodyText?: string }).rawBodyText ?? '';
    requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body, status: response.statusCode, signed, signer });
  });
  app(request, response);
});
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');

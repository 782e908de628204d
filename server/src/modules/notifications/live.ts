import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Executor } from '../../db/schema.js';
import { dialectOf, notify } from '../../db/dialect.js';
import { type PgListener, pgListenerFor } from '../../lib/jobs/pg-listener.js';

export const NOTIFICATIONS_CHANNEL = 'kruh_notifications';
/** Ids per NOTIFY payload: 25 bytes each stays well under PostgreSQL's 8,000-byte limit. */
const IDS_PER_MESSAGE = 250;
/** Subscribers get this instead of a user id when messages may have been missed (a reconnect). */
const EVERYONE = '*';

type Listener = () => void;

/** Who holds an open stream: its account and the client address it came from. */
export interface StreamOwner {
  userId: string;
  address: string;
}

/** How many streams one account and one address may hold open on this process. */
export interface StreamCaps {
  perAccount: number;
  perAddress: number;
}

/** Open streams grouped by owner (an account or an address), each group oldest first. */
class StreamGroups {
  private readonly groups = new Map<string, Set<ServerResponse>>();

  constructor(private readonly cap: number) {}

  /** Adds the stream; answers the owner's oldest streams that put it over the cap. */
  add(owner: string, stream: ServerResponse): ServerResponse[] {
    let group = this.groups.get(owner);
    if (!group) this.groups.set(owner, (group = new Set()));
    group.add(stream);
    // A Set iterates in insertion order, so its first entries are the oldest streams.
    return [...group].slice(0, Math.max(0, group.size - this.cap));
  }

  remove(owner: string, stream: ServerResponse): void {
    const group = this.groups.get(owner);
    if (!group?.delete(stream)) return;
    if (group.size === 0) this.groups.delete(owner);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    notificationHub: NotificationHub;
  }
}

/**
 * Tells open notification streams that a user's unread count may have changed. On PostgreSQL
 * the signal is a NOTIFY sent in the writer's transaction, so every process hears it once the
 * rows are committed; SQLite runs in one process, so an in-process emitter suffices.
 */
export class NotificationHub {
  private readonly local = new EventEmitter();
  /**
   * Open streams of this process and who holds them. An open connection belongs to the process
   * that accepted it, so these caps are per process and kept in memory: unlike a rate limit there
   * is nothing another process could count or would need to see.
   */
  private readonly streams = new Map<ServerResponse, StreamOwner>();
  private readonly byAccount: StreamGroups;
  private readonly byAddress: StreamGroups;
  private listening: Promise<unknown> | null = null;

  constructor(
    private readonly listener: PgListener | null,
    caps: StreamCaps,
  ) {
    this.local.setMaxListeners(0);
    this.byAccount = new StreamGroups(caps.perAccount);
    this.byAddress = new StreamGroups(caps.perAddress);
  }

  /**
   * Announces that these users' notifications changed. Call with the transaction that changed
   * them; run the returned function once it has committed.
   */
  async announce(db: Executor, userIds: string[]): Promise<() => void> {
    if (dialectOf(db) === 'postgres') {
      for (let i = 0; i < userIds.length; i += IDS_PER_MESSAGE) await notify(db, NOTIFICATIONS_CHANNEL, userIds.slice(i, i + IDS_PER_MESSAGE).join(','));
      return () => {};
    }
    return () => this.dispatch(userIds.join(','));
  }

  /** Calls `listener` whenever the user's notifications may have changed. */
  async subscribe(userId: string, listener: Listener): Promise<() => void> {
    this.local.on(userId, listener);
    this.local.on(EVERYONE, listener);
    if (this.listener) {
      this.listening ??= this.listener.listen(NOTIFICATIONS_CHANNEL, (payload) => this.dispatch(payload ?? EVERYONE));
      await this.listening;
    }
    return () => {
      this.local.off(userId, listener);
      this.local.off(EVERYONE, listener);
    };
  }

  /**
   * Keeps an open stream so closing the app can end it (an open stream would hold the server).
   * Past its owner's caps it ends the owner's oldest streams: each stream costs a wake-up and a
   * count read per change of its user's notifications, so thousands of them on one token would
   * turn a handful of comments into tens of thousands of writes. The newest is kept, since that
   * is the tab the user is looking at; a closed tab's stream may linger until its socket times out.
   */
  track(stream: ServerResponse, owner: StreamOwner): () => void {
    this.streams.set(stream, owner);
    const over = new Set([...this.byAccount.add(owner.userId, stream), ...this.byAddress.add(owner.address, stream)]);
    for (const oldest of over) {
      this.untrack(oldest);
      oldest.end();
    }
    return () => this.untrack(stream);
  }

  private untrack(stream: ServerResponse): void {
    const owner = this.streams.get(stream);
    if (!owner) return;
    this.streams.delete(stream);
    this.byAccount.remove(owner.userId, stream);
    this.byAddress.remove(owner.address, stream);
  }

  /** How many streams this process holds open. */
  get openStreams(): number {
    return this.streams.size;
  }

  async close(): Promise<void> {
    for (const stream of this.streams.keys()) stream.end();
    this.streams.clear();
    await this.listener?.close();
  }

  private dispatch(message: string): void {
    if (message === EVERYONE) {
      this.local.emit(EVERYONE);
      return;
    }
    for (const userId of new Set(message.split(','))) this.local.emit(userId);
  }
}

export const notificationHubPlugin = fp(
  async (app: FastifyInstance) => {
    const listener = pgListenerFor(app);
    const hub = new NotificationHub(listener, app.config.streams);
    app.decorate('notificationHub', hub);
    app.addHook('preClose', async () => hub.close());
  },
  { name: 'notification-hub', dependencies: ['database'] },
);

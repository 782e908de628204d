import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import { isPostgres } from '../../db/helpers.js';
import { type PgListener, pgListenerFor } from '../jobs/pg-listener.js';

export const NOTIFICATIONS_CHANNEL = 'kruh_notifications';
/** Ids per NOTIFY payload: 25 bytes each stays well under PostgreSQL's 8,000-byte limit. */
const IDS_PER_MESSAGE = 250;
/** Subscribers get this instead of a user id when messages may have been missed (a reconnect). */
const EVERYONE = '*';

type Listener = () => void;

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
  private readonly streams = new Set<ServerResponse>();
  private listening: Promise<unknown> | null = null;

  constructor(private readonly listener: PgListener | null) {
    this.local.setMaxListeners(0);
  }

  /**
   * Announces that these users' notifications changed. Call with the transaction that changed
   * them; run the returned function once it has committed.
   */
  async announce(db: Executor, userIds: string[]): Promise<() => void> {
    if (isPostgres(db)) {
      for (let i = 0; i < userIds.length; i += IDS_PER_MESSAGE) {
        const message = userIds.slice(i, i + IDS_PER_MESSAGE).join(',');
        await sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${message})`.execute(db);
      }
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

  /** Keeps an open stream so closing the app can end it (an open stream would hold the server). */
  track(stream: ServerResponse): () => void {
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  async close(): Promise<void> {
    for (const stream of this.streams) stream.end();
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
    const hub = new NotificationHub(listener);
    app.decorate('notificationHub', hub);
    app.addHook('preClose', async () => hub.close());
  },
  { name: 'notification-hub', dependencies: ['database'] },
);

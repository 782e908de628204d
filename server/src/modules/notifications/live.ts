import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { Executor } from '../../db/schema.js';
import { dialectOf, notify } from '../../db/dialect.js';
import { type PgListener, pgListenerFor } from '../../lib/jobs/pg-listener.js';
import { type Endable, OpenStreams, type StreamCaps, type StreamOwner } from './open-streams.js';
import { PostSignals } from './post-signals.js';

export const NOTIFICATIONS_CHANNEL = 'kruh_notifications';
/** Ids per NOTIFY payload: 25 bytes each stays well under PostgreSQL's 8,000-byte limit. */
const IDS_PER_MESSAGE = 250;
/** Subscribers get this instead of a user id when messages may have been missed (a reconnect). */
const EVERYONE = '*';

type Listener = () => void;

declare module 'fastify' {
  interface FastifyInstance {
    notificationHub: NotificationHub;
    /** New, edited and deleted posts, heard by every process (the client API's streams). */
    postSignals: PostSignals;
    /** The client API's open streams on this process, capped like the web app's. */
    clientStreams: OpenStreams<Endable>;
  }
}

/**
 * Tells open notification streams that a user's unread count may have changed. On PostgreSQL
 * the signal is a NOTIFY sent in the writer's transaction, so every process hears it once the
 * rows are committed; SQLite runs in one process, so an in-process emitter suffices.
 */
export class NotificationHub {
  private readonly local = new EventEmitter();
  /** The web app's open streams of this process and who holds them. */
  private readonly streams: OpenStreams<ServerResponse>;
  private listening: Promise<unknown> | null = null;

  constructor(
    private readonly listener: PgListener | null,
    caps: StreamCaps,
  ) {
    this.local.setMaxListeners(0);
    this.streams = new OpenStreams(caps);
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

  /** Keeps an open stream, within its owner's caps (see OpenStreams.track). */
  track(stream: ServerResponse, owner: StreamOwner): () => void {
    return this.streams.track(stream, owner);
  }

  /** How many streams this process holds open. */
  get openStreams(): number {
    return this.streams.size;
  }

  async close(): Promise<void> {
    this.streams.endAll();
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
    const clientStreams = new OpenStreams<Endable>(app.config.streams);
    app.decorate('notificationHub', hub);
    app.decorate('postSignals', new PostSignals(listener));
    app.decorate('clientStreams', clientStreams);
    app.addHook('preClose', async () => {
      clientStreams.endAll();
      await hub.close();
    });
    await app.register(websocket, {
      options: {
        // Apps that cannot set headers send their token as the socket's protocol, and a browser
        // opens the socket only if the answer names the protocol it offered.
        handleProtocols: (protocols) => protocols.values().next().value ?? false,
        // An app only ever sends small subscribe and unsubscribe messages.
        maxPayload: 4096,
      },
    });
  },
  { name: 'notification-hub', dependencies: ['database'] },
);

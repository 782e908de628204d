import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pg from 'pg';
import { dialectOf } from '../../db/dialect.js';

/** Called with a NOTIFY payload, or with null after a reconnect (messages may have been missed). */
export type ListenHandler = (payload: string | null) => void;

const RECONNECT_MS = 1000;

/**
 * A dedicated PostgreSQL connection for LISTEN: pooled connections cannot hold a LISTEN. It
 * reconnects after a drop and tells every handler, so each can re-read what it may have missed.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly handlers = new Map<string, Set<ListenHandler>>();

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async listen(channel: string, handler: ListenHandler): Promise<() => void> {
    let set = this.handlers.get(channel);
    const fresh = !set;
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    await this.ensureConnected();
    if (fresh && this.client) await this.client.query(`LISTEN ${channel}`);
    return () => {
      set.delete(handler);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private ensureConnected(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    const dropped = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => {});
      if (this.closed) return;
      this.log.warn({ err }, 'notification listener disconnected; reconnecting');
      this.scheduleReconnect();
    };
    client.on('error', dropped);
    client.on('end', () => dropped());
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      client.end().catch(() => {});
      if (this.closed) return;
      this.log.error({ err }, 'notification listener could not connect');
      this.scheduleReconnect();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.ensureConnected().then(() => {
        if (!this.client) return;
        for (const set of this.handlers.values()) for (const handler of set) handler(null);
      });
    }, RECONNECT_MS);
  }
}

/** A listener of the app's own PostgreSQL, or null on SQLite, whose single process needs no signals. */
export function pgListenerFor(app: FastifyInstance): PgListener | null {
  return dialectOf(app.db) === 'postgres' && app.config.databaseUrl ? new PgListener(app.config.databaseUrl, app.log) : null;
}

import { EventEmitter } from 'node:events';
import type { Executor } from '../../db/schema.js';
import { notify } from '../../db/dialect.js';
import type { PgListener } from '../../lib/jobs/pg-listener.js';

export const POSTS_CHANNEL = 'kruh_posts';

/** What became of a post: each open stream reads it again to learn whether its viewer may see it. */
export type PostChange = 'created' | 'edited' | 'deleted';

const CHANGES: ReadonlySet<string> = new Set<PostChange>(['created', 'edited', 'deleted']);
const SIGNAL = 'post';

export type PostListener = (change: PostChange, postId: string) => void;

/**
 * Tells every process's open client streams that a post was made, changed or is going. Only the
 * post's id travels: each stream reads the post itself, as its own viewer, so what it sends has
 * passed the same rules as a timeline read. As with notifications, PostgreSQL carries the signal
 * in a NOTIFY of the writer's transaction (heard once the post is committed, never for one rolled
 * back); SQLite's one process uses an in-process emitter, whose listeners' reads queue behind the
 * writing transaction on its one connection.
 */
export class PostSignals {
  private readonly local = new EventEmitter();
  private listening: Promise<unknown> | null = null;

  constructor(private readonly listener: PgListener | null) {
    this.local.setMaxListeners(0);
  }

  /** Announces the change; call it in the transaction that made it. */
  async announce(db: Executor, change: PostChange, postId: string): Promise<void> {
    const message = `${change}:${postId}`;
    if (!(await notify(db, POSTS_CHANNEL, message))) setImmediate(() => this.dispatch(message));
  }

  /** Calls `listener` for every post change, whichever process made it. */
  async subscribe(listener: PostListener): Promise<() => void> {
    this.local.on(SIGNAL, listener);
    if (this.listener) {
      // A payload of null (a reconnect) names no post: a live stream does not replay what it missed.
      this.listening ??= this.listener.listen(POSTS_CHANNEL, (payload) => payload && this.dispatch(payload));
      await this.listening;
    }
    return () => this.local.off(SIGNAL, listener);
  }

  private dispatch(message: string): void {
    const [change, postId] = message.split(':');
    if (change && postId && CHANGES.has(change)) this.local.emit(SIGNAL, change, postId);
  }
}
